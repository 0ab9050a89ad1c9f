/**
 * Guidance on real Monaco data: the Bateau Bus ferry across Port Hercule (way
 * 166399542, foot/bicycle only) and toll roads, looked up in the extract.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../../../datapack/map-pack.js';
import { EdgeFlag, ROAD_CLASSES, TravelMode } from '../../../datapack/pack-layout.js';
import { ManeuverType as T } from './maneuver-types.js';
import { locationOnEdge, shortestLeg } from '../../../../test/support/guidance/shortest-path.js';
import { routingPack, wayEdges } from '../../../../test/support/routing-packs.js';
import { tripViolations } from '../../../../test/support/guidance/trip-invariants.js';
import { buildTrip } from './trip.js';

let pack: MapPack;
beforeAll(async () => {
  pack = await routingPack('monaco');
}, 60_000);

describe('Monaco', () => {
  it('boards and leaves the Bateau Bus ferry on foot', () => {
    const s = pack.sections;
    const [ferry] = wayEdges(pack, 166399542, TravelMode.foot);
    const pier = s['graph.edgeSource'][ferry!]!;
    const landing = s['graph.edgeTarget'][ferry!]!;
    const into = [...Array(pack.edgeCount).keys()].find((edge) => s['graph.edgeTarget'][edge] === pier && !(s['graph.edgeFlags'][edge]! & EdgeFlag.ferry) && s['graph.edgeAccess'][edge]! & TravelMode.foot)!;
    let onward = -1;
    for (let edge = s['graph.firstEdge'][landing]!; edge < s['graph.firstEdge'][landing + 1]!; edge++) if (!(s['graph.edgeFlags'][edge]! & EdgeFlag.ferry)) onward = edge;
    const leg = shortestLeg(pack, locationOnEdge(pack, into, 0.2), locationOnEdge(pack, onward, 0.8), TravelMode.foot)!;
    expect(leg.edges).toContain(ferry);
    const trip = buildTrip(pack, [leg], { costing: 'pedestrian' });
    expect(tripViolations(trip, [leg])).toEqual([]);
    const maneuvers = trip.legs[0]!.maneuvers;
    expect(maneuvers.map((maneuver) => maneuver.type)).toEqual([T.start, T.ferryEnter, T.ferryExit, T.destination]);
    expect(maneuvers[1]!.instruction).toBe('Take the Bateau Bus ferry.');
    expect(maneuvers[1]!.ferry).toBe(true);
    expect(maneuvers[2]!.instruction).toMatch(/^Walk (north|south|east|west|northeast|northwest|southeast|southwest)\.$/);
    expect(maneuvers.every((maneuver) => maneuver.travel_mode === 'pedestrian' && maneuver.travel_type === 'foot')).toBe(true);
    expect(trip.summary.has_ferry).toBe(true);
    const arabic = buildTrip(pack, [leg], { costing: 'pedestrian', language: 'ar' }).legs[0]!.maneuvers;
    expect(arabic[1]!.instruction).toBe('استقل العبّارة Bateau Bus.');
    expect(arabic[0]!.instruction).toMatch(/^امشِ /);
  });

  it('flags toll maneuvers and the summary', () => {
    const s = pack.sections;
    const toll = [...Array(pack.edgeCount).keys()].find((edge) => s['graph.edgeFlags'][edge]! & EdgeFlag.toll && s['graph.edgeAccess'][edge]! & TravelMode.car && s['graph.edgeLength'][edge]! > 20)!;
    const leg = shortestLeg(pack, locationOnEdge(pack, toll, 0.1), locationOnEdge(pack, toll, 0.9))!;
    const trip = buildTrip(pack, [leg], { units: 'miles' });
    expect(tripViolations(trip, [leg])).toEqual([]);
    expect(trip.summary.has_toll).toBe(true);
    expect(trip.legs[0]!.maneuvers[0]!.toll).toBe(true);
    expect(trip.legs[0]!.maneuvers[0]!.verbal_post_transition_instruction).toMatch(/feet|mile/);
  });
});

describe('unnamed paths', () => {
  it('calls an unnamed footway "the walkway" / "ممر المشاة" in the narrative but leaves street_names empty', () => {
    const s = pack.sections;
    // A route on foot that turns onto unnamed footways: look for one among Monaco's footways.
    const footways: number[] = [];
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      const way = s['graph.edgeWay'][edge]!;
      if (ROAD_CLASSES[s['ways.class'][way]!] === 'footway' && s['ways.name'][way] === 0 && s['graph.edgeLength'][edge]! > 30 && s['graph.edgeAccess'][edge]! & TravelMode.foot) footways.push(edge);
    }
    let checked = 0;
    for (const edge of footways) {
      const source = s['graph.edgeSource'][edge]!;
      const into = [...Array(pack.edgeCount).keys()].find((other) => s['graph.edgeTarget'][other] === source && s['ways.name'][s['graph.edgeWay'][other]!] !== 0 && s['graph.edgeAccess'][other]! & TravelMode.foot);
      if (into === undefined) continue;
      const leg = shortestLeg(pack, locationOnEdge(pack, into, 0.5), locationOnEdge(pack, edge, 0.5), TravelMode.foot);
      if (!leg || leg.edges.length !== 2) continue;
      const english = buildTrip(pack, [leg], { costing: 'pedestrian' }).legs[0]!.maneuvers;
      if (english.length !== 3) continue;
      expect(english[1]!.instruction).toMatch(/onto the walkway\.$/);
      expect(english[1]!.street_names).toBeUndefined();
      expect(buildTrip(pack, [leg], { costing: 'pedestrian', language: 'ar' }).legs[0]!.maneuvers[1]!.instruction).toMatch(/إلى ممر المشاة\.$/);
      if (++checked === 3) break;
    }
    expect(checked).toBe(3);
  });
});
