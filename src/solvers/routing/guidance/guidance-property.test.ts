/**
 * Property tests: for random origin/destination pairs on real packs (random
 * edges, positions along them, offsets off the road, languages, units and
 * modes), every trip keeps the invariants: shape indexes monotonic and
 * covering the shape, maneuver lengths summing to the leg length, the shape
 * starting and ending at the snapped points, narrative in the asked language.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../../../datapack/map-pack.js';
import { TravelMode } from '../../../datapack/pack-layout.js';
import { navigationRoute } from './navigation-view.js';
import { locationOnEdge, shortestLeg } from '../../../../test/support/guidance/shortest-path.js';
import { routingPack } from '../../../../test/support/routing-packs.js';
import { tripViolations } from '../../../../test/support/guidance/trip-invariants.js';
import { buildTrip } from './trip.js';
import type { Costing } from '../../../domain/costing.js';

const packs: Record<string, MapPack> = {};
beforeAll(async () => {
  packs.nasrCity = await routingPack('nasrCityPbf');
  packs.monaco = await routingPack('monaco');
}, 60_000);

function usableEdges(pack: MapPack, modeBit: number): number[] {
  const edges: number[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) if (pack.sections['graph.edgeAccess'][edge]! & modeBit && pack.sections['graph.edgeLength'][edge]! > 0) edges.push(edge);
  return edges;
}

const MODES: [Costing, number][] = [
  ['auto', TravelMode.car],
  ['pedestrian', TravelMode.foot],
];

describe.each(['nasrCity', 'monaco'])('random trips on %s', (name) => {
  it('keep the trip invariants', () => {
    const pack = packs[name]!;
    const candidates = Object.fromEntries(MODES.map(([costing, bit]) => [costing, usableEdges(pack, bit)]));
    let routed = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...MODES),
        fc.nat(),
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -40, max: 40, noNaN: true }),
        fc.constantFrom('en-US', 'ar', 'ar-SA', 'en-GB', 'de'),
        fc.constantFrom('kilometers', 'miles') as fc.Arbitrary<'kilometers' | 'miles'>,
        ([costing, bit], from, to, fromFraction, toFraction, offset, language, units) => {
          const edges = candidates[costing]!;
          const origin = locationOnEdge(pack, edges[from % edges.length]!, fromFraction, offset);
          const destination = locationOnEdge(pack, edges[to % edges.length]!, toFraction, -offset);
          const leg = shortestLeg(pack, origin, destination, bit);
          if (!leg) return true;
          routed++;
          const trip = buildTrip(pack, [leg], { language, units, costing, includeLanes: true, includeAttributes: true });
          expect(tripViolations(trip, [leg])).toEqual([]);
          const route = navigationRoute(trip);
          expect(route.maneuvers.length).toBe(trip.legs[0]!.maneuvers.length);
          expect(route.maneuvers.every((maneuver) => maneuver.distanceMeters >= 0 && maneuver.cumulativeMeters <= route.distanceMeters + 0.1)).toBe(true);
          return true;
        },
      ),
      { numRuns: 100, seed: 20261123 },
    );
    expect(routed).toBeGreaterThan(40);
  });
});
