/**
 * The one costing vocabulary (Valhalla's names): every request schema, actor
 * record, solver profile and travel matrix speaks it. Each endpoint family
 * serves a subset of the engine's profiles; the subsets are named here, next to
 * the whole, so that a profile added to the engine is a decision per family
 * rather than a sixth list kept in step by hand.
 */

/** The costing profiles of the routing engine (spec part 3 §4.1, `GET /routing/profiles`). */
export const COSTINGS = ['auto', 'pedestrian', 'bicycle', 'motor_scooter', 'wheelchair', 'bus', 'taxi', 'truck'] as const;
export type Costing = (typeof COSTINGS)[number];

/** The profiles a navigation route may use (part 3 §4.2, `POST /navigation/sessions`). */
export const NAVIGATION_COSTINGS = ['auto', 'pedestrian', 'bicycle', 'motor_scooter', 'truck', 'wheelchair'] as const satisfies readonly Costing[];
export type NavigationCosting = (typeof NAVIGATION_COSTINGS)[number];

/** The profiles `POST /routing/plan` offers (part 3 §4.1). */
export const PLAN_COSTINGS = ['auto', 'pedestrian', 'bicycle', 'motor_scooter', 'truck'] as const satisfies readonly Costing[];
export type PlanCosting = (typeof PLAN_COSTINGS)[number];

/** The profiles route optimization and live fleets plan with (part 3 §4.5): the vehicles a fleet has. */
export const FLEET_COSTINGS = ['auto', 'truck', 'bicycle', 'pedestrian'] as const satisfies readonly Costing[];
export type FleetCosting = (typeof FLEET_COSTINGS)[number];

/** How a route trades time against distance. */
export const PREFERENCES = ['fastest', 'shortest', 'balanced'] as const;
export type Preference = (typeof PREFERENCES)[number];

/** Road kinds a route may avoid. */
export const AVOIDABLE = ['tolls', 'highways', 'ferries', 'unpaved'] as const;
export type Avoidable = (typeof AVOIDABLE)[number];
