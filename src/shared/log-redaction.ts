/**
 * Credentials never reach a log line: the logger's serializers pass every `url` and `headers` it is given through
 * these. Names are compared lower-cased and, for query parameters, after percent-decoding exactly as the access gate
 * decodes them (`?%61pi_key=` authenticates as `api_key`, so it is masked as `api_key`).
 */

export const REDACTED = '[redacted]';

/** Query parameters and headers whose values are credentials (or sign-in codes), lower-cased. */
const SECRET_NAMES = new Set([
  'api_key',
  'apikey',
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'access_token',
  'token',
  'code',
  'state',
  'idtoken',
  'id_token',
]);

function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase());
}

/** A parameter name as URLSearchParams (hence the gate) decodes it; most names have nothing to decode. */
function decodedName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  for (const [name] of new URLSearchParams(`${raw}=`)) return name;
  return raw;
}

/** `url` (a path with an optional query) with the value of every secret query parameter masked. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const pairs = url.slice(mark + 1).split('&');
  let masked = false;
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index]!;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    if (isSecretName(decodedName(rawName))) {
      pairs[index] = `${rawName}=${REDACTED}`;
      masked = true;
    }
  }
  return masked ? `${url.slice(0, mark + 1)}${pairs.join('&')}` : url;
}

/** A copy of `headers` with the value of every credential header masked. */
export function redactHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name in headers) copy[name] = isSecretName(name) ? REDACTED : headers[name];
  return copy;
}
