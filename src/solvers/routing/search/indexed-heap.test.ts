import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexedHeap } from './indexed-heap.js';

type Operation = { kind: 'push' | 'update'; node: number; key: number } | { kind: 'pop' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('push' as const, 'update' as const), node: fc.nat(49), key: fc.integer({ min: -1_000, max: 1_000 }) }),
  fc.constant({ kind: 'pop' as const }),
);

describe('indexed heap', () => {
  it('pops the queued node with the least key, honouring decrease-key (push) and any change (update), like a plain map', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        const heap = new IndexedHeap(50);
        const model = new Map<number, number>();
        for (const op of operations) {
          if (op.kind === 'pop') {
            if (!model.size) continue;
            const least = Math.min(...model.values());
            const node = heap.pop();
            expect(model.get(node)).toBe(least);
            model.delete(node);
          } else if (op.kind === 'push') {
            heap.push(op.node, op.key);
            model.set(op.node, Math.min(model.get(op.node) ?? Infinity, op.key));
          } else {
            heap.update(op.node, op.key);
            model.set(op.node, op.key);
          }
          expect(heap.size).toBe(model.size);
          expect(heap.minKey).toBe(model.size ? Math.min(...model.values()) : Infinity);
          for (let node = 0; node < 50; node++) expect(heap.has(node)).toBe(model.has(node));
        }
        heap.clear();
        expect(heap.size).toBe(0);
        for (let node = 0; node < 50; node++) expect(heap.has(node)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
