/**
 * Guidance on real Nasr City junctions (ids looked up in the OSM extract):
 * turn types, roundabout exit counts, U-turn slips, ramps and forks, sides of
 * the street, the narrative in English and Arabic with each language's
 * street names, units, and the trip invariants.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../../../datapack/map-pack.js';
import type { LegPath } from '../leg-path.js';
import { ManeuverType as T } from './maneuver-types.js';
import { navigationRoute } from './navigation-view.js';
import { legSpeedLimits } from './speed-limits.js';
import { locationOnEdge, shortestLeg } from '../../../../test/support/guidance/shortest-path.js';
import { routingPack, wayEdges } from '../../../../test/support/routing-packs.js';
import { tripViolations } from '../../../../test/support/guidance/trip-invariants.js';
import { buildTrip } from './trip.js';
import type { TripOptions } from './trip-types.js';

let pack: MapPack;
beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 60_000);

/** A leg from the middle of one car edge of way `from` to the middle of one of way `to`. */
function legBetween(fromEdge: number, toEdge: number, offsets: [number, number] = [0, 0]): LegPath {
  const leg = shortestLeg(pack, locationOnEdge(pack, fromEdge, 0.5, offsets[0]), locationOnEdge(pack, toEdge, 0.5, offsets[1]));
  expect(leg, `a route from edge ${fromEdge} to edge ${toEdge}`).toBeDefined();
  return leg!;
}

function trip(leg: LegPath, options: TripOptions = {}) {
  const built = buildTrip(pack, [leg], options);
  expect(tripViolations(built, [leg])).toEqual([]);
  return built;
}

/** The car edge of `fromWay` that leads into a junction with `toWay`, and the car edge of `toWay` leaving it. */
function junctionEdges(fromWay: number, toWay: number): [number, number] {
  const s = pack.sections;
  for (const into of wayEdges(pack, fromWay)) {
    const node = s['graph.edgeTarget'][into]!;
    for (const out of wayEdges(pack, toWay)) if (s['graph.edgeSource'][out] === node) return [into, out];
  }
  throw new Error(`ways ${fromWay} and ${toWay} do not meet`);
}

describe('turns at real junctions', () => {
  it('turns right from Al Doctor Ezzat Salama Street (way 25584523) onto Samir Hashem Street (way 25584591)', () => {
    const [into, out] = junctionEdges(25584523, 25584591);
    const english = trip(legBetween(into, out));
    const maneuvers = english.legs[0]!.maneuvers;
    expect(maneuvers.map((maneuver) => maneuver.type)).toEqual([T.start, T.right, T.destination]);
    expect(maneuvers[1]!.instruction).toBe('Turn right onto Samir Hashem Street.');
    expect(maneuvers[1]!.street_names).toEqual(['Samir Hashem Street']);
    const arabic = trip(legBetween(into, out), { language: 'ar' });
    const turn = arabic.legs[0]!.maneuvers[1]!;
    expect(turn.street_names).toEqual([pack.strings.get(pack.sections['ways.nameAr'][pack.sections['graph.edgeWay'][out]!]!)]);
    expect(turn.instruction).toBe(`انعطف يمينًا إلى ${turn.street_names![0]}.`);
  });

  it('makes no maneuver at a junction the leg only touches (a location exactly on the node)', () => {
    const [into, out] = junctionEdges(25584523, 25584591);
    const fromNode = shortestLeg(pack, locationOnEdge(pack, into, 1), locationOnEdge(pack, out, 0.5))!;
    expect(fromNode.edges).toEqual([into, out]);
    const starting = trip(fromNode).legs[0]!.maneuvers;
    expect(starting.map((maneuver) => maneuver.type)).toEqual([T.start, T.destination]);
    expect(starting[0]!.street_names).toEqual(['Samir Hashem Street']);
    expect(starting[0]!.begin_street_names).toBeUndefined();
    const toNode = shortestLeg(pack, locationOnEdge(pack, into, 0.5), locationOnEdge(pack, out, 0))!;
    expect(toNode.edges).toEqual([into, out]);
    const ending = trip(toNode).legs[0]!.maneuvers;
    expect(ending.map((maneuver) => maneuver.type)).toEqual([T.start, T.destination]);
    expect(ending[0]!.street_names).toEqual(['Al Doctor Ezzat Salama Street']);
  });

  it('turns left from way 32690576 onto Nabil Khalil Street (way 28581388), and right the other way round', () => {
    const [into, out] = junctionEdges(32690576, 28581388);
    const left = trip(legBetween(into, out)).legs[0]!.maneuvers[1]!;
    expect(left.type).toBe(T.left);
    expect(left.instruction).toBe('Turn left onto Nabil Khalil Street.');
    expect(left.verbal_transition_alert_instruction).toMatch(/^In \d+ meters, turn left onto Nabil Khalil Street\.$/);
    expect(left.verbal_post_transition_instruction).toMatch(/^Continue on Nabil Khalil Street for \d+ meters\.$/);
  });

  it('says "becomes" where Al Islah Street (way 699645910) runs straight into Al Taameer Street (way 28641439)', () => {
    const [into, out] = junctionEdges(699645910, 28641439);
    const maneuver = trip(legBetween(into, out)).legs[0]!.maneuvers[1]!;
    expect(maneuver.type).toBe(T.becomes);
    expect(maneuver.instruction).toBe('Al Islah Street becomes Al Taameer Street.');
  });

  it('makes a left U-turn through the U-turn slip of Al Tayaran Street (link way 39550870) to its other carriageway', () => {
    const [start] = wayEdges(pack, 24958252);
    const [back] = wayEdges(pack, 29909499);
    const leg = legBetween(start!, back!);
    const maneuvers = trip(leg).legs[0]!.maneuvers;
    const uturn = maneuvers.find((maneuver) => maneuver.type === T.uturnLeft);
    expect(uturn?.instruction).toBe('Make a left U-turn to stay on Al Tayaran Street.');
    expect(trip(leg, { language: 'ar' }).legs[0]!.maneuvers.some((maneuver) => maneuver.instruction === 'استدر للخلف يسارًا للبقاء على شارع الطيران.')).toBe(true);
  });

  it('takes the ramp on the right (way 859375457) with its signposted destinations', () => {
    const [into, out] = junctionEdges(217280773, 859375457);
    const maneuvers = trip(legBetween(into, out)).legs[0]!.maneuvers;
    const ramp = maneuvers[1]!;
    expect(ramp.type).toBe(T.rampRight);
    expect(ramp.sign?.exit_toward_elements?.length).toBeGreaterThan(0);
    expect(ramp.instruction).toMatch(/^Take the ramp on the right toward /);
    const arabic = trip(legBetween(into, out), { language: 'ar' }).legs[0]!.maneuvers[1]!;
    expect(arabic.instruction).toContain('اسلك المنحدر على اليمين باتجاه شارع عباس العقاد');
  });

  it('keeps left at the fork of Al Tayaran Street onto the Hesham Barakat bridge (way 656524350)', () => {
    const [into, out] = junctionEdges(24958252, 656524350);
    const fork = trip(legBetween(into, out)).legs[0]!.maneuvers[1]!;
    expect(fork.type).toBe(T.stayLeft);
    expect(fork.instruction).toBe('Keep left onto Al Shahid Hesham Barakat Bridge.');
  });
});

describe('the roundabout (way 947628159)', () => {
  // Entering from Al Ryadah Street (way 51799432, one-way into it): the exits counterclockwise are
  // Al Batrawi Street (765656384), Al Batrawi Street (650705746), Al Ryadah Street (26206307).
  const cases: [number, number, string, string][] = [
    [765656384, 1, '1st', 'الأول'],
    [650705746, 2, '2nd', 'الثاني'],
    [26206307, 3, '3rd', 'الثالث'],
  ];
  it.each(cases)('counts the exits to way %i: exit %i', (exitWay, count, ordinal, arabicOrdinal) => {
    const leg = legBetween(wayEdges(pack, 51799432)[0]!, junctionEdges(947628159, exitWay)[1]);
    const english = trip(leg).legs[0]!.maneuvers;
    const enter = english.find((maneuver) => maneuver.type === T.roundaboutEnter)!;
    expect(enter.roundabout_exit_count).toBe(count);
    expect(enter.instruction).toMatch(new RegExp(`^Enter the roundabout and take the ${ordinal} exit onto Al (Batrawi|Ryadah) Street\\.$`));
    expect(english[english.indexOf(enter) + 1]!.type).toBe(T.roundaboutExit);
    // The approach is short: the start announces the roundabout with it (verbal multi-cue).
    expect(english[0]!.verbal_multi_cue).toBe(true);
    expect(english[0]!.verbal_pre_transition_instruction).toMatch(new RegExp(`^Drive north on Al Ryadah Street\\. Then, in \\d+ meters, enter the roundabout and take the ${ordinal} exit`));
    expect(enter.verbal_multi_cue).toBeUndefined();
    const arabic = trip(leg, { language: 'ar-EG' }).legs[0]!.maneuvers.find((maneuver) => maneuver.type === T.roundaboutEnter)!;
    expect(arabic.instruction).toMatch(new RegExp(`^عند الدوّار، اسلك المخرج ${arabicOrdinal} إلى شارع (البطراوي|الرياضة)\\.$`));
  });
});

describe('start, destination, units, languages', () => {
  it('says which side of the street the start and the destination are on', () => {
    const [into, out] = junctionEdges(25584523, 25584591);
    const right = trip(legBetween(into, out, [15, 15]));
    expect(right.legs[0]!.maneuvers[0]!.type).toBe(T.startRight);
    expect(right.legs[0]!.maneuvers.at(-1)!.type).toBe(T.destinationRight);
    expect(right.legs[0]!.maneuvers.at(-1)!.instruction).toBe('Your destination is on the right.');
    expect(right.locations.map((location) => location.side_of_street)).toEqual(['right', 'right']);
    const left = trip(legBetween(into, out, [-15, -15]), { language: 'ar' });
    expect(left.legs[0]!.maneuvers.at(-1)!.type).toBe(T.destinationLeft);
    expect(left.legs[0]!.maneuvers.at(-1)!.instruction).toBe('وجهتك على اليسار.');
    const onTheRoad = trip(legBetween(into, out));
    expect(onTheRoad.legs[0]!.maneuvers[0]!.type).toBe(T.start);
    expect(onTheRoad.legs[0]!.maneuvers.at(-1)!.instruction).toBe('You have arrived at your destination.');
  });

  it('gives lengths in miles or kilometres and the distances in the narrative in feet/miles or metres', () => {
    const leg = legBetween(wayEdges(pack, 24958252)[0]!, wayEdges(pack, 52244427)[2]!);
    const km = trip(leg);
    const miles = trip(leg, { units: 'miles' });
    expect(km.units).toBe('kilometers');
    expect(miles.units).toBe('miles');
    expect(miles.summary.length).toBeCloseTo(km.summary.length / 1.609344, 2);
    expect(km.legs[0]!.maneuvers.map((maneuver) => maneuver.verbal_post_transition_instruction ?? '').join(' ')).toMatch(/meters|kilometers/);
    expect(miles.legs[0]!.maneuvers.map((maneuver) => maneuver.verbal_post_transition_instruction ?? '').join(' ')).toMatch(/feet|miles?/);
    expect(miles.legs[0]!.maneuvers.map((maneuver) => maneuver.verbal_post_transition_instruction ?? '').join(' ')).not.toMatch(/meters/);
  });

  it('names streets in Arabic for ar and in English for en-US (and for an unknown language)', () => {
    const leg = legBetween(wayEdges(pack, 24958252)[0]!, wayEdges(pack, 52244427)[2]!);
    const names = (language: string) => trip(leg, { language }).legs[0]!.maneuvers.flatMap((maneuver) => maneuver.street_names ?? []);
    expect(names('ar')).toContain('شارع الطيران');
    expect(names('ar')).toContain('طريق النصر');
    expect(names('en-US')).toContain('Al Tayaran Street');
    expect(names('en-US')).toContain('Al Nasr Road');
    expect(names('fr-FR')).toEqual(names('en-US'));
    expect(trip(leg, { language: 'fr-FR' }).language).toBe('en-US');
    expect(trip(leg, { language: 'en-GB' }).language).toBe('en-GB');
    const arabic = trip(leg, { language: 'ar' });
    expect(arabic.language).toBe('ar');
    expect(arabic.legs[0]!.maneuvers[0]!.instruction).toMatch(/^اتجه (شمالًا|جنوبًا|شرقًا|غربًا|نحو \S+ \S+) على شارع الطيران\.$/);
  });

  it('flags highways in the summary and on maneuvers, and sets the bounding box', () => {
    const leg = legBetween(wayEdges(pack, 24958252)[0]!, wayEdges(pack, 52244427)[2]!);
    const built = trip(leg);
    expect(built.summary.has_highway).toBe(true);
    expect(built.summary.has_toll).toBe(false);
    expect(built.legs[0]!.maneuvers.some((maneuver) => maneuver.highway === true)).toBe(true);
    expect(built.legs[0]!.maneuvers.every((maneuver) => maneuver.toll === undefined)).toBe(true);
    expect(built.summary.min_lat).toBeLessThan(built.summary.max_lat);
    expect(built.status).toBe(0);
    expect(built.status_message).toBe('Found route between points');
  });

  it('gives speed limits with includeAttributes (null where the way has no maxspeed)', () => {
    const leg = legBetween(wayEdges(pack, 24958252)[0]!, wayEdges(pack, 52244427)[2]!);
    const maneuvers = trip(leg, { includeAttributes: true }).legs[0]!.maneuvers;
    expect(maneuvers.every((maneuver) => maneuver.speed_limit === null || (typeof maneuver.speed_limit === 'number' && maneuver.speed_limit > 0))).toBe(true);
    expect(trip(leg).legs[0]!.maneuvers.every((maneuver) => maneuver.speed_limit === undefined)).toBe(true);
  });

  it('lists the tagged speed limits along a leg (Al Doctor Hassan Ibrahim Street, way 25584616: maxspeed 20)', () => {
    const [limited] = wayEdges(pack, 25584616);
    const leg = legBetween(limited!, wayEdges(pack, 52244427)[2]!);
    const stretches = legSpeedLimits(pack, leg, 'ar');
    expect(stretches[0]).toMatchObject({ beginShapeIndex: 0, speedLimitKph: 20, roadName: 'شارع الدكتور حسان ابراهيم' });
    expect(stretches.some((stretch) => stretch.speedLimitKph === null)).toBe(true);
    stretches.slice(1).forEach((stretch, index) => {
      expect(stretch.beginShapeIndex).toBe(stretches[index]!.endShapeIndex);
      expect(stretch.speedLimitKph).not.toBe(stretches[index]!.speedLimitKph);
    });
    const total = stretches.reduce((sum, stretch) => sum + stretch.lengthMeters, 0);
    expect(total).toBeCloseTo(leg.edgeMeters.reduce((a, b) => a + b, 0), 0);
    expect(trip(leg, { includeAttributes: true }).legs[0]!.maneuvers[0]!.speed_limit).toBe(20);
  });

  it('builds a two-leg trip whose navigation view runs over one shape', () => {
    const a = locationOnEdge(pack, wayEdges(pack, 51799432)[0]!, 0.5, 0, 'Al Ryadah');
    const b = locationOnEdge(pack, wayEdges(pack, 26206307)[0]!, 0.5, 0, 'Stop');
    const c = locationOnEdge(pack, wayEdges(pack, 52244427)[2]!, 0.5, 0, 'Al Nasr Road');
    const legs = [shortestLeg(pack, a, b)!, shortestLeg(pack, b, c)!];
    const built = buildTrip(pack, legs, { language: 'en-US' });
    expect(tripViolations(built, legs)).toEqual([]);
    expect(built.locations.map((location) => location.name)).toEqual(['Al Ryadah', 'Stop', 'Al Nasr Road']);
    expect(built.legs[0]!.maneuvers.at(-1)!.instruction).toBe('You have arrived at Stop.');
    const route = navigationRoute(built);
    const points = polyline.decode(route.shape, 6);
    const legPoints = built.legs.map((leg) => polyline.decode(leg.shape, 6).length);
    expect(points.length).toBe(legPoints[0]! + legPoints[1]! - 1);
    expect(route.maneuvers.map((maneuver) => maneuver.index)).toEqual(route.maneuvers.map((_, index) => index));
    for (const [index, maneuver] of route.maneuvers.entries()) {
      expect([maneuver.lat, maneuver.lng]).toEqual(points[maneuver.beginShapeIndex]);
      if (index > 0) {
        const before = route.maneuvers[index - 1]!;
        expect(maneuver.cumulativeMeters).toBeCloseTo(before.cumulativeMeters + before.distanceMeters, 0);
      }
    }
    const totalMeters = legs.flatMap((leg) => leg.edgeMeters).reduce((x, y) => x + y, 0);
    expect(Math.abs(route.distanceMeters - totalMeters)).toBeLessThan(2);
    expect(route.etaSeconds).toBeCloseTo(built.summary.time, 2);
    const enter = route.maneuvers.find((maneuver) => maneuver.type === T.roundaboutEnter)!;
    expect(enter.roundaboutExit).toBe(3);
    expect(enter.verbalPost).toBe('');
    expect(route.maneuvers.filter((maneuver) => maneuver.type !== T.roundaboutEnter && maneuver.type !== T.destination).every((maneuver) => maneuver.verbalPost.length > 0)).toBe(true);
  });
});
