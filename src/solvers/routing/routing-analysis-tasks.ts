/**
 * The routing-analysis tasks a solver worker runs (isochrones, map matching),
 * on the worker's routing engine over the shared pack.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type NoMapPack, type TaskResult } from '../task-result.js';
import { computeIsochrone, type IsochroneOutcome, type IsochroneRequest, type IsochroneResult } from './isochrone/isochrone.js';
import { matchTrace, type MapMatchOutcome, type MapMatchRequest, type MapMatchResult } from './map-matching/map-matcher.js';
import { workerEngine } from './routing-tasks.js';
import { tripTraversals, type TripTraversalRequest, type TripTraversals } from './traffic/trip-traversals.js';

export function isochroneTask(pack: MapPack | undefined, input: IsochroneRequest): TaskResult<IsochroneResult, NoMapPack | Extract<IsochroneOutcome, { ok: false }>> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const outcome = computeIsochrone(routing, input);
  if (!outcome.ok) return outcome;
  return ok(outcome.result);
}

export function mapMatchTask(pack: MapPack | undefined, input: MapMatchRequest): TaskResult<MapMatchResult, NoMapPack | Extract<MapMatchOutcome, { ok: false }>> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  const outcome = matchTrace(routing, input);
  if (!outcome.ok) return outcome;
  return ok(outcome.result);
}

/** A contributed trip map-matched and timed per segment (traffic intake). */
export function tripTraversalsTask(pack: MapPack | undefined, input: TripTraversalRequest): TaskResult<TripTraversals, NoMapPack> {
  const routing = workerEngine(pack);
  if (!routing) return fail('no_map_pack');
  return ok(tripTraversals(routing, input));
}
