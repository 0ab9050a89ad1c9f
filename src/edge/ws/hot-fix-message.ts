/**
 * The one message shape a navigation stream receives thousands of times a second — `{"type":"fix","fix":{lat,
 * lng, speed?, heading?, accuracy?}}`, one fix, no id — checked by hand instead of by the zod schema. The schema
 * (`clientMessageSchema` in stream-protocol.ts) stays the definition and the path for every other message: this
 * check answers only "this is a valid hot fix message", or "not decided here" (undefined), and the full path then
 * validates as before, with the same error frames. A property test (hot-fix-message.test.ts) holds the two
 * together: within this shape both accept and refuse the same messages, and accepted ones are equal.
 *
 * Why: zod walked the union, the object and five number schemas per message (plus the input walk for NUL and
 * surrogates, which a message of known keys and numbers cannot hold): a few µs of a fix's CPU and ~1 KiB of
 * allocation. The decoded object itself is the message: nothing is copied.
 */
import type { ClientMessage } from './stream-protocol.js';

type FixMessage = Extract<ClientMessage, { type: 'fix' }>;

/** `value` is a number within [min, max]: what `z.number().finite().min(min).max(max)` accepts. */
function inRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && value >= min && value <= max && Number.isFinite(value);
}

/** An object as JSON.parse makes one (not an array, not null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * The decoded message when it is a valid one-fix message of the hot shape (bounds as in `fixSchema`: lat ±90,
 * lng ±180, speed 0–150 m/s, heading 0–360°, accuracy 0–10 000 m); undefined for anything else, valid or not
 * (an `id`, `capturedAt`, an unknown field, a batch): the schema decides those.
 */
export function decodeHotFixMessage(raw: unknown): FixMessage | undefined {
  if (!isPlainObject(raw) || raw.type !== 'fix') return undefined;
  let keys = 0;
  for (const key in raw) {
    if (key !== 'type' && key !== 'fix') return undefined;
    keys++;
  }
  const fix = raw.fix;
  if (keys !== 2 || !isPlainObject(fix)) return undefined;
  for (const key in fix) {
    switch (key) {
      case 'lat':
        if (!inRange(fix.lat, -90, 90)) return undefined;
        break;
      case 'lng':
        if (!inRange(fix.lng, -180, 180)) return undefined;
        break;
      case 'speed':
        if (!inRange(fix.speed, 0, 150)) return undefined;
        break;
      case 'heading':
        if (!inRange(fix.heading, 0, 360)) return undefined;
        break;
      case 'accuracy':
        if (!inRange(fix.accuracy, 0, 10_000)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  // lat and lng are required; a present optional field was checked in the loop
  if (fix.lat === undefined || fix.lng === undefined) return undefined;
  return raw as unknown as FixMessage;
}
