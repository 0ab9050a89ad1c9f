import { describe, expect, it } from 'vitest';
import type { Hierarchy } from './hierarchy.js';
import { WorkerHierarchies } from './hierarchy-ref.js';

const build = (id: string) => ({ id, nodeCount: 0 }) as Hierarchy;

describe('worker hierarchies', () => {
  it('asks for a build it has not been sent, keeps one sent once, and drops the least recently used', () => {
    const held = new WorkerHierarchies(2);
    expect(held.resolve({ id: 'a' })).toBeUndefined();
    const a = build('a');
    expect(held.resolve({ id: 'a', hierarchy: a })).toBe(a);
    expect(held.resolve({ id: 'a' })).toBe(a);
    held.resolve({ id: 'b', hierarchy: build('b') });
    held.resolve({ id: 'a' }); // a is now the most recently used
    held.resolve({ id: 'c', hierarchy: build('c') });
    expect(held.resolve({ id: 'b' })).toBeUndefined();
    expect(held.resolve({ id: 'a' })).toBe(a);
  });
});
