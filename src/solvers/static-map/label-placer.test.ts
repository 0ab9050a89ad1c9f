import { describe, expect, it } from 'vitest';
import { longestRun } from './label-placer.js';

const part = (...points: [number, number][]) => new Float64Array(points.flat());

describe('line label placement', () => {
  it('takes the longest nearly straight run of a line, its middle and direction', () => {
    // 100 px east, then a right-angle bend and 30 px south
    const run = longestRun([part([0, 0], [50, 1], [100, 0], [100, 30])])!;
    expect(run.length).toBeCloseTo(100, 6);
    expect([run.x, run.y]).toEqual([50, 0]);
    expect(run.angle).toBeCloseTo(0, 6);
  });

  it('keeps text upright on a line drawn right to left or downwards', () => {
    expect(longestRun([part([100, 0], [0, 0])])!.angle).toBeCloseTo(0, 6);
    const down = longestRun([part([0, 0], [0, 80])])!;
    expect(Math.abs(down.angle)).toBeCloseTo(Math.PI / 2, 6);
    const upLeft = longestRun([part([100, 100], [0, 0])])!.angle;
    expect(upLeft).toBeCloseTo(Math.PI / 4, 6);
  });

  it('compares runs across parts and answers nothing for a lone point', () => {
    expect(longestRun([part([0, 0], [10, 0]), part([0, 50], [40, 80])])!.length).toBeCloseTo(50, 6);
    expect(longestRun([part([5, 5])])).toBeUndefined();
  });
});
