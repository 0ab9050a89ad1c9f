/**
 * The routing-analysis tasks a solver worker runs (isochrones, map matching),
 * on the worker's routing engine over the shared pack.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type TaskResult } from '../task-result.js';
import { computeIsochrone, type IsochroneRequest, type IsochroneResult } from './isochrone/isochrone.js';
import { matchTrace, type MapMatchRequest, type MapMatchResult } from './map-matching/map-matcher.js';
import { workerEngine } from './routing-tasks.js';

export function isochroneTask(pack: MapPack | undefined, input: IsochroneRequest): TaskResult<IsochroneResult> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const outcome = computeIsochrone(routing, input);
  if (!outcome.ok) return fail(outcome.code, { cutoffMeters: outcome.cutoffMeters });
  return ok(outcome.result);
}

export function mapMatchTask(pack: MapPack | undefined, input: MapMatchRequest): TaskResult<MapMatchResult> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const outcome = matchTrace(routing, input);
  if (!outcome.ok) return fail(outcome.code, { searchRadiusMeters: outcome.searchRadiusMeters });
  return ok(outcome.result);
}
