/**
 * The piscina entry: every named export is a task, called as
 * `pool.run(input, { name })`. Tasks are pure functions of their input and the
 * shared read-only data; they return TaskResult values and never throw on
 * purpose.
 */
import { workerData } from 'node:worker_threads';
import type { SharedDataSet } from './shared-data.js';
import { describeSharedData as describe } from './diagnostics/describe-shared-data.js';
import { MapPack } from '../datapack/map-pack.js';
import { fail, ok, type TaskResult } from './task-result.js';
import { contractMetricTask, routeMatrixTask, routePathsTask, routeTripTask } from './routing/routing-tasks.js';

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

export function mapPackSummary(): TaskResult<{ source: string; nodes: number; edges: number; features: number }> {
  const pack = sharedMapPack();
  if (!pack) return fail('no_map_pack');
  return ok({ source: pack.header.source.name, nodes: pack.nodeCount, edges: pack.edgeCount, features: pack.featureCount });
}

// ── routing ──
export function contractMetric(input: Parameters<typeof contractMetricTask>[1]): ReturnType<typeof contractMetricTask> {
  return contractMetricTask(sharedMapPack(), input);
}

export function routePaths(input: Parameters<typeof routePathsTask>[1]): ReturnType<typeof routePathsTask> {
  return routePathsTask(sharedMapPack(), input);
}

export function routeTrip(input: Parameters<typeof routeTripTask>[1]): ReturnType<typeof routeTripTask> {
  return routeTripTask(sharedMapPack(), input);
}

export function routeMatrix(input: Parameters<typeof routeMatrixTask>[1]): ReturnType<typeof routeMatrixTask> {
  return routeMatrixTask(sharedMapPack(), input);
}

// ── routing analysis: isochrones, map matching (import kept with its block for clean merges) ──
import { isochroneTask, mapMatchTask } from './routing/routing-analysis-tasks.js';

export function isochrone(input: Parameters<typeof isochroneTask>[1]): ReturnType<typeof isochroneTask> {
  return isochroneTask(sharedMapPack(), input);
}

export function mapMatch(input: Parameters<typeof mapMatchTask>[1]): ReturnType<typeof mapMatchTask> {
  return mapMatchTask(sharedMapPack(), input);
}
