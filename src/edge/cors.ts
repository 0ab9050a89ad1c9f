/**
 * Cross-origin policy (spec part 1 §5.7): any site may call the API and read
 * the quota and rate-limit headers. Authentication is by header or api_key,
 * never cookies, so credentials are not allowed and reflecting Origin is safe.
 */
export const ALLOWED_REQUEST_HEADERS = ['x-api-key', 'authorization', 'content-type', 'x-svc-source', 'x-request-id'];

export const EXPOSED_RESPONSE_HEADERS = [
  'x-svc-quota-limit-minute',
  'x-svc-quota-remaining-minute',
  'x-svc-quota-limit-day',
  'x-svc-quota-remaining-day',
  'x-svc-quota-reset-minute',
  'x-svc-quota-unlimited',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'x-request-id',
];

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** Browsers may cache a preflight answer this long. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;
const EXPOSED = EXPOSED_RESPONSE_HEADERS.join(', ');
const ALLOWED = ALLOWED_REQUEST_HEADERS.join(', ');

/** Headers every response to a cross-origin request carries. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!origin) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
  };
}

/** Headers of the answer to a preflight (OPTIONS) request. */
export function preflightHeaders(origin: string | undefined): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-allow-headers': ALLOWED,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    allow: ALLOWED_METHODS,
  };
}
