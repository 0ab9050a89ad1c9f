import { describe, expect, it } from 'vitest';
import { fleetCreateSchema, fleetEventsBody } from './fleet-requests.js';

const depot = { lat: 30.0561, lng: 31.3302 };

describe('fleet schemas', () => {
  it('accepts a fleet and fills the defaults', () => {
    const parsed = fleetCreateSchema.parse({ vehicles: [{ id: 'van-1', start: depot }], stops: [{ lat: 30.0626, lng: 31.3219 }] });
    expect(parsed).toMatchObject({ costing: 'auto', stops: [{ lat: 30.0626, lng: 31.3219 }] });
  });

  it('refuses repeated vehicle ids, unknown fields and ids with spaces', () => {
    const repeated = fleetCreateSchema.safeParse({ vehicles: [{ id: 'v', start: depot }, { id: 'v', start: depot }] });
    expect(repeated.error?.issues).toMatchObject([{ path: ['vehicles', 1, 'id'], message: 'duplicate id "v"' }]);
    expect(fleetCreateSchema.safeParse({ vehicles: [{ id: 'v', start: depot, colour: 'red' }] }).success).toBe(false);
    expect(fleetCreateSchema.safeParse({ vehicles: [{ id: 'my van', start: depot }] }).success).toBe(false);
  });

  it('bounds events per call and stops per message', () => {
    expect(fleetEventsBody.safeParse({ events: [] }).success).toBe(false);
    const stops = Array.from({ length: 101 }, () => ({ lat: 30.06, lng: 31.33 }));
    expect(fleetEventsBody.safeParse({ events: [{ type: 'add_stops', stops }] }).success).toBe(false);
    expect(fleetEventsBody.safeParse({ events: [{ type: 'add_stops', stops: stops.slice(0, 100) }] }).success).toBe(true);
  });
});
