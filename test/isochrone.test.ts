import { booleanClockwise, booleanPointInPolygon, booleanValid, area } from '@turf/turf';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { beforeAll, describe, expect, it } from 'vitest';
import { routingPack } from './support/routing-packs.js';
import { edgeLine, pointAt } from '../src/solvers/routing/edge-geometry.js';
import type { MetricSpec } from '../src/solvers/routing/costing/profiles.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { computeIsochrone, type IsochroneRequest, type IsochroneResult } from '../src/solvers/routing/isochrone/isochrone.js';
import { costAt, searchReach, type Reach } from '../src/solvers/routing/isochrone/reach-search.js';

const AUTO = { costing: 'auto' as const, preference: 'fastest' as const, avoid: [] };
const PEDESTRIAN = { costing: 'pedestrian' as const, preference: 'fastest' as const, avoid: [] };
const ORIGIN = { lat: 43.7313, lon: 7.4197, searchCutoffMeters: 500 };

let engine: RoutingEngine;
beforeAll(async () => {
  engine = new RoutingEngine(await routingPack('monaco'));
});

function isochrone(overrides: Partial<IsochroneRequest>): IsochroneResult {
  const outcome = computeIsochrone(engine, {
    metric: AUTO,
    location: ORIGIN,
    contourMetric: 'time',
    contours: [{ value: 3 }, { value: 6 }],
    polygons: true,
    denoise: 1,
    generalizeMeters: 0,
    ...overrides,
  });
  if (!outcome.ok) throw new Error(outcome.code);
  return outcome.result;
}

function reachOf(request: { metric: MetricSpec; contourMetric: 'time' | 'distance'; limit: number }): Reach {
  const metric = engine.metric(request.metric);
  return searchReach(engine.pack, metric.graph, engine.snap(metric, ORIGIN), request.contourMetric, request.limit);
}

type Area = Feature<Polygon | MultiPolygon, { contour: number }>;
const contour = (result: IsochroneResult, value: number) =>
  result.collection.features.find((feature) => (feature.properties as { contour: number }).contour === value) as Area;

/** Road points (every ~5 m) of reached edges whose cost is at most `share` of the level. */
function reachedPoints(reach: Reach, level: number, share: number): Position[] {
  const points: Position[] = [];
  for (const edge of reach.edges) {
    const line = edgeLine(engine.pack, edge);
    const pieces = Math.max(1, Math.ceil(line.length / 5));
    for (let index = 0; index <= pieces; index++) {
      if (costAt(reach, edge, index / pieces) > level * share) continue;
      const [lat, lon] = pointAt(line, index / pieces);
      points.push([lon, lat]);
    }
  }
  return points;
}

describe('isochrone polygons', () => {
  it('contain every road point reached within their time', () => {
    const result = isochrone({ contours: [{ value: 2 }, { value: 5 }] });
    const reach = reachOf({ metric: AUTO, contourMetric: 'time', limit: 300 });
    for (const minutes of [2, 5]) {
      const polygon = contour(result, minutes);
      const inside = reachedPoints(reach, minutes * 60, 0.999);
      expect(inside.length).toBeGreaterThan(50);
      const outside = inside.filter((point) => !booleanPointInPolygon(point, polygon));
      expect(outside, `${minutes} min: reached points outside`).toEqual([]);
    }
  });

  it('contain every road point reached within their distance', () => {
    const result = isochrone({ metric: PEDESTRIAN, contourMetric: 'distance', contours: [{ value: 0.5 }, { value: 1 }] });
    const reach = reachOf({ metric: PEDESTRIAN, contourMetric: 'distance', limit: 1000 });
    for (const km of [0.5, 1]) {
      const polygon = contour(result, km);
      const outside = reachedPoints(reach, km * 1000, 0.999).filter((point) => !booleanPointInPolygon(point, polygon));
      expect(outside).toEqual([]);
    }
  });

  it('nest: the larger contour contains the smaller one', () => {
    const result = isochrone({ contours: [{ value: 1 }, { value: 3 }, { value: 6 }] });
    const [six, three, one] = [contour(result, 6), contour(result, 3), contour(result, 1)];
    for (const [small, large] of [[one, three], [three, six]] as const) {
      expect(area(large)).toBeGreaterThan(area(small));
      const outer = small.geometry.type === 'Polygon' ? [small.geometry.coordinates[0]!] : small.geometry.coordinates.map((polygon) => polygon[0]!);
      for (const ring of outer) for (const point of ring) expect(booleanPointInPolygon(point, large)).toBe(true);
    }
  });

  it('leave out places far beyond the limit', () => {
    const result = isochrone({ contours: [{ value: 2 }] });
    const reach = reachOf({ metric: AUTO, contourMetric: 'time', limit: 1_200 });
    const far = reach.edges.filter((edge) => reach.entry[edge]! > 600 && reach.entry[edge]! < 1_200);
    expect(far.length).toBeGreaterThan(10);
    const polygon = contour(result, 2);
    for (const edge of far.slice(0, 200)) {
      const [lat, lon] = pointAt(edgeLine(engine.pack, edge), 0.5);
      expect(booleanPointInPolygon([lon, lat], polygon)).toBe(false);
    }
  });

  it('are valid GeoJSON: closed counter-clockwise outer rings, clockwise holes, largest contour first', () => {
    const result = isochrone({ contours: [{ value: 4, color: 'ff0000' }, { value: 2 }], denoise: 0 });
    expect(result.collection.features.map((feature) => (feature.properties as { contour: number }).contour)).toEqual([4, 2]);
    expect(result.collection.features[0]!.properties).toMatchObject({ metric: 'time', color: '#ff0000', fill: '#ff0000' });
    for (const feature of result.collection.features) {
      expect(booleanValid(feature)).toBe(true);
      const polygons = feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : (feature.geometry as MultiPolygon).coordinates;
      for (const rings of polygons) {
        rings.forEach((ring, index) => {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
          expect(booleanClockwise(ring)).toBe(index > 0);
        });
      }
    }
  });

  it('gives the outlines as lines when polygons is false, and generalizes on request', () => {
    const lines = isochrone({ polygons: false, contours: [{ value: 3 }] });
    expect(['LineString', 'MultiLineString']).toContain(lines.collection.features[0]!.geometry.type);
    const exact = isochrone({ contours: [{ value: 5 }] });
    const general = isochrone({ contours: [{ value: 5 }], generalizeMeters: 50 });
    const positions = (result: IsochroneResult) => JSON.stringify(result.collection.features[0]!.geometry).split('],[').length;
    expect(positions(general)).toBeLessThan(positions(exact));
  });

  it('answers no_road_nearby for an origin out at sea', () => {
    const outcome = computeIsochrone(engine, {
      metric: AUTO,
      location: { lat: 43.71, lon: 7.42, searchCutoffMeters: 300 },
      contourMetric: 'time',
      contours: [{ value: 5 }],
      polygons: true,
      denoise: 1,
      generalizeMeters: 0,
    });
    expect(outcome).toEqual({ ok: false, code: 'no_road_nearby', cutoffMeters: 300 });
  });
});
