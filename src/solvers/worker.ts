/**
 * The piscina entry: every named export is a task, called as
 * `pool.run(input, { name })`. Tasks are pure functions of their input and the
 * shared read-only data; they return TaskResult values and never throw on
 * purpose.
 */
import { workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { SharedDataSet } from './shared-data.js';
import { describeSharedData as describe } from './diagnostics/describe-shared-data.js';
import { MapPack } from '../datapack/map-pack.js';
import { fail, ok, type NoMapPack, type TaskResult } from './task-result.js';
import { contractMetricTask, nearestRoadTask, routeMatrixTask, routeSegmentsTask, routeAnswerTask, routeTripTask, warmRoutingEngine } from './routing/routing-tasks.js';
import { isochroneTask, mapMatchTask, tripTraversalsTask } from './routing/routing-analysis-tasks.js';
import { regionGlyphRangesTask, tileCoverageTask, vectorTileTask } from './tiles/tile-tasks.js';
import { overlayVectorTileTask } from './tiles/overlay-tile.js';
import { naturalEarthTileTask } from './raster/natural-earth.js';
import { staticMapTask } from './static-map/static-map-task.js';
import { solveVrp as runVrpSearch } from './vrp/solve.js';
import type { VrpProblem, VrpResult, VrpSearchOptions } from './vrp/model.js';
import { solveBinPack as runBinPack } from './binpack/solve.js';
import type { BinPackProblem, BinPackResult } from './binpack/model.js';
import { solveRoster as runRoster } from './roster/solve.js';
import type { RosterProblem, RosterResult } from './roster/model.js';
import { solveOrienteering as runOrienteering, type OrienteeringOptions, type OrienteeringProblem, type OrienteeringResult } from './orienteering/orienteering.js';

const shared: SharedDataSet = (workerData as { shared?: SharedDataSet } | undefined)?.shared ?? {};

export function describeSharedData(): ReturnType<typeof describe> {
  return describe(shared);
}

let mapPack: MapPack | undefined;

/** The map data pack over the shared memory, built once per worker (views only, no copy). */
function sharedMapPack(): MapPack | undefined {
  if (!mapPack && shared.mapPack) mapPack = new MapPack(shared.mapPack, 'shared map pack');
  return mapPack;
}

// piscina marks a worker ready only once this module has loaded: tasks meet a warm engine, never its build
warmRoutingEngine(sharedMapPack());

export function mapPackSummary(): TaskResult<{ source: string; nodes: number; edges: number; features: number }, NoMapPack> {
  const pack = sharedMapPack();
  if (!pack) return fail('no_map_pack');
  return ok({ source: pack.header.source.name, nodes: pack.nodeCount, edges: pack.edgeCount, features: pack.featureCount });
}

// ── routing ──
export function contractMetric(input: Parameters<typeof contractMetricTask>[1]): ReturnType<typeof contractMetricTask> {
  return contractMetricTask(sharedMapPack(), input);
}

export function routeTrip(input: Parameters<typeof routeTripTask>[1]): ReturnType<typeof routeTripTask> {
  return routeTripTask(sharedMapPack(), input);
}

/**
 * The route answer's bytes: their ArrayBuffer is transferred to the main thread, not copied. Piscina unwraps the
 * movable and posts the result with the buffer in the transfer list, so the caller sees the TaskResult itself.
 */
export function routeAnswer(input: Parameters<typeof routeAnswerTask>[1]): ReturnType<typeof routeAnswerTask> {
  const result = routeAnswerTask(sharedMapPack(), input);
  if (!result.ok) return result;
  return move({ [transferableSymbol]: result.value.body.buffer, [valueSymbol]: result } as unknown as Parameters<typeof move>[0]) as unknown as typeof result;
}

export function routeSegments(input: Parameters<typeof routeSegmentsTask>[1]): ReturnType<typeof routeSegmentsTask> {
  return routeSegmentsTask(sharedMapPack(), input);
}

export function routeMatrix(input: Parameters<typeof routeMatrixTask>[1]): ReturnType<typeof routeMatrixTask> {
  return routeMatrixTask(sharedMapPack(), input);
}

export function nearestRoad(input: Parameters<typeof nearestRoadTask>[1]): ReturnType<typeof nearestRoadTask> {
  return nearestRoadTask(sharedMapPack(), input);
}

// ── routing analysis: isochrones, map matching ──

export function isochrone(input: Parameters<typeof isochroneTask>[1]): ReturnType<typeof isochroneTask> {
  return isochroneTask(sharedMapPack(), input);
}

export function mapMatch(input: Parameters<typeof mapMatchTask>[1]): ReturnType<typeof mapMatchTask> {
  return mapMatchTask(sharedMapPack(), input);
}

export function tripTraversals(input: Parameters<typeof tripTraversalsTask>[1]): ReturnType<typeof tripTraversalsTask> {
  return tripTraversalsTask(sharedMapPack(), input);
}

// ── vector tiles ──

/** One vector tile of the map pack, encoded and compressed (Brotli, gzip). */
export function vectorTile(input: Parameters<typeof vectorTileTask>[1]): ReturnType<typeof vectorTileTask> {
  return vectorTileTask(sharedMapPack(), input);
}

/** A map overlay tile: features chosen on the main thread, encoded here (layer `svc`). */
export function overlayVectorTile(input: Parameters<typeof overlayVectorTileTask>[0]): ReturnType<typeof overlayVectorTileTask> {
  return overlayVectorTileTask(input);
}

export function tileCoverage(): ReturnType<typeof tileCoverageTask> {
  return tileCoverageTask(sharedMapPack());
}

/** Glyph ranges the labels within a bounding box need (offline manifests). */
export function regionGlyphRanges(input: Parameters<typeof regionGlyphRangesTask>[1]): ReturnType<typeof regionGlyphRangesTask> {
  return regionGlyphRangesTask(sharedMapPack(), input);
}

// ── raster tiles ──

/** One Natural Earth raster tile (PNG or WebP) for the svc-natural-earth source and the terrain style. */
export function naturalEarthTile(input: Parameters<typeof naturalEarthTileTask>[0]): ReturnType<typeof naturalEarthTileTask> {
  return naturalEarthTileTask(input);
}

// ── static maps ──

/** One static map image (PNG) drawn from the tile source with a style's layers, paths and markers. */
export function staticMap(input: Parameters<typeof staticMapTask>[1]): ReturnType<typeof staticMapTask> {
  return staticMapTask(sharedMapPack(), input);
}

// --- Optimization (route optimization, bin packing, rostering) ---

/** One seeded VRP search (the service runs several in parallel and keeps the best). */
export function solveVrp(input: { problem: VrpProblem; options: VrpSearchOptions }): TaskResult<VrpResult> {
  return ok(runVrpSearch(input.problem, input.options));
}

/** Exact bin packing (proven minimal bin count within the node budget). */
export function solveBinPack(input: BinPackProblem): TaskResult<BinPackResult> {
  return ok(runBinPack(input));
}

/** Driver rostering minimizing the busiest driver's load (max-flow, exact). */
export function solveRoster(input: RosterProblem): TaskResult<RosterResult> {
  return ok(runRoster(input));
}

/** An automatic itinerary's stops: the most valuable tour within the time budget (orienteering). */
export function solveOrienteering(input: { problem: OrienteeringProblem; options?: OrienteeringOptions }): TaskResult<OrienteeringResult> {
  return ok(runOrienteering(input.problem, input.options));
}
