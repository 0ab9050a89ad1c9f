/**
 * The soak's memory bound (load-tests/memory-samples.ts): the slope it judges growth by must follow a steady climb
 * and must not read one dip-and-refill of the allocator as growth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianSlopePerMinute, slopePerMinute } from '../load-tests/memory-samples.js';

const every10s = (values: number[]) => values.map((value, index) => ({ atSeconds: index * 10, value }));

describe('memory slopes of the soak', () => {
  it('reads a steady climb of any rate as that rate, with noise around it', () => {
    fc.assert(
      fc.property(fc.double({ min: -5, max: 20, noNaN: true }), fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: 30, maxLength: 30 }), (perMinute, noise) => {
        const points = every10s(noise.map((jitter, index) => 400 + (perMinute * index) / 6 + jitter));
        expect(medianSlopePerMinute(points)).toBeCloseTo(perMinute, 0);
      }),
      { numRuns: 100 },
    );
  });

  it('does not read a dip and refill early in the window as growth, where least squares does', () => {
    // the later half of the quiet soak's process 17846 (2026-11-28): the end of a dip (337-359 MB), then flat at ~393
    const rss = [359.5, 359.2, 375.8, 392.0, 392.3, 392.2, 392.0, 392.5, 392.0, 392.4, 393.6, 392.8, 393.6, 393.3, 392.8, 394.2, 393.6, 393.8, 393.8, 394.7, 395.9, 393.9, 394.2, 394.0, 391.9, 392.4, 392.2, 392.9, 392.7, 391.9];
    expect(slopePerMinute(every10s(rss))).toBeGreaterThan(2);
    expect(medianSlopePerMinute(every10s(rss))).toBeLessThan(2);
  });

  it('answers NaN with fewer than two readings', () => {
    expect(medianSlopePerMinute([])).toBeNaN();
    expect(medianSlopePerMinute([{ atSeconds: 0, value: 1 }])).toBeNaN();
  });
});
