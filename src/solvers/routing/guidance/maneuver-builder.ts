/**
 * Groups the edges of a leg into maneuvers (see docs/routing-guidance.md for
 * the rules): a new maneuver starts where the traveller must act (a turn, a
 * change of road name, a fork, a ramp, an exit, a merge, a roundabout, a
 * ferry), and consecutive edges of the same road, bends included, stay in one.
 * Output is language-free; the narrative is written afterwards.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import type { LegPath } from '../leg-path.js';
import { bearingAlong, sideOf, turnDegree, type LonLat } from './geometry.js';
import { isFerry, isHighway, isLink, isRoundabout, JunctionReader, type Junction } from './junction.js';
import { costingMode } from './costing-modes.js';
import { ManeuverType, type ManeuverTypeCode } from './maneuver-types.js';
import { sameRoadName, wayUnnamed } from './street-names.js';
import { exitType, forkType, isTurnType, isUturnDegree, mergeType, rampType, STRAIGHT_DEVIATION, turnType } from './turn-classes.js';
import type { Costing } from '../../../domain/costing.js';

/** One maneuver before narrative: which edges of the leg it covers and what the traveller does. */
export interface ManeuverDraft {
  type: ManeuverTypeCode;
  /** Index in `leg.edges` of the first edge (= edges.length for the destination). */
  firstEdge: number;
  /** Index in `leg.edges` of the last edge (inclusive; firstEdge - 1 for the destination). */
  lastEdge: number;
  /** The way whose names the maneuver's street names are. */
  way: number;
  /** The way before the maneuver (for "X becomes Y"). */
  previousWay?: number;
  /** The road keeps its name through the turn ("turn right to stay on X"). */
  staysOnRoad?: boolean;
  /** Turn degree at the maneuver's start (0 for start and destination). */
  degree: number;
  /** Compass bearing at the start (start and ferry-exit maneuvers say it). */
  bearing?: number;
  /** Exits counted on a roundabout, the taken one included. */
  roundaboutExitCount?: number;
  /** The way whose `destination`/`ref` signs the maneuver (ramps, exits, forks, merges). */
  signWay?: number;
  /** Location side for start/destination. */
  side?: 'left' | 'right';
  /** The leg edge the maneuver is taken from (its approach, for lanes). */
  approachEdge?: number;
}

/** Metres a location must lie off the road before guidance names its side of the street. */
export const SIDE_OF_STREET_METERS = 5;
/** A link chain shorter than this between two non-highway roads is a turn channel (a slip lane), folded into the turn. */
export const TURN_CHANNEL_METERS = 250;
/** An edge shorter than this between two same-direction turns is the inside of a junction (a median crossing). */
export const INTERNAL_EDGE_METERS = 35;
/** Travelled metres below which an edge of the leg counts as not travelled (a location on its end node). */
const ZERO_METERS = 0.01;
/** The second turn of such a pair counts from this many degrees off straight. */
const SECOND_TURN_DEVIATION = 15;

interface BuildContext {
  pack: MapPack;
  leg: LegPath;
  junctions: JunctionReader;
  edgeWay: (index: number) => number;
  edgeFlags: (index: number) => number;
  edgeClass: (index: number) => number;
}

export function buildManeuverDrafts(pack: MapPack, leg: LegPath, costing: Costing, legShape: LonLat[]): ManeuverDraft[] {
  const s = pack.sections;
  const edges = leg.edges;
  const context: BuildContext = {
    pack,
    leg,
    junctions: new JunctionReader(pack, costingMode(costing).accessBit),
    edgeWay: (index) => s['graph.edgeWay'][edges[index]!]!,
    edgeFlags: (index) => s['graph.edgeFlags'][edges[index]!]!,
    edgeClass: (index) => s['ways.class'][s['graph.edgeWay'][edges[index]!]!]!,
  };
  // A location exactly on a node gives a first (or last) edge with nothing travelled on it: the leg really
  // starts (ends) on the next (previous) edge, and the junction there is no maneuver.
  let first = 0;
  while (first + 1 < edges.length && !(leg.edgeMeters[first]! > ZERO_METERS)) first++;
  let last = edges.length - 1;
  while (last > first && !(leg.edgeMeters[last]! > ZERO_METERS)) last--;
  const drafts: ManeuverDraft[] = [];
  if (edges.length > 0) drafts.push(startDraft(context, legShape, first));
  let skipUntil = 0;
  for (let index = 1; index < edges.length; index++) {
    const current = drafts[drafts.length - 1]!;
    if (index < skipUntil || index <= first || index > last) {
      current.lastEdge = index;
      continue;
    }
    const next = decide(context, index, current);
    if (next) {
      current.lastEdge = index - 1;
      drafts.push(next.draft);
      skipUntil = next.absorbUntil ?? 0;
    } else current.lastEdge = index;
  }
  drafts.push(destinationDraft(context, legShape));
  return drafts;
}

function startDraft(context: BuildContext, legShape: LonLat[], first: number): ManeuverDraft {
  const { leg } = context;
  const bearing = bearingAlong(legShape) ?? context.junctions.outBearing(leg.edges[first]!);
  const side = leg.origin.snapDistanceMeters > SIDE_OF_STREET_METERS ? sideOf([leg.origin.snappedLon, leg.origin.snappedLat], bearing, [leg.origin.lon, leg.origin.lat]) : undefined;
  const type = side === 'right' ? ManeuverType.startRight : side === 'left' ? ManeuverType.startLeft : ManeuverType.start;
  return { type, firstEdge: 0, lastEdge: 0, way: context.edgeWay(first), degree: 0, bearing, ...(side ? { side } : {}) };
}

function destinationDraft(context: BuildContext, legShape: LonLat[]): ManeuverDraft {
  const { leg } = context;
  const count = leg.edges.length;
  const end = legShape[legShape.length - 1]!;
  const before = legShape.length >= 2 ? [...legShape].reverse() : legShape;
  const backBearing = bearingAlong(before);
  const bearing = backBearing === undefined ? 0 : (backBearing + 180) % 360;
  const side =
    leg.destination.snapDistanceMeters > SIDE_OF_STREET_METERS && backBearing !== undefined
      ? sideOf(end, bearing, [leg.destination.lon, leg.destination.lat])
      : undefined;
  const type = side === 'right' ? ManeuverType.destinationRight : side === 'left' ? ManeuverType.destinationLeft : ManeuverType.destination;
  return { type, firstEdge: count, lastEdge: count - 1, way: count > 0 ? context.edgeWay(count - 1) : 0, degree: 0, ...(side ? { side } : {}) };
}

interface Decision {
  draft: ManeuverDraft;
  /** Transitions before this leg-edge index are folded into the new maneuver. */
  absorbUntil?: number;
}

function sameRoad(context: BuildContext, a: number, b: number): boolean {
  const { pack } = context;
  const wayA = context.edgeWay(a);
  const wayB = context.edgeWay(b);
  if (wayA === wayB) return true;
  if (wayUnnamed(pack, wayA) || wayUnnamed(pack, wayB)) return false;
  return sameRoadName(pack, wayA, wayB);
}

function make(context: BuildContext, index: number, type: ManeuverTypeCode, junction: Junction, extra: Partial<ManeuverDraft> = {}): ManeuverDraft {
  return { type, firstEdge: index, lastEdge: index, way: context.edgeWay(index), previousWay: context.edgeWay(index - 1), degree: junction.taken.degree, approachEdge: index - 1, ...extra };
}

/** The maneuver that starts with leg edge `index`, or undefined when the current one goes on. */
function decide(context: BuildContext, index: number, current: ManeuverDraft): Decision | undefined {
  const { leg, junctions } = context;
  const junction = junctions.read(leg.edges[index - 1]!, leg.edges[index]!);
  const before = context.edgeFlags(index - 1);
  const after = context.edgeFlags(index);

  if (isFerry(before) !== isFerry(after)) {
    if (isFerry(after)) return { draft: make(context, index, ManeuverType.ferryEnter, junction) };
    return { draft: make(context, index, ManeuverType.ferryExit, junction, { bearing: junction.outBearing }) };
  }
  if (isFerry(after)) return undefined;

  if (isRoundabout(before) || isRoundabout(after)) return roundabout(context, index, current, junction, before, after);

  if (!isLink(before) && isLink(after)) return enterLink(context, index, junction, before);
  if (isLink(before) && !isLink(after) && isHighway(after)) return { draft: make(context, index, mergeType(junction.taken.degree), junction, { signWay: context.edgeWay(index) }) };
  return ordinary(context, index, junction);
}

function roundabout(context: BuildContext, index: number, current: ManeuverDraft, junction: Junction, before: number, after: number): Decision | undefined {
  if (!isRoundabout(before)) {
    return { draft: make(context, index, ManeuverType.roundaboutEnter, junction, { roundaboutExitCount: 0 }) };
  }
  if (isRoundabout(after)) {
    // Passing an exit the mode could have taken: count it.
    const exits = junction.alternatives.filter((branch) => !isRoundabout(branch.flags)).length;
    if (current.type === ManeuverType.roundaboutEnter) current.roundaboutExitCount = (current.roundaboutExitCount ?? 0) + exits;
    return undefined;
  }
  if (current.type === ManeuverType.roundaboutEnter) {
    current.roundaboutExitCount = (current.roundaboutExitCount ?? 0) + 1;
    current.way = context.edgeWay(index);
  }
  return { draft: make(context, index, ManeuverType.roundaboutExit, junction) };
}

function enterLink(context: BuildContext, index: number, junction: Junction, before: number): Decision {
  const { leg, junctions } = context;
  let end = index;
  let meters = 0;
  while (end < leg.edges.length && isLink(context.edgeFlags(end))) meters += context.pack.sections['graph.edgeLength'][leg.edges[end++]!]!;
  const signWay = context.edgeWay(index);
  if (end < leg.edges.length && meters < TURN_CHANNEL_METERS) {
    const degree = turnDegree(junction.inBearing, junctions.outBearing(leg.edges[end]!));
    const staysOnRoad = sameRoad(context, index - 1, end);
    const firstSide = junction.taken.degree < 180 ? 'right' : 'left';
    const absorbUntil = end + 1;
    // A U-turn slip (a short link back onto the other carriageway of the same road), even on a highway.
    if (staysOnRoad && isUturnDegree(degree)) {
      return { draft: make(context, index, turnType(degree, firstSide), junction, { way: context.edgeWay(end), degree, staysOnRoad }), absorbUntil };
    }
    if (!isHighway(before) && !isHighway(context.edgeFlags(end))) {
      // A turn channel (slip lane): the traveller turns from the road before it onto the road after it.
      const type = turnType(degree, firstSide);
      if (type === ManeuverType.continue) {
        return { draft: make(context, index, staysOnRoad ? ManeuverType.continue : ManeuverType.becomes, junction, { way: context.edgeWay(end), degree }), absorbUntil };
      }
      return { draft: make(context, index, type, junction, { way: context.edgeWay(end), degree, staysOnRoad }), absorbUntil };
    }
  }
  const type = isHighway(before) ? exitType(junction.taken.degree) : rampType(junction.taken.degree);
  return { draft: make(context, index, type, junction, { signWay }) };
}

function ordinary(context: BuildContext, index: number, junction: Junction): Decision | undefined {
  const { leg, junctions, pack } = context;
  const taken = junction.taken;
  const same = sameRoad(context, index - 1, index);
  const forward = junction.alternatives.filter((branch) => branch.deviation <= 40);
  const importance = context.edgeClass(index);

  if (taken.deviation <= STRAIGHT_DEVIATION) {
    // A fork: another branch of comparable importance also goes on ahead.
    const comparable = forward.filter((branch) => Math.abs(branch.roadClass - importance) <= 1 && !(same && taken.deviation <= 10 && branch.deviation >= 20));
    if (comparable.length > 0 && (isLink(context.edgeFlags(index)) || isHighway(context.edgeFlags(index)) || taken.deviation > 10 || comparable.some((branch) => branch.deviation <= 10))) {
      const type = forkType(taken.degree, comparable.map((branch) => branch.degree));
      return { draft: make(context, index, type, junction, { staysOnRoad: same, signWay: context.edgeWay(index) }) };
    }
    if (same) return undefined;
    const wayAfter = context.edgeWay(index);
    if (wayUnnamed(pack, wayAfter)) return undefined;
    const type = wayUnnamed(pack, context.edgeWay(index - 1)) ? ManeuverType.continue : ManeuverType.becomes;
    return { draft: make(context, index, type, junction) };
  }

  // The road bends and nothing goes on straighter: no maneuver.
  if (same && !junction.alternatives.some((branch) => branch.deviation < taken.deviation)) return undefined;

  let type = turnType(taken.degree);
  let degree = taken.degree;
  let way = context.edgeWay(index);
  let absorbUntil: number | undefined;
  let staysOnRoad = same;
  // The inside of a junction (a median crossing between two carriageways): two turns the same way are one.
  // The short middle piece must be part of the junction (unnamed, or part of one of the two roads), and two
  // turns that add up to a reversal are a U-turn only back onto the same road (else they are two turns
  // around a block).
  const edgeMeters = pack.sections['graph.edgeLength'][leg.edges[index]!]!;
  const next = index + 1;
  if (isTurnType(type) && edgeMeters < INTERNAL_EDGE_METERS && next < leg.edges.length && !isLink(context.edgeFlags(next)) && !isRoundabout(context.edgeFlags(next))) {
    const internal = wayUnnamed(pack, context.edgeWay(index)) || sameRoad(context, index, index - 1) || sameRoad(context, index, next);
    const second = junctions.read(leg.edges[index]!, leg.edges[next]!);
    const sameSide = Math.sign(taken.degree - 180) === Math.sign(second.taken.degree - 180);
    const total = turnDegree(junction.inBearing, second.outBearing);
    const backOnRoad = sameRoad(context, index - 1, next);
    if (internal && second.taken.deviation > SECOND_TURN_DEVIATION && sameSide && (!isUturnDegree(total) || backOnRoad)) {
      degree = total;
      type = turnType(degree, taken.degree < 180 ? 'right' : 'left');
      way = context.edgeWay(next);
      staysOnRoad = backOnRoad;
      absorbUntil = next + 1;
    }
  }
  return { draft: make(context, index, type, junction, { way, degree, staysOnRoad }), ...(absorbUntil ? { absorbUntil } : {}) };
}
