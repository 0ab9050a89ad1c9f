/**
 * One Valhalla trip leg from a searched leg path: maneuvers with narrative,
 * times, lengths in the requested units, shape indexes, flags, signs, and the
 * leg's polyline6 shape and summary.
 */
import polyline from '@mapbox/polyline';
import type { MapPack } from '../../../datapack/map-pack.js';
import { EdgeFlag } from '../../../datapack/pack-layout.js';
import { cardinalOf } from './geometry.js';
import { isHighway } from './junction.js';
import { laneInfo } from './lanes.js';
import { buildLegGeometry } from './leg-geometry.js';
import { buildManeuverDrafts, type ManeuverDraft } from './maneuver-builder.js';
import { ManeuverType as T } from './maneuver-types.js';
import { METERS_PER_MILE, type DistanceUnits } from './narrative/distance-phrases.js';
import { alertDistance, maneuverPhrases, MULTI_CUE_SECONDS, multiCue } from './narrative/narrative.js';
import type { TravelModeName } from './narrative/phrase-input.js';
import { spokenNames, wayDestinations, wayName, wayRef, wayStreetNames, type NarrativeLanguage } from './street-names.js';
import type { GuidanceLeg, TripLeg, TripManeuver, TripSign, TripSummary } from './trip-types.js';
import { roundTo } from '../../../shared/rounding.js';
import type { Costing } from '../../../domain/costing.js';

export interface LegSettings {
  language: NarrativeLanguage;
  units: DistanceUnits;
  costing: Costing;
  mode: TravelModeName;
  travelType: string;
  includeLanes: boolean;
  includeAttributes: boolean;
  /** Lane lookups left for the trip (decremented here). */
  laneBudget: { remaining: number };
}

/** Metres per unit of the trip's `length` fields. */
export const unitMeters = (units: DistanceUnits): number => (units === 'miles' ? METERS_PER_MILE : 1000);
/** Rounds each part so the rounded parts add up to the rounded total (rounding the running sum). */
export function roundParts(parts: number[]): number[] {
  let sum = 0;
  let previous = 0;
  return parts.map((part) => {
    sum += part;
    const rounded = roundTo(sum, 3);
    const value = roundTo(rounded - previous, 3);
    previous = rounded;
    return value;
  });
}

const SIGNED_TYPES = new Set<number>([T.rampStraight, T.rampRight, T.rampLeft, T.exitRight, T.exitLeft, T.stayStraight, T.stayRight, T.stayLeft, T.merge, T.mergeRight, T.mergeLeft]);
const DESTINATION_TYPES = new Set<number>([T.destination, T.destinationRight, T.destinationLeft]);
const NO_LANE_TYPES = new Set<number>([T.none, T.start, T.startRight, T.startLeft, T.destination, T.destinationRight, T.destinationLeft, T.continue, T.becomes]);

function sign(pack: MapPack, draft: ManeuverDraft, language: NarrativeLanguage): TripSign | undefined {
  if (draft.signWay === undefined || !SIGNED_TYPES.has(draft.type)) return undefined;
  const toward = wayDestinations(pack, draft.signWay, language);
  const branch = wayRef(pack, draft.signWay);
  const result: TripSign = {};
  if (toward.length) result.exit_toward_elements = toward.map((text) => ({ text }));
  if (branch) result.exit_branch_elements = branch.split(';').map((text) => ({ text: text.trim() }));
  return Object.keys(result).length ? result : undefined;
}

export function buildTripLeg(pack: MapPack, leg: GuidanceLeg, settings: LegSettings): TripLeg {
  const s = pack.sections;
  const geometry = buildLegGeometry(pack, leg);
  const drafts = buildManeuverDrafts(pack, leg, settings.costing, geometry.points);
  const flagsOf = (draft: ManeuverDraft): number => {
    let flags = 0;
    for (let index = draft.firstEdge; index <= draft.lastEdge; index++) flags |= s['graph.edgeFlags'][leg.edges[index]!]!;
    return flags;
  };
  const sumOver = (draft: ManeuverDraft, values: number[] | undefined, turns: number[] | undefined): number => {
    let total = 0;
    for (let index = draft.firstEdge; index <= draft.lastEdge; index++) total += (values?.[index] ?? 0) + (turns?.[index] ?? 0);
    return total;
  };
  const meters = drafts.map((draft) => sumOver(draft, leg.edgeMeters, undefined));
  /** The draft's first edge with distance travelled on it (a location on a node leaves an untravelled edge). */
  const firstTravelled = (draft: ManeuverDraft): number => {
    for (let index = draft.firstEdge; index <= draft.lastEdge; index++) if (leg.edgeMeters[index]! > 0.01) return index;
    return draft.firstEdge;
  };
  const seconds = drafts.map((draft) => sumOver(draft, leg.edgeSeconds, leg.turnSeconds));
  const costs = leg.edgeCost ? drafts.map((draft) => sumOver(draft, leg.edgeCost, leg.turnCost)) : seconds;
  const perUnit = unitMeters(settings.units);
  const lengths = roundParts(meters.map((value) => value / perUnit));
  const times = roundParts(seconds);
  const roundedCosts = roundParts(costs);
  const lastPoint = geometry.points.length - 1;

  const maneuvers = drafts.map((draft, index): TripManeuver => {
    const isDestination = DESTINATION_TYPES.has(draft.type);
    const flags = flagsOf(draft);
    const streetNames = isDestination ? [] : wayStreetNames(pack, draft.way, settings.language);
    const previous = index > 0 ? drafts[index - 1]! : undefined;
    const approachHighway = previous ? isHighway(s['graph.edgeFlags'][leg.edges[previous.lastEdge]!] ?? 0) : false;
    const alertMeters = previous ? alertDistance(settings.mode, approachHighway, meters[index - 1]!) : undefined;
    const phrases = maneuverPhrases(settings.language, {
      type: draft.type,
      mode: settings.mode,
      streetNames: isDestination ? [] : spokenNames(pack, draft.way, settings.language),
      previousNames: draft.previousWay === undefined ? [] : spokenNames(pack, draft.previousWay, settings.language),
      staysOnRoad: draft.staysOnRoad ?? false,
      cardinal: cardinalOf(draft.bearing ?? 0),
      roundaboutExitCount: draft.roundaboutExitCount ?? 0,
      toward: draft.signWay !== undefined && SIGNED_TYPES.has(draft.type) ? wayDestinations(pack, draft.signWay, settings.language) : [],
      lengthMeters: meters[index]!,
      // absent and undefined read the same to the templates; no spread of a throw-away object per maneuver
      alertMeters,
      units: settings.units,
      locationName: isDestination && leg.destination.name ? leg.destination.name : undefined,
    });
    // keys are assigned in the order the answer lists them (optional ones included)
    const maneuver = {
      type: draft.type,
      instruction: phrases.instruction,
      verbal_transition_alert_instruction: phrases.alert,
      verbal_pre_transition_instruction: phrases.pre,
    } as TripManeuver;
    if (phrases.post) maneuver.verbal_post_transition_instruction = phrases.post;
    if (streetNames.length) maneuver.street_names = streetNames;
    maneuver.time = times[index]!;
    maneuver.length = lengths[index]!;
    maneuver.cost = roundedCosts[index]!;
    maneuver.begin_shape_index = isDestination ? lastPoint : geometry.edgeBegin[draft.firstEdge]!;
    maneuver.end_shape_index = isDestination ? lastPoint : geometry.edgeEnd[draft.lastEdge]!;
    maneuver.travel_mode = settings.mode;
    maneuver.travel_type = settings.travelType;
    if (!isDestination && draft.firstEdge <= draft.lastEdge) {
      const firstWay = s['graph.edgeWay'][leg.edges[firstTravelled(draft)]!]!;
      if (firstWay !== draft.way) {
        const begin = wayStreetNames(pack, firstWay, settings.language);
        if (begin.length) maneuver.begin_street_names = begin;
      }
    }
    if (flags & EdgeFlag.toll) maneuver.toll = true;
    if (flags & EdgeFlag.highway) maneuver.highway = true;
    if (flags & EdgeFlag.ferry) maneuver.ferry = true;
    if (flags & EdgeFlag.unpaved) maneuver.rough = true;
    if (draft.type === T.roundaboutEnter) maneuver.roundabout_exit_count = draft.roundaboutExitCount ?? 0;
    const signs = sign(pack, draft, settings.language);
    if (signs) maneuver.sign = signs;
    if (settings.includeLanes && draft.approachEdge !== undefined && !NO_LANE_TYPES.has(draft.type) && settings.laneBudget.remaining > 0) {
      settings.laneBudget.remaining--;
      const lanes = laneInfo(pack, leg.edges[draft.approachEdge]!, draft.type, wayName(pack, s['graph.edgeWay'][leg.edges[draft.approachEdge]!]!, settings.language));
      if (lanes) maneuver.lanes = lanes;
    }
    if (settings.includeAttributes) {
      const way = isDestination ? draft.way : s['graph.edgeWay'][leg.edges[firstTravelled(draft)]!]!;
      const limit = s['ways.maxspeed'][way] ?? 0;
      maneuver.speed_limit = limit > 0 ? limit : null;
    }
    return maneuver;
  });

  // A short maneuver announces the next one with it (the traveller has no time for two announcements).
  for (let index = 0; index + 1 < maneuvers.length; index++) {
    // A roundabout entry already names the exit road the next maneuver leaves on.
    if (seconds[index]! >= MULTI_CUE_SECONDS || DESTINATION_TYPES.has(maneuvers[index]!.type) || maneuvers[index]!.type === T.roundaboutEnter) continue;
    const current = maneuvers[index]!;
    current.verbal_pre_transition_instruction = multiCue(settings.language, current.verbal_pre_transition_instruction, maneuvers[index + 1]!.verbal_transition_alert_instruction);
    current.verbal_multi_cue = true;
  }

  const allFlags = leg.edges.reduce((flags, edge) => flags | s['graph.edgeFlags'][edge]!, 0);
  const summary = legSummary(geometry.points, {
    time: times.reduce((a, b) => a + b, 0),
    length: lengths.reduce((a, b) => a + b, 0),
    cost: roundedCosts.reduce((a, b) => a + b, 0),
    flags: allFlags,
  });
  return { maneuvers, summary, shape: polyline.encode(geometry.points.map(([lon, lat]) => [lat, lon]), 6) };
}

function legSummary(points: [number, number][], totals: { time: number; length: number; cost: number; flags: number }): TripSummary {
  let minLat = Infinity;
  let minLon = Infinity;
  let maxLat = -Infinity;
  let maxLon = -Infinity;
  for (const [lon, lat] of points) {
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
  }
  return {
    has_time_restrictions: false,
    has_toll: (totals.flags & EdgeFlag.toll) !== 0,
    has_highway: (totals.flags & EdgeFlag.highway) !== 0,
    has_ferry: (totals.flags & EdgeFlag.ferry) !== 0,
    min_lat: minLat,
    min_lon: minLon,
    max_lat: maxLat,
    max_lon: maxLon,
    time: roundTo(totals.time, 3),
    length: roundTo(totals.length, 3),
    cost: roundTo(totals.cost, 3),
  };
}

/** Merges leg summaries into the trip summary. */
export function tripSummary(legs: TripSummary[]): TripSummary {
  const first = legs[0]!;
  return legs.slice(1).reduce<TripSummary>(
    (total, leg) => ({
      has_time_restrictions: total.has_time_restrictions || leg.has_time_restrictions,
      has_toll: total.has_toll || leg.has_toll,
      has_highway: total.has_highway || leg.has_highway,
      has_ferry: total.has_ferry || leg.has_ferry,
      min_lat: Math.min(total.min_lat, leg.min_lat),
      min_lon: Math.min(total.min_lon, leg.min_lon),
      max_lat: Math.max(total.max_lat, leg.max_lat),
      max_lon: Math.max(total.max_lon, leg.max_lon),
      time: roundTo(total.time + leg.time, 3),
      length: roundTo(total.length + leg.length, 3),
      cost: roundTo(total.cost + leg.cost, 3),
    }),
    { ...first },
  );
}
