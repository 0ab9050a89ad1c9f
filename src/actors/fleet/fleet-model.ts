/**
 * The fleet actor's own bounds and plan comparison. The fleet record it holds
 * and persists is domain vocabulary (src/domain/fleet.ts).
 */


/** Bounds of a fleet (400 VALIDATION_ERROR beyond them). */
export const FLEET_LIMITS = {
  maxVehicles: 50,
  /** Stops waiting to be served at one time: each re-plan solves over all of them. */
  maxPendingStops: 300,
  /** Stops a fleet keeps, served and cancelled included (its day's history). */
  maxStops: 2_000,
  maxStopsPerMessage: 100,
  maxEventsPerCall: 100,
  maxIdLength: 64,
} as const;

/** What changed between two consecutive plans. */
export interface PlanDiff {
  /** Stops in this plan's routes that no route of the previous plan had. */
  added: string[];
  /** Stops of the previous plan's routes that no route of this plan has (completed, cancelled or now unassigned). */
  removed: string[];
  /** Stops served by another vehicle than in the previous plan. */
  moved: { stopId: string; fromVehicleId: string; toVehicleId: string }[];
  /** Vehicles whose pending stops or their order changed. */
  changedVehicleIds: string[];
}
