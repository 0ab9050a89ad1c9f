import { STATUS_CODES } from 'node:http';

/**
 * The one registry of error codes. Every error the API answers with is an
 * ApiError built from one of these entries and serialised by the edge's single
 * error mapper into `{ statusCode, message, error, code, details, requestId }`.
 * docs/errors.md documents each code; a test keeps the two in step.
 */
export const errorCodes = {
  VALIDATION_ERROR: { status: 400, message: 'Validation failed' },
  MALFORMED_REQUEST: { status: 400, message: 'Malformed HTTP request' },
  PROVIDER_ACCOUNT: { status: 400, message: 'This account signs in through a provider' },
  CAPTCHA_FAILED: { status: 400, message: 'The captcha was not solved' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  FORBIDDEN: { status: 403, message: 'Forbidden' },
  KEY_WEBSITE_NOT_ALLOWED: { status: 403, message: 'API key not allowed from this website' },
  KEY_IP_NOT_ALLOWED: { status: 403, message: 'API key not allowed from this address' },
  QUOTA_EXCEEDED: { status: 403, message: 'Quota exceeded' },
  NO_ROAD_NEARBY: { status: 400, message: 'No road the costing can use near a location' },
  NO_ROUTE: { status: 400, message: 'No route between the locations' },
  COSTING_UNAVAILABLE: { status: 400, message: 'This costing is not available for the loaded map data' },
  MONTH_START_IMPLAUSIBLE: { status: 400, message: 'The month start is too far from the computed one' },
  INVALID_IMAGE: { status: 400, message: 'The file is not an image that can be accepted' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  SESSION_ENDED: { status: 409, message: 'The navigation session has ended' },
  STOP_CLOSED: { status: 409, message: 'The stop was already completed or cancelled' },
  REVIEW_EXISTS: { status: 409, message: 'You have already reviewed this place' },
  STATE_CONFLICT: { status: 409, message: 'Not allowed in the current state' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body too large' },
  URI_TOO_LONG: { status: 414, message: 'Request target too long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  TOO_MANY_STREAMS: { status: 429, message: 'Too many open streams' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers too large' },
  // nginx's 499: the client went away before its answer; never sent (nobody is listening), it names the outcome in logs and metrics
  CLIENT_CLOSED_REQUEST: { status: 499, message: 'The client closed the request before its answer' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
  DATABASE_UNAVAILABLE: { status: 503, message: 'The database cannot be reached; retry shortly' },
  CAPTCHA_UNAVAILABLE: { status: 503, message: 'The captcha could not be checked' },
  COMPUTATION_TIMEOUT: { status: 503, message: 'The computation exceeded its time budget' },
  SERVER_BUSY: { status: 503, message: 'Every solver worker is busy and the waiting line is full' },
  NOT_READY: { status: 503, message: 'Not ready' },
  // routing analysis (isochrones, map matching)
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** The HTTP reason phrase used as the `error` field ("Bad Request", "Not Found", ...). */
export function statusName(status: number): string {
  return STATUS_CODES[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad Request');
}

export interface ApiErrorOptions {
  /** Overrides the registry's default message; an array for field-level validation messages. */
  message?: string | string[];
  details?: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly messages: string | string[];
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry = errorCodes[code];
    const messages = options.message ?? entry.message;
    // A client's mistake (4xx) is an answer, not a fault: its stack is never logged, and capturing one is the
    // dearest part of a refused request (a flood of 429s cost more per request than the answers it refused).
    const stackTraceLimit = Error.stackTraceLimit;
    if (entry.status < 500) Error.stackTraceLimit = 0;
    super(Array.isArray(messages) ? messages.join('; ') : messages);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = entry.status;
    this.messages = messages;
    this.details = options.details;
    this.headers = options.headers;
  }
}

/** How long a client is told to wait (Retry-After, seconds) while the database cannot be reached: a restart's length. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * What a store error says when its backend could not be reached at all (refused, reset, closed, timed out while
 * connecting, shutting down): the SQL clients' errors carry `unavailableDependency: "database"`. Such a failure is
 * an outage the caller can wait out, not a fault of the request: 503 `DATABASE_UNAVAILABLE` with `Retry-After`.
 */
export interface DependencyFailure {
  readonly unavailableDependency?: 'database';
}

/** The API error an outage of a backend stands for, or undefined when `error` is not one. */
export function unavailableDependencyError(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null || (error as DependencyFailure).unavailableDependency !== 'database') return undefined;
  return new ApiError('DATABASE_UNAVAILABLE', {
    details: { dependency: 'database' },
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}
