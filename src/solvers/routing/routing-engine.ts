/**
 * The routing engine as a worker sees it: one pack, metric states built on
 * first use, the shared hierarchies the main thread hands in, and the
 * operations the tasks expose (route, matrix). Pure computation: no I/O.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { computeTopology, type EdgeGraph, type PackTopology } from './edge-graph.js';
import { metricKey, type MetricSpec } from './costing/profiles.js';
import type { Hierarchy } from './hierarchy/hierarchy.js';
import { hierarchyMatrix, type MatrixSeed } from './hierarchy/hierarchy-matrix.js';
import { buildLegPath } from './leg-builder.js';
import type { LegPath, SnappedLocation } from './leg-path.js';
import type { GuidanceLeg } from './guidance/index.js';
import { MetricState } from './metric-state.js';
import type { PathResult } from './search/bidirectional-dijkstra.js';
import type { Seed } from './search/search-space.js';
import { SegmentGrid } from './snapping/segment-grid.js';
import { MatcherScratch } from './map-matching/matcher-scratch.js';
import { snapCandidates, type DirectedCandidate, type LocationInput } from './snapping/snapper.js';
import { avoidedFlags } from './costing/edge-costs.js';
import { avoidanceMask, type AreaAvoidance } from './avoid-areas.js';

/** Share of its weight an edge of a route already found costs extra in the next alternative search. */
const ALTERNATE_PENALTY = 0.5;
/** Metric states a worker keeps (least recently used beyond this are dropped). */
const MAX_METRICS = 24;
/** Default and largest snapping distance (m). */
export const DEFAULT_SEARCH_CUTOFF_METERS = 2_000;
export const MAX_SEARCH_CUTOFF_METERS = 50_000;

export interface RouteLocation extends LocationInput {
  type?: SnappedLocation['type'];
  name?: string;
  /** Snapping distance limit for this location (m). */
  searchCutoffMeters?: number;
}

export interface AlternatesOptions {
  /** How many alternatives to look for (0..3). */
  count: number;
  /** Largest share of an alternative's length it may share with routes already found. */
  maxSharedShare: number;
  /** Largest ratio of an alternative's weight to the best route's. */
  maxStretch: number;
}

export const DEFAULT_ALTERNATES: AlternatesOptions = { count: 0, maxSharedShare: 0.75, maxStretch: 1.4 };

export interface RouteRequest {
  metric: MetricSpec;
  /** Hierarchy of the same metric without avoidances, when the main thread has one. */
  hierarchy?: Hierarchy;
  locations: RouteLocation[];
  avoidAreas?: AreaAvoidance;
  alternates?: AlternatesOptions;
}

export type RouteOutcome =
  | { ok: true; legs: LegPath[]; alternates: LegPath[][]; usedHierarchy: boolean; settled: number }
  | { ok: false; code: 'no_road_nearby'; locationIndex: number; cutoffMeters: number }
  | { ok: false; code: 'no_route'; legIndex: number };

export class RoutingEngine {
  private topology?: PackTopology;
  private grid?: SegmentGrid;
  private matcher?: MatcherScratch;
  private readonly metrics = new Map<string, MetricState>();

  constructor(readonly pack: MapPack) {}

  metric(spec: MetricSpec): MetricState {
    const key = metricKey(spec);
    let state = this.metrics.get(key);
    if (state) {
      this.metrics.delete(key);
      this.metrics.set(key, state);
      return state;
    }
    this.topology ??= computeTopology(this.pack);
    state = new MetricState(this.pack, this.topology, spec);
    this.metrics.set(key, state);
    if (this.metrics.size > MAX_METRICS) this.metrics.delete(this.metrics.keys().next().value!);
    return state;
  }

  segmentGrid(): SegmentGrid {
    this.grid ??= new SegmentGrid(this.pack);
    return this.grid;
  }

  /**
   * The map matcher's working memory (arrays sized by the pack, made on first use and reused by
   * every trace this engine matches; an engine serves one thread). `graph`: any metric's, for the first use.
   */
  matcherScratch(graph: EdgeGraph): MatcherScratch {
    this.matcher ??= new MatcherScratch(this.pack, graph);
    return this.matcher;
  }

  /** Snaps one location for a metric; an empty list means nothing usable within the cutoff. */
  snap(metric: MetricState, location: RouteLocation): DirectedCandidate[] {
    const cutoff = Math.min(location.searchCutoffMeters ?? DEFAULT_SEARCH_CUTOFF_METERS, MAX_SEARCH_CUTOFF_METERS);
    return snapCandidates(this.pack, this.segmentGrid(), metric, location, cutoff);
  }

  route(request: RouteRequest): RouteOutcome {
    const metric = this.metric(request.metric);
    const base = request.hierarchy && request.metric.avoid.length ? this.metric({ ...request.metric, avoid: [] }) : metric;
    const excluded = request.avoidAreas ? avoidanceMask(this.pack, this.segmentGrid(), request.avoidAreas) : undefined;
    const snapped: DirectedCandidate[][] = [];
    for (let index = 0; index < request.locations.length; index++) {
      const candidates = this.snap(metric, request.locations[index]!).filter((candidate) => !excluded?.[candidate.edge]);
      if (!candidates.length) {
        return { ok: false, code: 'no_road_nearby', locationIndex: index, cutoffMeters: request.locations[index]!.searchCutoffMeters ?? DEFAULT_SEARCH_CUTOFF_METERS };
      }
      snapped.push(candidates);
    }
    // one searched part per consecutive pair; parts join into legs at break locations only
    const parts: LegPath[] = [];
    let usedHierarchy = true;
    let settled = 0;
    let arrival: { edge: number; fraction: number } | undefined;
    for (let leg = 0; leg + 1 < request.locations.length; leg++) {
      const from = request.locations[leg]!;
      // through/via locations keep the direction of travel: no turning around there
      let sources = snapped[leg]!;
      if (arrival && leg > 0 && from.type && from.type !== 'break') sources = sources.filter((candidate) => candidate.edge === arrival!.edge);
      if (!sources.length) sources = snapped[leg]!;
      const targets = snapped[leg + 1]!;
      const found = this.bestPath(metric, base, request.hierarchy, sources, targets, excluded);
      if (!found) return { ok: false, code: 'no_route', legIndex: leg };
      settled += found.path.settled;
      usedHierarchy &&= found.usedHierarchy;
      const path = this.toLeg(metric, found.path, sources, targets, request.locations[leg]!, request.locations[leg + 1]!);
      parts.push(path);
      arrival = { edge: path.destination.edge, fraction: path.destination.fraction };
    }
    const legs: LegPath[] = [];
    for (const [index, part] of parts.entries()) {
      const type = request.locations[index]!.type ?? 'break';
      if (index > 0 && (type === 'through' || type === 'via')) legs[legs.length - 1] = joinParts(legs[legs.length - 1]!, part);
      else legs.push(part);
    }
    const alternates: LegPath[][] = [];
    const options = request.alternates;
    if (options && options.count > 0 && parts.length === 1) {
      for (const alternate of this.alternates(metric, snapped[0]!, snapped[1]!, legs[0]!, options, excluded)) {
        alternates.push([this.toLeg(metric, alternate, snapped[0]!, snapped[1]!, request.locations[0]!, request.locations[1]!)]);
      }
    }
    return { ok: true, legs, alternates, usedHierarchy, settled };
  }

  /**
   * Matrix of seconds and metres between snapped locations, on the metric's own hierarchy.
   * Locations that snap to nothing give NaN rows or columns.
   */
  matrix(spec: MetricSpec, hierarchy: Hierarchy, sources: RouteLocation[], targets: RouteLocation[]) {
    const metric = this.metric(spec);
    // all-to-all requests name each location twice: snap it once
    const snapped = new Map<string, DirectedCandidate[]>();
    const candidatesOf = (location: RouteLocation) => {
      const key = `${location.lat},${location.lon},${location.heading ?? ''},${location.searchCutoffMeters ?? ''}`;
      let candidates = snapped.get(key);
      if (!candidates) snapped.set(key, (candidates = this.snap(metric, location)));
      return candidates;
    };
    const toSeeds = (location: RouteLocation, asTarget: boolean): MatrixSeed[] =>
      candidatesOf(location).map((candidate) => {
        const left = 1 - candidate.fraction;
        const sign = asTarget ? -1 : 1;
        return {
          node: candidate.edge,
          weight: sign * left * metric.graph.costs.weight[candidate.edge]!,
          seconds: sign * left * metric.graph.costs.seconds[candidate.edge]!,
          meters: sign * left * this.pack.sections['graph.edgeLength'][candidate.edge]!,
        };
      });
    const sourceSeeds = sources.map((location) => toSeeds(location, false));
    const targetSeeds = targets.map((location) => toSeeds(location, true));
    const result = hierarchyMatrix(hierarchy, sourceSeeds, targetSeeds);
    const unsnapped = { sources: sourceSeeds.flatMap((seeds, index) => (seeds.length ? [] : [index])), targets: targetSeeds.flatMap((seeds, index) => (seeds.length ? [] : [index])) };
    return { ...result, unsnapped };
  }

  private bestPath(
    metric: MetricState,
    base: MetricState,
    hierarchy: Hierarchy | undefined,
    sources: DirectedCandidate[],
    targets: DirectedCandidate[],
    excluded: Uint8Array | undefined,
  ): { path: PathResult; usedHierarchy: boolean } | undefined {
    if (hierarchy && !excluded) {
      const path = base.hierarchySearch(hierarchy).route(sourceSeeds(base, sources), targetSeeds(base, targets));
      // the base metric's best path is also best under the avoidances when it avoids by itself
      if (path && (metric === base || !usesAvoided(this.pack, path.edges, metric.spec.avoid))) return { path, usedHierarchy: true };
    }
    const path = metric.exactSearch().route(sourceSeeds(metric, sources), targetSeeds(metric, targets), { excluded });
    return path ? { path, usedHierarchy: false } : undefined;
  }

  /** Alternatives by the penalty method: edges of routes found so far cost more, the next search avoids them where it can. */
  private *alternates(
    metric: MetricState,
    sources: DirectedCandidate[],
    targets: DirectedCandidate[],
    best: LegPath,
    options: AlternatesOptions,
    excluded: Uint8Array | undefined,
  ): Generator<PathResult> {
    const weight = metric.graph.costs.weight;
    const length = this.pack.sections['graph.edgeLength'];
    const extra = new Float64Array(this.pack.edgeCount);
    // shared length is measured against the routes given out (the best and accepted alternatives)
    const accepted = new Uint8Array(this.pack.edgeCount);
    const bestWeight = best.edges.reduce((sum, edge) => sum + weight[edge]!, 0);
    const penalise = (edges: number[]) => {
      for (const edge of edges) extra[edge] = extra[edge]! + weight[edge]! * ALTERNATE_PENALTY;
    };
    for (const edge of best.edges) accepted[edge] = 1;
    penalise(best.edges);
    let found = 0;
    for (let attempt = 0; attempt < options.count * 4 && found < options.count; attempt++) {
      const path = metric.exactSearch().route(sourceSeeds(metric, sources), targetSeeds(metric, targets), { excluded, extra });
      if (!path) return;
      const total = path.edges.reduce((sum, edge) => sum + length[edge]!, 0);
      const shared = path.edges.reduce((sum, edge) => sum + (accepted[edge] ? length[edge]! : 0), 0);
      const realWeight = path.edges.reduce((sum, edge) => sum + weight[edge]!, 0);
      penalise(path.edges);
      if (total > 0 && shared / total <= options.maxSharedShare && realWeight <= bestWeight * options.maxStretch) {
        found++;
        for (const edge of path.edges) accepted[edge] = 1;
        yield path;
      }
    }
  }

  private toLeg(metric: MetricState, path: PathResult, sources: DirectedCandidate[], targets: DirectedCandidate[], from: RouteLocation, to: RouteLocation): LegPath {
    const first = path.edges[0]!;
    const last = path.edges[path.edges.length - 1]!;
    const source = sources.find((candidate) => candidate.edge === first) ?? sources[0]!;
    const target = targets.find((candidate) => candidate.edge === last) ?? targets[0]!;
    return buildLegPath(this.pack, metric.graph, path.edges, snappedLocation(from, source), snappedLocation(to, target));
  }
}

/**
 * Joins two searched parts at a through/via location into one leg. The second part starts where
 * the first ended; on the same edge (the usual case: no turning around there) that edge appears
 * once, carrying both shares.
 */
function joinParts(first: LegPath, second: LegPath): LegPath {
  const shared = first.edges[first.edges.length - 1] === second.edges[0] && Math.abs(first.destination.fraction - second.origin.fraction) < 1e-9;
  const skip = shared ? 1 : 0;
  const merged: LegPath = {
    edges: [...first.edges, ...second.edges.slice(skip)],
    edgeSeconds: [...first.edgeSeconds, ...second.edgeSeconds.slice(skip)],
    turnSeconds: [...first.turnSeconds, ...second.turnSeconds.slice(skip)],
    edgeMeters: [...first.edgeMeters, ...second.edgeMeters.slice(skip)],
    origin: first.origin,
    destination: second.destination,
  };
  const last = first.edges.length - 1;
  if (shared) {
    merged.edgeSeconds[last] = merged.edgeSeconds[last]! + second.edgeSeconds[0]!;
    merged.edgeMeters[last] = merged.edgeMeters[last]! + second.edgeMeters[0]!;
  }
  const costs = [first, second].map((part) => part as GuidanceLeg);
  if (costs[0]!.edgeCost && costs[1]!.edgeCost) {
    const edgeCost = [...costs[0]!.edgeCost, ...costs[1]!.edgeCost.slice(skip)];
    if (shared) edgeCost[last] = edgeCost[last]! + costs[1]!.edgeCost[0]!;
    Object.assign(merged, { edgeCost, turnCost: [...costs[0]!.turnCost!, ...costs[1]!.turnCost!.slice(skip)] });
  }
  return merged;
}

function sourceSeeds(metric: MetricState, candidates: DirectedCandidate[]): Seed[] {
  return candidates.map((candidate) => ({ node: candidate.edge, distance: (1 - candidate.fraction) * metric.graph.costs.weight[candidate.edge]! }));
}

function targetSeeds(metric: MetricState, candidates: DirectedCandidate[]): Seed[] {
  return candidates.map((candidate) => ({ node: candidate.edge, distance: -(1 - candidate.fraction) * metric.graph.costs.weight[candidate.edge]! }));
}

function usesAvoided(pack: MapPack, edges: number[], avoid: MetricSpec['avoid']): boolean {
  const mask = avoidedFlags(avoid);
  return edges.some((edge) => (pack.sections['graph.edgeFlags'][edge]! & mask) !== 0);
}

function snappedLocation(location: RouteLocation, candidate: DirectedCandidate): SnappedLocation {
  return {
    lat: location.lat,
    lon: location.lon,
    snappedLat: candidate.hit.lat,
    snappedLon: candidate.hit.lon,
    edge: candidate.edge,
    fraction: candidate.fraction,
    snapDistanceMeters: candidate.hit.distanceMeters,
    type: location.type ?? 'break',
    ...(location.name ? { name: location.name } : {}),
  };
}

