import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsortIds, binarySearch, indexIds, sortUnique } from './sorted-ids.js';

/** OSM-like ids: integers, possibly negative (unsaved edits), spanning beyond 2^32. */
const ids = fc.array(
  fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 2 ** 20 })).map(([high, low]) => high * 2 ** 20 + low), fc.constant(2 ** 52 - 1)),
  { maxLength: 400 },
);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

describe('sorted ids (radix sort on two 32-bit halves)', () => {
  it('argsortIds gives the stable ascending permutation', () => {
    fc.assert(
      fc.property(ids, (values) => {
        const order = argsortIds(Float64Array.from(values))!;
        const sorted = Array.from(order, (index) => values[index]!);
        expect(sorted).toEqual(ascending(values));
        // stable: equal ids keep their input order
        for (let index = 1; index < order.length; index++) if (sorted[index] === sorted[index - 1]) expect(order[index]!).toBeGreaterThan(order[index - 1]!);
      }),
    );
  });

  it('indexIds gives the distinct ids in order and, for each value, its slot among them', () => {
    fc.assert(
      fc.property(ids, (values) => {
        const { ids: distinct, slotOf } = indexIds(Float64Array.from(values));
        expect(Array.from(distinct)).toEqual([...new Set(ascending(values))]);
        values.forEach((value, index) => expect(distinct[slotOf[index]!]).toBe(value));
        values.forEach((value) => expect(binarySearch(distinct, value)).toBeGreaterThanOrEqual(0));
      }),
    );
  });

  it('falls back to a comparison sort for values a radix sort cannot key (fractions, a span of 2^53 or more)', () => {
    expect(argsortIds(Float64Array.from([3, 1.5, 2]))).toBeUndefined();
    expect(argsortIds(Float64Array.from([-(2 ** 52), 2 ** 52]))).toBeUndefined();
    expect(Array.from(sortUnique(Float64Array.from([3, 1.5, 2, 3])))).toEqual([1.5, 2, 3]);
    const { ids: distinct, slotOf } = indexIds(Float64Array.from([2 ** 52, -(2 ** 52), 2 ** 52]));
    expect(Array.from(distinct)).toEqual([-(2 ** 52), 2 ** 52]);
    expect(Array.from(slotOf)).toEqual([1, 0, 1]);
  });
});
