import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeofenceIndex, signedDistanceM, stateOf, type IndexedZone } from './geofence-index.js';

const M_PER_DEG = 111_320;
const at = (lat: number, lng: number, north: number, east: number) => ({ lat: lat + north / M_PER_DEG, lng: lng + east / (M_PER_DEG * Math.cos((lat * Math.PI) / 180)) });

describe('signedDistanceM', () => {
  it('is the distance to a circle boundary, negative inside', () => {
    const shape = { type: 'circle' as const, center: { lat: 31.95, lng: 35.93 }, radiusM: 100 };
    const inside = at(31.95, 35.93, 40, 0);
    const outside = at(31.95, 35.93, 0, 130);
    expect(signedDistanceM(shape, inside.lat, inside.lng)).toBeCloseTo(-60, 0);
    expect(signedDistanceM(shape, outside.lat, outside.lng)).toBeCloseTo(30, 0);
  });

  it('is the distance to the nearest polygon edge, negative inside', () => {
    const corner = (n: number, e: number) => { const p = at(31.95, 35.93, n, e); return [p.lng, p.lat] as [number, number]; };
    const shape = { type: 'polygon' as const, coordinates: [corner(-100, -100), corner(-100, 100), corner(100, 100), corner(100, -100)] };
    const near = at(31.95, 35.93, 80, 0);
    const out = at(31.95, 35.93, 0, -150);
    expect(signedDistanceM(shape, near.lat, near.lng)).toBeCloseTo(-20, 0);
    expect(signedDistanceM(shape, out.lat, out.lng)).toBeCloseTo(50, 0);
  });
});

describe('stateOf', () => {
  it('keeps the previous state inside the hysteresis band', () => {
    expect(stateOf(-25, 20)).toBe('inside');
    expect(stateOf(-10, 20)).toBe('band');
    expect(stateOf(19, 20)).toBe('band');
    expect(stateOf(20, 20)).toBe('outside');
    expect(stateOf(0, 0)).toBe('inside');
  });
});

describe('GeofenceIndex.transitions', () => {
  const zone = fc.record({
    north: fc.integer({ min: -3000, max: 3000 }),
    east: fc.integer({ min: -3000, max: 3000 }),
    size: fc.integer({ min: 20, max: 800 }),
    hysteresisM: fc.integer({ min: 0, max: 50 }),
    polygon: fc.boolean(),
  });
  const toZone = (spec: { north: number; east: number; size: number; hysteresisM: number; polygon: boolean }, index: number): IndexedZone => {
    const c = at(31.95, 35.93, spec.north, spec.east);
    if (!spec.polygon) return { id: `z${index}`, shape: { type: 'circle', center: c, radiusM: spec.size }, hysteresisM: spec.hysteresisM };
    const corner = (n: number, e: number) => { const p = at(c.lat, c.lng, n, e); return [p.lng, p.lat] as [number, number]; };
    return { id: `z${index}`, shape: { type: 'polygon', coordinates: [corner(-spec.size, 0), corner(0, spec.size), corner(spec.size / 2, 0), corner(0, -spec.size)] }, hysteresisM: spec.hysteresisM };
  };

  it('finds exactly the transitions a scan of every zone finds', () => {
    fc.assert(
      fc.property(fc.array(zone, { minLength: 1, maxLength: 60 }), fc.integer({ min: -3500, max: 3500 }), fc.integer({ min: -3500, max: 3500 }), fc.array(fc.nat(), { maxLength: 5 }), (specs, north, east, insidePicks) => {
        const zones = specs.map(toZone);
        const inside = new Set(insidePicks.map((pick) => zones[pick % zones.length]!.id));
        const fix = at(31.95, 35.93, north, east);
        const indexed = new GeofenceIndex(zones).transitions(fix.lat, fix.lng, inside).map((t) => `${t.zone.id}:${t.type}`).sort();
        const scanned = zones
          .map((z) => {
            const state = stateOf(signedDistanceM(z.shape, fix.lat, fix.lng), z.hysteresisM);
            if (state === 'inside' && !inside.has(z.id)) return `${z.id}:enter`;
            if (state === 'outside' && inside.has(z.id)) return `${z.id}:leave`;
            return undefined;
          })
          .filter((value): value is string => value !== undefined)
          .sort();
        expect(indexed).toEqual(scanned);
      }),
      { numRuns: 300 },
    );
  });
});
