/**
 * Guidance's public API (see docs/routing-guidance.md): what the route,
 * navigation and catalogue endpoints use. Everything else in this folder is
 * internal.
 */
export { buildTrip, distanceUnits, echoedLanguage } from './trip.js';
export type { GuidanceLeg, LegPathCosts, Trip, TripLeg, TripLocation, TripManeuver, TripOptions, TripSign, TripSummary } from './trip-types.js';
export { MAX_LANE_LOOKUPS } from './trip-types.js';
export { navigationManeuvers, navigationRoute, type NavigationManeuver, type NavigationRoute } from './navigation-view.js';
export { DECISION_EXCLUDED_TYPES, JUNCTION_WINDOW_TYPES, MANEUVER_TYPES, ManeuverType, maneuverTypeCatalogue, type ManeuverTypeEntry } from './maneuver-types.js';
export { legSpeedLimits, type SpeedLimitStretch } from './speed-limits.js';
export type { LaneInfo } from './lanes.js';
export { narrativeLanguage, type NarrativeLanguage } from './street-names.js';
