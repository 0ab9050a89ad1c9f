/**
 * Snapping with a heading on the shipped Nasr City extract: a moving vehicle
 * re-planning from anywhere on a two-way street leaves in its direction of
 * travel, and a heading-less location still offers both directions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { NO_INDEX } from '../src/datapack/pack-layout.js';
import { initialBearingDegrees } from '../src/solvers/graph/geodesy.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { HEADING_SLACK_METERS } from '../src/solvers/routing/snapping/snapper.js';
import { routingPack } from './support/routing-packs.js';

let pack: MapPack;

beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 60_000);

/** The middle of every shape segment of every two-way car road, with the segment's bearing in the edge's direction. */
function twoWayPoints(engine: RoutingEngine) {
  const metric = engine.metric({ costing: 'auto', preference: 'balanced', avoid: [] });
  const twin = pack.sections['graph.edgeTwin'];
  const points: { edge: number; twin: number; lat: number; lon: number; bearing: number }[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) {
    const reverse = twin[edge]!;
    if (reverse === NO_INDEX || !metric.usable(edge) || !metric.usable(reverse)) continue;
    const shape = pack.edgeShape(edge);
    for (let index = 0; index + 1 < shape.length; index++) {
      const [lon1, lat1] = shape[index]!;
      const [lon2, lat2] = shape[index + 1]!;
      if (lon1 === lon2 && lat1 === lat2) continue;
      points.push({ edge, twin: reverse, lat: (lat1 + lat2) / 2, lon: (lon1 + lon2) / 2, bearing: initialBearingDegrees(lat1, lon1, lat2, lon2) });
    }
  }
  return { metric, points };
}

describe('snapping with a heading', () => {
  it('offers only the direction of travel at the middle of every segment of every two-way road, curved ones included', () => {
    const engine = new RoutingEngine(pack);
    const { metric, points } = twoWayPoints(engine);
    expect(points.length).toBeGreaterThan(1000);
    const wrong = points.filter((point) => {
      const edges = engine.snap(metric, { lat: point.lat, lon: point.lon, heading: point.bearing }).map((candidate) => candidate.edge);
      return !edges.includes(point.edge) || edges.includes(point.twin);
    });
    expect(wrong).toEqual([]);
  });

  it('never trades the road under a vehicle heading against a one-way for a road farther than the slack', () => {
    const engine = new RoutingEngine(pack);
    const metric = engine.metric({ costing: 'auto', preference: 'balanced', avoid: [] });
    const twin = pack.sections['graph.edgeTwin'];
    let checked = 0;
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      if (!metric.usable(edge) || (twin[edge] !== NO_INDEX && metric.usable(twin[edge]!))) continue;
      const shape = pack.edgeShape(edge);
      const [lon1, lat1] = shape[0]!;
      const [lon2, lat2] = shape[1]!;
      if (lon1 === lon2 && lat1 === lat2) continue;
      const against = (initialBearingDegrees(lat1, lon1, lat2, lon2) + 180) % 360;
      const candidates = engine.snap(metric, { lat: (lat1 + lat2) / 2, lon: (lon1 + lon2) / 2, heading: against });
      expect(Math.min(...candidates.map((candidate) => candidate.hit.distanceMeters))).toBeLessThanOrEqual(HEADING_SLACK_METERS);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('offers both directions without a heading', () => {
    const engine = new RoutingEngine(pack);
    const { metric, points } = twoWayPoints(engine);
    for (const point of points.filter((_, index) => index % 10 === 0)) {
      const edges = engine.snap(metric, { lat: point.lat, lon: point.lon }).map((candidate) => candidate.edge);
      expect(edges).toContain(point.edge);
      expect(edges).toContain(point.twin);
    }
  });
});
