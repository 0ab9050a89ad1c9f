/**
 * The navigation view of a route (spec part 3 §2.1 "Navigation maneuver"):
 * what guidance hands to navigation, what a session stores and re-reads, and
 * what progress tracking matches positions against (`shape`,
 * `cumulativeMeters`). Keep it stable: stored sessions hold it.
 */

/** Lanes of the road approaching a maneuver, left to right as tagged; `valid` marks those leading where the maneuver goes. */
export interface LaneInfo {
  roadName: string;
  laneCount: number;
  lanes: { indications: string[]; valid: boolean }[];
}

export interface NavigationManeuver {
  /** Position in the route's maneuver list (0-based, across legs). */
  index: number;
  type: number;
  instruction: string;
  verbalAlert: string;
  verbalPre: string;
  /** Empty for the arrival and for a roundabout entry (the exit maneuver follows at once). */
  verbalPost: string;
  streetNames: string[];
  /** Exit to take at a roundabout entry (1 = first), else null. */
  roundaboutExit: number | null;
  /** Signposted text of a ramp, exit, fork or merge ("toward …"), else null. */
  exitSign: string | null;
  /** Length of the maneuver (to the next one), metres. */
  distanceMeters: number;
  timeSeconds: number;
  /** Where the maneuver begins (the point of the shape at `beginShapeIndex`). */
  lat: number;
  lng: number;
  /** Metres from the route start to where the maneuver begins. */
  cumulativeMeters: number;
  /** Indexes into the route `shape` (legs joined). */
  beginShapeIndex: number;
  endShapeIndex: number;
  legIndex: number;
  /** With includeAttributes: the speed limit where the maneuver begins, null when unknown. */
  speedLimitKph?: number | null;
  /** With includeLanes: the lanes approaching the maneuver. */
  lanes?: LaneInfo;
}

export interface NavigationRoute {
  /** polyline6 of the whole route. */
  shape: string;
  maneuvers: NavigationManeuver[];
  distanceMeters: number;
  /** Travel time without live traffic, seconds. */
  etaSeconds: number;
}
