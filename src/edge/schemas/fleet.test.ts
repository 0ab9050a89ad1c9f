import { describe, expect, it } from 'vitest';
import { fleetClientMessageSchema } from './fleet.js';

describe('fleet stream messages', () => {
  it('reads stream messages: events with a correlation id, auth with exactly one credential', () => {
    expect(fleetClientMessageSchema.parse({ type: 'cancel_stop', stopId: 's-1', id: 'm1' })).toEqual({ type: 'cancel_stop', stopId: 's-1', id: 'm1' });
    expect(fleetClientMessageSchema.safeParse({ type: 'auth', token: 'x' }).success).toBe(true);
    expect(fleetClientMessageSchema.safeParse({ type: 'auth' }).success).toBe(false);
    expect(fleetClientMessageSchema.safeParse({ type: 'teleport' }).success).toBe(false);
  });
});
