/**
 * A handler's answer that is already JSON text: the edge sends it as it is
 * (with the route's success status) instead of serialising an object. For
 * answers assembled from parts serialised elsewhere, such as the route answer
 * a solver worker wrote and handed over as UTF-8 bytes (a Buffer).
 */
export class JsonText {
  constructor(readonly text: string | Buffer) {}
}

/** What JSON.stringify escapes in a string: `"`, `\`, control characters and lone surrogates (any surrogate here). */
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`, quoted here when it holds nothing to escape (a request id, a method, an address, a
 * percent-encoded URL, most query texts): JSON.stringify is a call into C++, which costs more than one regular
 * expression test of a short text. A text with a surrogate, even a well-paired one, goes to JSON.stringify.
 */
export function jsonString(text: string): string {
  return ESCAPED_IN_JSON.test(text) ? JSON.stringify(text) : `"${text}"`;
}
