import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsortIds, binarySearch, indexIds, sortUnique } from './sorted-ids.js';

/** OSM-like ids: integers, possibly negative (unsaved edits), spanning beyond 2^32. */
const ids = fc.array(
  fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 2 ** 20 })).map(([high, low]) => high * 2 ** 20 + low), fc.constant(2 ** 52 - 1)),
  { maxLength: 400 },
);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

describe('sorted ids (LSD radix sort, keys moved with their positions)', () => {
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

  it.each([
    ['2^20 (2 passes of 10 bits)', 20],
    ['2^32 (3 passes of 11 bits)', 32],
    ['2^37, as a country file (3 passes of 13 bits)', 37],
    ['2^45 (4 passes of 12 bits)', 45],
  ])('indexIds agrees with a comparison sort on 20 000 ids spanning %s, duplicates included', (_span, bits) => {
    const draw = fc.integer({ min: 0, max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(fc.array(fc.tuple(draw, draw), { minLength: 20_000, maxLength: 20_000 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (draws, base) => {
        // every bit of the span random: the high bits from one draw, the low 20 from the other
        const values = draws.map(([high, low]) => base + Math.floor((high / 2 ** 31) * 2 ** (bits - 20)) * 2 ** 20 + (low % 2 ** 20));
        // as in a way list, ids repeat (junctions, closed rings): every fifth is an earlier one
        for (let index = 4; index < values.length; index += 5) values[index] = values[draws[index]![0] % index]!;
        const { ids: distinct, slotOf } = indexIds(Float64Array.from(values));
        expect(Array.from(distinct)).toEqual([...new Set(ascending(values))]);
        values.forEach((value, index) => expect(distinct[slotOf[index]!]).toBe(value));
      }),
      { numRuns: 3 },
    );
  });

  it('indexIds on a view of a longer buffer (the ways pass\'s list and its spare capacity) leaves the rest of it alone and keeps none of it', () => {
    fc.assert(
      fc.property(ids, fc.array(fc.integer(), { minLength: 1, maxLength: 50 }), (values, tail) => {
        const buffer = Float64Array.from([...values, ...tail]);
        const { ids: distinct, slotOf } = indexIds(buffer.subarray(0, values.length));
        expect(Array.from(buffer.subarray(values.length))).toEqual(tail);
        expect(distinct.buffer).not.toBe(buffer.buffer);
        expect(slotOf.buffer).not.toBe(buffer.buffer);
        expect(Array.from(distinct)).toEqual([...new Set(ascending(values))]);
        values.forEach((value, index) => expect(distinct[slotOf[index]!]).toBe(value));
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
