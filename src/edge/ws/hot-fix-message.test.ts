/**
 * The hand-written check of the hot fix message against the schema that defines it (`clientMessageSchema`, as
 * `validate` applies it): on messages of the hot shape — `{type:"fix", fix:{…}}` with fix fields among lat, lng,
 * speed, heading, accuracy — both accept and refuse the same ones and accepted messages are equal; any other
 * message is left to the schema (undefined).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../input.js';
import { decodeHotFixMessage } from './hot-fix-message.js';
import { decodeClientMessage } from './stream-handshake.js';
import { clientMessageSchema } from './stream-protocol.js';

const HOT_FIX_FIELDS = ['lat', 'lng', 'speed', 'heading', 'accuracy'];

/** Values around every bound of the fix fields, and values of the wrong kind. */
const fieldValue = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -200, max: 200, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(-180, -90, -0, 0, 90, 150, 180, 360, 10_000, -1e-9, 90.000001, 150.0000001, 360.5, 10_000.01, 1e21, -1e21, 5e-324) },
  { weight: 2, arbitrary: fc.double({ min: -20_000, max: 20_000, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('30.1', null, true, [], {}, [30], { lat: 1 }, '', 'fix') },
);

const fixObject = fc.dictionary(fc.constantFrom(...HOT_FIX_FIELDS, 'capturedAt', 'altitude', '__proto__', 'Lat'), fieldValue, { maxKeys: 7 });
const hotShaped = fc.record({ type: fc.constant('fix'), fix: fc.dictionary(fc.constantFrom(...HOT_FIX_FIELDS), fieldValue, { maxKeys: 5 }) });
const anyMessage = fc.oneof(
  { weight: 4, arbitrary: hotShaped },
  { weight: 2, arbitrary: fc.record({ type: fc.constantFrom('fix', 'fixes', 'ping', 'Fix', 'auth'), fix: fc.oneof(fixObject, fieldValue) }, { requiredKeys: ['type'] }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('fix'), fix: fixObject, id: fc.oneof(fc.string({ maxLength: 70 }), fc.integer()) }, { requiredKeys: ['type', 'fix'] }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('fixes'), fixes: fc.array(fixObject, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.array(fc.constant('fix')), fc.string(), fc.double({ noNaN: true })) },
);

/** The message as a client's bytes would decode: JSON text, sometimes with numbers JSON.stringify cannot write. */
const messageText = fc.oneof(
  { weight: 9, arbitrary: anyMessage.map((message) => JSON.stringify(message)) },
  { weight: 1, arbitrary: fc.constantFrom('{"type":"fix","fix":{"lat":1e999,"lng":31}}', '{"type":"fix","fix":{"lat":30,"lng":-1e999}}', '{"fix":{"lat":30,"lng":31},"type":"fix"}', '{"type":"fix","fix":{"lat":30,"lng":31,"lat":91}}', '{"type":"fix","fix":{"__proto__":{"lat":30},"lng":31}}') },
);

function isHotShaped(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const keys = Object.keys(raw);
  const { type, fix } = raw as { type?: unknown; fix?: unknown };
  if (type !== 'fix' || keys.length !== 2 || !keys.includes('fix')) return false;
  return typeof fix === 'object' && fix !== null && !Array.isArray(fix) && Object.keys(fix).every((key) => HOT_FIX_FIELDS.includes(key));
}

/** The full path's verdict: the schema as every stream message meets it. */
function fullVerdict(raw: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: validate('message', clientMessageSchema, raw) };
  } catch {
    return { ok: false };
  }
}

describe('hot fix message check', () => {
  it('accepts and refuses what the schema does for messages of its shape, and leaves every other message to it', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(messageText, (text) => {
        const raw: unknown = JSON.parse(text);
        const hot = decodeHotFixMessage(raw);
        const full = fullVerdict(raw);
        if (!isHotShaped(raw)) {
          expect(hot).toBeUndefined();
          return;
        }
        expect(hot !== undefined).toBe(full.ok);
        if (hot !== undefined && full.ok) {
          expect(hot).toEqual(full.value);
          accepted++;
        } else refused++;
      }),
      { numRuns: 20_000, seed: 20261127 },
    );
    // both verdicts were reached often, so the comparison was not vacuous
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });

  it('gives decodeClientMessage the same answer with and without it', () => {
    fc.assert(
      fc.property(messageText, (text) => {
        const data = new TextEncoder().encode(text).buffer as ArrayBuffer;
        const plain = decodeClientMessage(data, clientMessageSchema);
        const fast = decodeClientMessage(data, clientMessageSchema, decodeHotFixMessage);
        expect(fast.ok).toBe(plain.ok);
        if (fast.ok && plain.ok) expect(fast.message).toEqual(plain.message);
        if (!fast.ok && !plain.ok) {
          expect(fast.id).toBe(plain.id);
          expect(fast.error.messages).toEqual(plain.error.messages);
        }
      }),
      { numRuns: 5_000, seed: 27 },
    );
  });
});
