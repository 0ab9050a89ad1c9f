import { ApiError } from '../shared/errors.js';

/** A Host header we are willing to echo into URLs: a name or IPv4 with an optional port, or a bracketed IPv6. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin URLs in documents (tile templates, manifests) start with: PUBLIC_BASE_URL when set, else
 * `http://<Host>` of the request (a malformed Host is refused, never echoed).
 */
export function publicOrigin(publicBaseUrl: string | undefined, headers: Readonly<Record<string, string>>): string {
  const configured = publicBaseUrl?.replace(/\/+$/, '');
  if (configured) return configured;
  const host = headers.host ?? '';
  if (!HOST.test(host)) throw new ApiError('VALIDATION_ERROR', { message: ['headers.host: invalid'] });
  return `http://${host}`;
}
