/**
 * Snaps a location to the roads a metric can use: the nearest usable segment,
 * every other segment about as near (a location on a junction lies on all its
 * roads), and the nearest segment of the main component when the nearest is
 * on an island. Each becomes one or two directed candidates; the search picks
 * the best.
 *
 * With a heading (a moving vehicle re-planning), only candidates travelling
 * within the tolerance of it are offered, so the route leaves in the direction
 * of travel instead of turning around on the spot. A fix a little nearer the
 * opposite carriageway of a divided road still belongs to the carriageway it
 * drives on: within {@link HEADING_SLACK_METERS} of the nearest road, a road
 * matching the heading wins over a nearer one that does not.
 */
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';
import type { MetricState } from '../metric-state.js';
import type { SegmentGrid, SegmentHit } from './segment-grid.js';

/** Segments within this many metres of the nearest one count as equally near. */
const TIE_METERS = 1;
/**
 * Nearest segments looked at: a junction has a handful within the tie distance, and a heading may need
 * the next road beyond them (the other carriageway).
 */
const CANDIDATE_SEGMENTS = 6;
/** How much farther than the nearest road a road matching the heading may be (about a consumer GPS error). */
export const HEADING_SLACK_METERS = 25;
/** Default largest difference between the heading and a candidate's travel bearing (degrees). */
export const DEFAULT_HEADING_TOLERANCE = 60;

export interface DirectedCandidate {
  edge: number;
  /** Position along `edge` in its travel direction. */
  fraction: number;
  hit: SegmentHit;
}

export interface LocationInput {
  lat: number;
  lon: number;
  /** Travel heading at the location (degrees), when known: candidates against it are dropped. */
  heading?: number;
  /** Degrees either side of `heading` a candidate's bearing may lie (default 60). */
  headingTolerance?: number;
}

/** Smallest angle between two bearings, 0..180. */
function bearingDifference(a: number, b: number): number {
  return Math.abs(((a - b + 540) % 360) - 180);
}

export function snapCandidates(pack: MapPack, grid: SegmentGrid, metric: MetricState, location: LocationInput, cutoffMeters: number): DirectedCandidate[] {
  const twin = pack.sections['graph.edgeTwin'];
  const usableEither = (edge: number) => metric.usable(edge) || (twin[edge] !== NO_INDEX && metric.usable(twin[edge]!));
  const inMain = (edge: number) => metric.inMainComponent[edge] === 1 || (twin[edge] !== NO_INDEX && metric.inMainComponent[twin[edge]!] === 1);
  const hits = grid.nearest(location.lat, location.lon, cutoffMeters, CANDIDATE_SEGMENTS, usableEither);
  if (!hits.length) return [];
  const chosen = hits.filter((hit) => hit.distanceMeters <= hits[0]!.distanceMeters + TIE_METERS);
  if (!chosen.some((hit) => inMain(hit.edge))) {
    // the nearest roads are an island: also offer the nearest road of the main network
    const main = grid.nearest(location.lat, location.lon, cutoffMeters, 1, (edge) => usableEither(edge) && inMain(edge))[0];
    if (main) chosen.push(main);
  }
  const candidates = directed(chosen, twin, metric);
  if (location.heading === undefined) return candidates;
  const tolerance = location.headingTolerance ?? DEFAULT_HEADING_TOLERANCE;
  const along = (candidate: DirectedCandidate & { bearing: number }) => bearingDifference(candidate.bearing, location.heading!) <= tolerance;
  const reach = hits[0]!.distanceMeters + HEADING_SLACK_METERS;
  const near = (candidate: DirectedCandidate) => candidate.hit.distanceMeters <= reach;
  // a far candidate is the main network offered from an island: it must not win over the road the vehicle is on
  const matching = candidates.filter((candidate) => near(candidate) && along(candidate));
  if (matching.length) return [...matching, ...candidates.filter((candidate) => !near(candidate) && along(candidate))];
  // none of the nearest roads runs the way the vehicle drives: the nearest one that does, if close enough
  const farther = directed(hits.filter((hit) => hit.distanceMeters <= reach && !chosen.includes(hit)), twin, metric).filter(along);
  if (farther.length) {
    const nearest = farther[0]!.hit.distanceMeters;
    return farther.filter((candidate) => candidate.hit.distanceMeters <= nearest + TIE_METERS);
  }
  // no road around runs that way (a heading across the street, or against a one-way): the heading cannot decide
  return candidates;
}

/** Both travel directions of each hit segment the metric may use, with their bearing at the hit. */
function directed(hits: SegmentHit[], twin: Uint32Array, metric: MetricState): (DirectedCandidate & { bearing: number })[] {
  const candidates: (DirectedCandidate & { bearing: number })[] = [];
  for (const hit of hits) {
    if (metric.usable(hit.edge)) candidates.push({ edge: hit.edge, fraction: hit.fraction, hit, bearing: hit.bearing });
    const reverse = twin[hit.edge]!;
    if (reverse !== NO_INDEX && metric.usable(reverse)) candidates.push({ edge: reverse, fraction: 1 - hit.fraction, hit, bearing: (hit.bearing + 180) % 360 });
  }
  return candidates;
}
