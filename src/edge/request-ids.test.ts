import { describe, expect, it } from 'vitest';
import { RequestIds } from './request-ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('RequestIds', () => {
  it('makes random version 4 UUIDs, new ones across draws of random bytes', () => {
    const ids = new RequestIds();
    const made = Array.from({ length: 1_000 }, () => ids.next());
    for (const id of made) expect(id).toMatch(UUID_V4);
    expect(new Set(made).size).toBe(made.length);
    // every hex digit turns up in every free position (a position stuck at one value would be a bug)
    for (const at of [0, 7, 9, 15, 20, 24, 35]) expect(new Set(made.map((id) => id[at])).size).toBe(16);
    expect(new Set(made.map((id) => id[19])).size).toBe(4);
  });
});
