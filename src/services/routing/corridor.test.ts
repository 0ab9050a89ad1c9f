import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { corridorOf, densify, distanceToCorridor, insideRing, nearCorridor, type LatLng } from './corridor.js';

const point = fc.record({ lat: fc.double({ min: 29.9, max: 32.5, noNaN: true }), lng: fc.double({ min: 31, max: 36, noNaN: true }) });

describe('corridor distances', () => {
  it('a point on a segment is at distance ~0, and distance never exceeds the nearest vertex', () => {
    fc.assert(
      fc.property(point, fc.double({ min: -0.01, max: 0.01, noNaN: true }), fc.double({ min: -0.01, max: 0.01, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: -0.02, max: 0.02, noNaN: true }), fc.double({ min: -0.02, max: 0.02, noNaN: true }), (a, dLat, dLng, t, pLat, pLng) => {
        const probe = { lat: a.lat + pLat, lng: a.lng + pLng };
        const b: LatLng = [a.lat + dLat, a.lng + dLng];
        const corridor = corridorOf([[a.lat, a.lng], b]);
        expect(distanceToCorridor(corridor, a.lat + t * dLat, a.lng + t * dLng)).toBeLessThan(0.01);
        const nearestVertex = Math.min(haversineMeters(probe.lat, probe.lng, a.lat, a.lng), haversineMeters(probe.lat, probe.lng, b[0], b[1]));
        // the flat projection is within 0.5 % of the sphere at city scale
        expect(distanceToCorridor(corridor, probe.lat, probe.lng)).toBeLessThanOrEqual(nearestVertex * 1.005 + 0.01);
      }),
    );
  });

  it('measures a perpendicular offset in metres', () => {
    const corridor = corridorOf([[30.06, 31.32], [30.06, 31.33]]);
    const north30 = 30.06 + 30 / 111_320;
    expect(distanceToCorridor(corridor, north30, 31.325)).toBeCloseTo(30, 0);
    expect(nearCorridor(corridor, north30, 31.325, 31)).toBe(true);
    expect(nearCorridor(corridor, north30, 31.325, 29)).toBe(false);
    // beyond the end the distance is to the end point
    expect(distanceToCorridor(corridor, 30.06, 31.331)).toBeCloseTo(haversineMeters(30.06, 31.331, 30.06, 31.33), -1);
  });

  it('densifies a line into steps no longer than asked, keeping both ends', () => {
    const line: LatLng[] = [[30.06, 31.32], [30.06, 31.33], [30.07, 31.33]];
    const points = densify(line, 20);
    expect(points[0]).toEqual(line[0]);
    expect(points[points.length - 1]).toEqual(line[2]);
    for (let index = 1; index < points.length; index++) expect(haversineMeters(...points[index - 1]!, ...points[index]!)).toBeLessThanOrEqual(20.1);
  });

  it('tells inside from outside a ring of [lng, lat]', () => {
    const ring: [number, number][] = [[31.32, 30.06], [31.33, 30.06], [31.33, 30.07], [31.32, 30.07], [31.32, 30.06]];
    expect(insideRing(ring, 30.065, 31.325)).toBe(true);
    expect(insideRing(ring, 30.075, 31.325)).toBe(false);
    expect(insideRing(ring, 30.065, 31.335)).toBe(false);
  });
});
