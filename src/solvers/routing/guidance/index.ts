/**
 * Guidance's public API (see docs/routing-guidance.md): what the route,
 * navigation and catalogue endpoints use. Everything else in this folder is
 * internal.
 */
export { buildTrip, distanceUnits, echoedLanguage } from './trip.js';
export type { GuidanceLeg, LegPathCosts, Trip, TripLeg, TripLocation, TripManeuver, TripOptions, TripSign, TripSummary } from './trip-types.js';
export { MAX_LANE_LOOKUPS } from './trip-types.js';
export { navigationManeuvers, navigationRoute } from './navigation-view.js';
export { DECISION_EXCLUDED_TYPES, JUNCTION_WINDOW_TYPES, MANEUVER_TYPES, ManeuverType, maneuverTypeCatalogue, type ManeuverTypeEntry } from './maneuver-types.js';
export { legSpeedLimits, type SpeedLimitStretch } from './speed-limits.js';
export { narrativeLanguage, wayName, type NarrativeLanguage } from './street-names.js';
export { unitMeters } from './leg-assembly.js';
/** Distances worded as the guidance words them, for the spoken texts of /navigation/speak. */
export { arabicQuantity, distancePhrase, type DistanceUnits, type Quantity } from './narrative/distance-phrases.js';
/** The route label and tip written from a trip (the worker labels the route answers it writes). */
export { routeLabels, SKIPPED_LABELS, type RouteLabels, type TripDigest } from './route-labels.js';
