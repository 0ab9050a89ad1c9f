/**
 * Snaps a location to the roads a metric can use: the nearest usable segment,
 * every other segment about as near (a location on a junction lies on all its
 * roads), and the nearest segment of the main component when the nearest is
 * on an island. Each becomes one or two directed candidates; the search picks
 * the best.
 */
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';
import type { MetricState } from '../metric-state.js';
import type { SegmentGrid, SegmentHit } from './segment-grid.js';

/** Segments within this many metres of the nearest one count as equally near. */
const TIE_METERS = 1;
/** Nearest segments looked at (a junction has a handful within the tie distance). */
const CANDIDATE_SEGMENTS = 4;

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
  headingTolerance?: number;
}

export function snapCandidates(
  pack: MapPack,
  grid: SegmentGrid,
  metric: MetricState,
  location: LocationInput,
  cutoffMeters: number,
  bearingAt?: (edge: number, fraction: number) => number,
): DirectedCandidate[] {
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
  const candidates: DirectedCandidate[] = [];
  for (const hit of chosen) {
    if (metric.usable(hit.edge)) candidates.push({ edge: hit.edge, fraction: hit.fraction, hit });
    const reverse = twin[hit.edge]!;
    if (reverse !== NO_INDEX && metric.usable(reverse)) candidates.push({ edge: reverse, fraction: 1 - hit.fraction, hit });
  }
  if (location.heading === undefined || !bearingAt) return candidates;
  const tolerance = location.headingTolerance ?? 60;
  const matching = candidates.filter((candidate) => {
    const difference = Math.abs(((bearingAt(candidate.edge, candidate.fraction) - location.heading! + 540) % 360) - 180);
    return difference <= tolerance;
  });
  return matching.length ? matching : candidates;
}
