import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleRings } from './ring-assembler.js';

/** Cuts a closed ring into consecutive chains (sharing end nodes), reversing some. */
function cut(ring: number[], cuts: number[], reversals: boolean[]): number[][] {
  const positions = [...new Set(cuts.map((cutAt) => 1 + (cutAt % (ring.length - 2))))].sort((a, b) => a - b);
  const chains: number[][] = [];
  let start = 0;
  for (const position of [...positions, ring.length - 1]) {
    if (position <= start) continue;
    chains.push(ring.slice(start, position + 1));
    start = position;
  }
  return chains.map((chain, index) => (reversals[index % Math.max(1, reversals.length)] ? [...chain].reverse() : chain));
}

describe('assembleRings', () => {
  it('keeps closed ways as they are and drops chains that cannot close', () => {
    expect(assembleRings([[1, 2, 3, 1]])).toEqual([[1, 2, 3, 1]]);
    expect(assembleRings([[1, 2, 3, 4, 1], [5, 6, 7]])).toEqual([[1, 2, 3, 4, 1]]);
  });

  it('joins ways digitised in either direction', () => {
    const [ring] = assembleRings([
      [1, 2, 3],
      [5, 4, 3],
      [5, 6, 1],
    ]);
    expect(ring![0]).toBe(ring![ring!.length - 1]);
    expect(new Set(ring)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('reassembles any ring cut into pieces in any order and orientation', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 3, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }),
        fc.nat(),
        (nodes, cuts, reversals, shift) => {
          const ring = [...nodes, nodes[0]!];
          const pieces = cut(ring, cuts, reversals);
          const rotated = pieces.map((_, index) => pieces[(index + shift) % pieces.length]!);
          const rings = assembleRings(rotated);
          expect(rings).toHaveLength(1);
          const result = rings[0]!;
          expect(result.length).toBe(ring.length);
          expect(result[0]).toBe(result[result.length - 1]);
          expect(new Set(result)).toEqual(new Set(nodes));
        },
      ),
    );
  });
});
