/**
 * The progress frame template against `JSON.stringify`: the same text, byte for byte, for generated frames of
 * the shape the session makes (numbers of every kind, strings that need escaping, null progress or next
 * maneuver), on one writer reused across frames as a stream reuses it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressFrameWriter, type ProgressFeedFrame } from './progress-frame-text.js';

const number = fc.oneof(
  { weight: 5, arbitrary: fc.double({ min: -1e7, max: 1e7 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e21, 1e-7, 123456789.123456, Number.NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE) },
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('انعطف يسارًا إلى شارع التأمين.', 'Turn "left"\\ onto\nMain\u2028Street', '\ud800 lone'));

const progress = fc.record({
  offRoute: fc.boolean(),
  arrived: fc.boolean(),
  shapeIndex: number,
  maneuverIndex: number,
  snapped: fc.record({ lat: number, lng: number }),
  distanceToRouteMeters: number,
  distanceRemainingMeters: number,
  durationRemainingSeconds: number,
  distanceToNextManeuverMeters: fc.option(number, { nil: null }),
  nextManeuver: fc.option(fc.record({ index: number, type: number, instruction: text, verbalAlert: text, cumulativeMeters: number, lat: number, lng: number }), { nil: null }),
  progressFraction: number,
});

const frame: fc.Arbitrary<ProgressFeedFrame> = fc.record({
  type: fc.constant('progress' as const),
  fixSeq: number,
  sessionId: fc.oneof(fc.uuid(), text),
  status: fc.constantFrom('active' as const, 'arrived' as const, 'cancelled' as const, 'expired' as const),
  maneuverIndex: number,
  eventSeq: number,
  etaSeconds: number,
  distanceRemainingMeters: number,
  durationRemainingSeconds: number,
  progress: fc.option(progress, { nil: null }),
});

describe('progress frame text', () => {
  it('is JSON.stringify of the frame, frame after frame on one writer', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 8 }), (frames) => {
        const writer = new ProgressFrameWriter();
        for (const each of frames) expect(writer.text(each)).toBe(JSON.stringify(each));
      }),
      { numRuns: 3_000, seed: 20261127 },
    );
  });
});
