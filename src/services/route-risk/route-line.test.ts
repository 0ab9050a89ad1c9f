import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { MAX_ROUTE_POINTS, MAX_SEGMENTS, decodePolyline6, lineMeters, lineOfCoordinates, segmentLengthFor, splitLine } from './route-line.js';

// a 2.2 km line through Nasr City, east then north
const LINE: [number, number][] = [
  [31.33, 30.06],
  [31.345, 30.06],
  [31.345, 30.066],
];

function code(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('route line', () => {
  it('decodes a polyline6 as [lng, lat] and refuses what is no polyline', () => {
    const encoded = polyline.encode(LINE.map(([lng, lat]) => [lat, lng]), 6);
    expect(decodePolyline6(encoded)).toEqual(LINE);
    expect(code(() => decodePolyline6('not a polyline!'))).toMatch(/^VALIDATION_ERROR: polyline: not an encoded polyline/);
    expect(code(() => decodePolyline6(encoded.slice(0, -1) + 'z'))).toMatch(/VALIDATION_ERROR/);
    // a line of one point is no route
    expect(code(() => decodePolyline6(polyline.encode([[30.06, 31.33]], 6)))).toMatch(/two distinct positions/);
  });

  it('refuses positions out of range, too many positions and too long a route', () => {
    expect(code(() => lineOfCoordinates([[31.3, 30], [200, 30]]))).toMatch(/position 1 \[200, 30\] is outside/);
    const many = Array.from({ length: MAX_ROUTE_POINTS + 1 }, (_, index) => [31 + index * 1e-5, 30]);
    expect(code(() => lineOfCoordinates(many))).toMatch(/at most 10000/);
    expect(code(() => lineOfCoordinates([[20, 30], [35, 30]]))).toMatch(/km long, at most 1000 km/);
  });

  it('cuts the line into segments of the asked length, the last taking the rest, covering it exactly', () => {
    const total = lineMeters(LINE);
    const segments = splitLine(LINE, 500);
    expect(segments.length).toBe(Math.ceil(total / 500));
    segments.forEach((segment, index) => {
      expect(segment.index).toBe(index);
      expect(segment.startMeters).toBe(index * 500);
      expect(lineMeters(segment.points)).toBeCloseTo(segment.endMeters - segment.startMeters, 0);
      if (index > 0) expect(segment.points[0]).toEqual(segments[index - 1]!.points.at(-1));
    });
    expect(segments.at(-1)!.endMeters).toBeCloseTo(total, 6);
    expect(segments.at(-1)!.points.at(-1)).toEqual(LINE.at(-1));
    // the corner is inside a segment, not lost
    expect(segments.some((segment) => segment.points.some(([lng, lat]) => lng === 31.345 && lat === 30.06))).toBe(true);
  });

  it('raises the segment length so a route has at most MAX_SEGMENTS segments', () => {
    expect(segmentLengthFor(5_000, 1_000)).toBe(1_000);
    expect(segmentLengthFor(900_000, 1_000)).toBe(900_000 / MAX_SEGMENTS);
  });
});
