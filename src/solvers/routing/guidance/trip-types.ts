/**
 * The trip guidance produces, field for field Valhalla's `trip` object
 * (https://valhalla.github.io/valhalla/api/turn-by-turn/api-reference/#outputs-of-a-route),
 * plus `lanes` and `speed_limit` on maneuvers when asked for.
 */
import type { LegPath } from '../leg-path.js';
import type { LaneInfo } from '../../../domain/navigation-route.js';
import type { DistanceUnits } from './narrative/distance-phrases.js';
import type { TravelModeName } from './narrative/phrase-input.js';
import type { Costing } from '../../../domain/costing.js';

export interface TripOptions {
  /** BCP 47 narrative language: `ar*` gives Arabic, anything else English. Default `en-US`. */
  language?: string;
  /** `kilometers` (default) or `miles`; `km` and `mi` are accepted too. */
  units?: DistanceUnits | 'km' | 'mi';
  /** The costing the legs were searched with (travel mode, which roads count at junctions). Default `auto`. */
  costing?: Costing;
  /** Attach `lanes` (from `turn:lanes`) to decision maneuvers, at most {@link MAX_LANE_LOOKUPS} per trip. */
  includeLanes?: boolean;
  /** Attach `speed_limit` (km/h, null when unknown) to every maneuver. */
  includeAttributes?: boolean;
}

/** Lane lookups per trip (the spec's bound on `includeLanes`). */
export const MAX_LANE_LOOKUPS = 40;

/**
 * Optional per-edge costs the search may hand over with a leg (an extension of the
 * `LegPath` contract; when absent, a maneuver's `cost` is its time in seconds).
 */
export interface LegPathCosts {
  edgeCost?: number[];
  turnCost?: number[];
}

export type GuidanceLeg = LegPath & LegPathCosts;

export interface TripSign {
  exit_number_elements?: { text: string }[];
  exit_branch_elements?: { text: string }[];
  exit_toward_elements?: { text: string }[];
  exit_name_elements?: { text: string }[];
}

export interface TripManeuver {
  type: number;
  instruction: string;
  verbal_transition_alert_instruction: string;
  verbal_pre_transition_instruction: string;
  verbal_post_transition_instruction?: string;
  /** True when `verbal_pre_transition_instruction` also announces the next maneuver (this one is short). */
  verbal_multi_cue?: true;
  street_names?: string[];
  begin_street_names?: string[];
  /** Seconds, 3 decimals. */
  time: number;
  /** In the trip's units, 3 decimals. */
  length: number;
  cost: number;
  begin_shape_index: number;
  end_shape_index: number;
  /** Present (true) only when some part of the maneuver is a toll road, as Valhalla writes it. */
  toll?: true;
  highway?: true;
  ferry?: true;
  rough?: true;
  roundabout_exit_count?: number;
  sign?: TripSign;
  travel_mode: TravelModeName;
  travel_type: string;
  lanes?: LaneInfo;
  /** km/h of the road the maneuver starts on; null when not tagged (only with includeAttributes). */
  speed_limit?: number | null;
}

export interface TripSummary {
  has_time_restrictions: boolean;
  has_toll: boolean;
  has_highway: boolean;
  has_ferry: boolean;
  min_lat: number;
  min_lon: number;
  max_lat: number;
  max_lon: number;
  /** Seconds, 3 decimals. */
  time: number;
  /** In the trip's units, 3 decimals. */
  length: number;
  cost: number;
}

export interface TripLeg {
  maneuvers: TripManeuver[];
  summary: TripSummary;
  /** Encoded polyline, precision 6. */
  shape: string;
}

export interface TripLocation {
  type: 'break' | 'through' | 'via' | 'break_through';
  lat: number;
  lon: number;
  side_of_street?: 'left' | 'right';
  original_index: number;
  name?: string;
}

export interface Trip {
  locations: TripLocation[];
  legs: TripLeg[];
  summary: TripSummary;
  status_message: 'Found route between points';
  status: 0;
  units: DistanceUnits;
  language: string;
}
