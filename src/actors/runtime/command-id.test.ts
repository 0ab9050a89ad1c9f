import { describe, expect, it } from 'vitest';
import { newCommandId } from './command-id.js';

describe('newCommandId', () => {
  it('answers 32 hex digits, distinct across many draws of the random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => newCommandId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
