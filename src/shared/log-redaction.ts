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

/**
 * The shortest secret name. A parameter name written with fewer characters is none, however it is encoded: decoding
 * only shortens a name, and lower-casing lengthens none but `İ`, into a non-ASCII pair no secret name holds.
 */
const SHORTEST_SECRET_NAME = Math.min(...[...SECRET_NAMES].map((name) => name.length));

/** `url` (a path with an optional query) with the value of every secret query parameter masked. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0 || !holdsSecretName(url, mark + 1)) return url;
  const pairs = url.slice(mark + 1).split('&');
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index]!;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    if (isSecretName(decodedName(rawName))) pairs[index] = `${rawName}=${REDACTED}`;
  }
  return `${url.slice(0, mark + 1)}${pairs.join('&')}`;
}

/**
 * Whether a parameter of the query starting at `start` has a secret name. Every request's URL is logged and few hold
 * a secret, so the names are looked at in place (one scan, nothing sliced for names too short to be secret).
 */
function holdsSecretName(url: string, start: number): boolean {
  let equals = -1;
  while (start <= url.length) {
    let end = url.indexOf('&', start);
    if (end < 0) end = url.length;
    // the first `=` at or after `start`, found again only once passed: one scan of the text, however many pairs
    if (equals < start && equals !== Infinity) equals = url.indexOf('=', start);
    if (equals < 0) equals = Infinity;
    const nameEnd = Math.min(equals, end);
    if (nameEnd - start >= SHORTEST_SECRET_NAME && isSecretName(decodedName(url.slice(start, nameEnd)))) return true;
    start = end + 1;
  }
  return false;
}

/** A copy of `headers` with the value of every credential header masked. */
export function redactHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name in headers) copy[name] = isSecretName(name) ? REDACTED : headers[name];
  return copy;
}
