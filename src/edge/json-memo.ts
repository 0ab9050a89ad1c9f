/**
 * The JSON body of a response built around a shared, immutable value (a cached service answer), serialized once per
 * value: a repeated answer then costs neither the work behind it nor its serialization (~10 % of a cached
 * autocomplete request's CPU). Held weakly: when the service's cache lets the value go, its JSON goes too.
 */
import { HttpReply } from './route.js';

// UTF-8 bytes rather than a string: the socket write then copies them instead of encoding the text again
const bodies = new WeakMap<object, Buffer>();

/** `envelope(value)` as a 200 JSON reply; serialized the first time `value` is seen, reused after. */
export function memoizedJson<T extends object>(value: T, envelope: (value: T) => unknown): HttpReply {
  let body = bodies.get(value);
  if (body === undefined) {
    body = Buffer.from(JSON.stringify(envelope(value)));
    bodies.set(value, body);
  }
  return HttpReply.content(body, 'application/json; charset=utf-8');
}

const bytes = new WeakMap<object, Buffer>();

/**
 * The JSON of a shared, immutable value that is a part of many answers (a geocoder's suggestion for one entry), as
 * UTF-8 bytes made once: an answer assembled afresh from such parts (one per bias point) is a copy of their bytes,
 * where spliced texts would be flattened and encoded to UTF-8 again by the socket write on every answer (suggestions
 * are mostly Arabic: two bytes a character).
 */
export function sharedJsonBytes(value: object): Buffer {
  let kept = bytes.get(value);
  if (kept === undefined) {
    kept = Buffer.from(JSON.stringify(value));
    bytes.set(value, kept);
  }
  return kept;
}
