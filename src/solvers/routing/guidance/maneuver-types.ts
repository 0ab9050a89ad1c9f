/**
 * The 39 maneuver type codes, exactly Valhalla's `DirectionsLeg_Maneuver_Type`
 * numbering (kNone = 0 … kMergeLeft = 38), with the catalogue entry
 * `GET /routing/maneuver-types` serves: `{ code, name, icon, description }`.
 */

export const ManeuverType = {
  none: 0,
  start: 1,
  startRight: 2,
  startLeft: 3,
  destination: 4,
  destinationRight: 5,
  destinationLeft: 6,
  becomes: 7,
  continue: 8,
  slightRight: 9,
  right: 10,
  sharpRight: 11,
  uturnRight: 12,
  uturnLeft: 13,
  sharpLeft: 14,
  left: 15,
  slightLeft: 16,
  rampStraight: 17,
  rampRight: 18,
  rampLeft: 19,
  exitRight: 20,
  exitLeft: 21,
  stayStraight: 22,
  stayRight: 23,
  stayLeft: 24,
  merge: 25,
  roundaboutEnter: 26,
  roundaboutExit: 27,
  ferryEnter: 28,
  ferryExit: 29,
  transit: 30,
  transitTransfer: 31,
  transitRemainOn: 32,
  transitConnectionStart: 33,
  transitConnectionTransfer: 34,
  transitConnectionDestination: 35,
  postTransitConnectionDestination: 36,
  mergeRight: 37,
  mergeLeft: 38,
} as const;
export type ManeuverTypeCode = (typeof ManeuverType)[keyof typeof ManeuverType];

export const MANEUVER_ICONS = [
  'depart',
  'arrive',
  'straight',
  'slight-right',
  'right',
  'uturn',
  'left',
  'slight-left',
  'merge',
  'roundabout',
  'ferry',
  'transit',
] as const;
export type ManeuverIcon = (typeof MANEUVER_ICONS)[number];

export interface ManeuverTypeEntry {
  code: number;
  name: string;
  icon: ManeuverIcon;
  description: string;
}

const entry = (code: number, name: string, icon: ManeuverIcon, description: string): ManeuverTypeEntry => ({ code, name, icon, description });

/** The catalogue, ordered by code (index = code). */
export const MANEUVER_TYPES: readonly ManeuverTypeEntry[] = Object.freeze([
  entry(0, 'none', 'straight', 'No maneuver.'),
  entry(1, 'start', 'depart', 'Start of the route.'),
  entry(2, 'start-right', 'depart', 'Start of the route; the start is on the right side of the street.'),
  entry(3, 'start-left', 'depart', 'Start of the route; the start is on the left side of the street.'),
  entry(4, 'destination', 'arrive', 'Arrival at the destination.'),
  entry(5, 'destination-right', 'arrive', 'Arrival; the destination is on the right side of the street.'),
  entry(6, 'destination-left', 'arrive', 'Arrival; the destination is on the left side of the street.'),
  entry(7, 'becomes', 'straight', 'The road continues straight under another name.'),
  entry(8, 'continue', 'straight', 'Continue on the same road.'),
  entry(9, 'slight-right', 'slight-right', 'Bear slightly right.'),
  entry(10, 'right', 'right', 'Turn right.'),
  entry(11, 'sharp-right', 'right', 'Make a sharp right turn.'),
  entry(12, 'uturn-right', 'uturn', 'Make a U-turn to the right.'),
  entry(13, 'uturn-left', 'uturn', 'Make a U-turn to the left.'),
  entry(14, 'sharp-left', 'left', 'Make a sharp left turn.'),
  entry(15, 'left', 'left', 'Turn left.'),
  entry(16, 'slight-left', 'slight-left', 'Bear slightly left.'),
  entry(17, 'ramp-straight', 'straight', 'Take the ramp straight ahead.'),
  entry(18, 'ramp-right', 'slight-right', 'Take the ramp on the right.'),
  entry(19, 'ramp-left', 'slight-left', 'Take the ramp on the left.'),
  entry(20, 'exit-right', 'slight-right', 'Take the exit on the right.'),
  entry(21, 'exit-left', 'slight-left', 'Take the exit on the left.'),
  entry(22, 'stay-straight', 'straight', 'Keep straight at the fork.'),
  entry(23, 'stay-right', 'slight-right', 'Keep right at the fork.'),
  entry(24, 'stay-left', 'slight-left', 'Keep left at the fork.'),
  entry(25, 'merge', 'merge', 'Merge onto the road.'),
  entry(26, 'roundabout-enter', 'roundabout', 'Enter the roundabout and take the given exit.'),
  entry(27, 'roundabout-exit', 'roundabout', 'Exit the roundabout.'),
  entry(28, 'ferry-enter', 'ferry', 'Board the ferry.'),
  entry(29, 'ferry-exit', 'ferry', 'Leave the ferry.'),
  entry(30, 'transit', 'transit', 'Ride public transit.'),
  entry(31, 'transit-transfer', 'transit', 'Transfer to another transit line.'),
  entry(32, 'transit-remain-on', 'transit', 'Remain on the transit vehicle as its line changes.'),
  entry(33, 'transit-connection-start', 'transit', 'Walk into the transit station.'),
  entry(34, 'transit-connection-transfer', 'transit', 'Transfer within the transit station.'),
  entry(35, 'transit-connection-destination', 'transit', 'Leave the transit station.'),
  entry(36, 'post-transit-connection-destination', 'depart', 'Continue on foot after leaving the transit station.'),
  entry(37, 'merge-right', 'merge', 'Merge to the right onto the road.'),
  entry(38, 'merge-left', 'merge', 'Merge to the left onto the road.'),
]);

/** Types at which the navigator decides at a junction (right, sharp right, left, slight left), as the spec lists them. */
export const JUNCTION_WINDOW_TYPES: readonly number[] = Object.freeze([10, 11, 15, 16]);
/** Types that are not decisions (none, start, destination). */
export const DECISION_EXCLUDED_TYPES: readonly number[] = Object.freeze([0, 1, 4]);

/** The body of `GET /routing/maneuver-types` minus `provider` (plain data; the lead's route adds it). */
export function maneuverTypeCatalogue(): { types: ManeuverTypeEntry[]; junctionWindowTypes: number[]; decisionExcludedTypes: number[] } {
  return {
    types: MANEUVER_TYPES.map((type) => ({ ...type })),
    junctionWindowTypes: [...JUNCTION_WINDOW_TYPES],
    decisionExcludedTypes: [...DECISION_EXCLUDED_TYPES],
  };
}
