/** What the narrative templates need to know about one maneuver (language-neutral except the names). */
import type { Cardinal } from '../geometry.js';
import type { ManeuverTypeCode } from '../maneuver-types.js';
import type { DistanceUnits } from './distance-phrases.js';

export type TravelModeName = 'drive' | 'pedestrian' | 'bicycle';

export interface PhraseInput {
  type: ManeuverTypeCode;
  mode: TravelModeName;
  /** Names of the road the maneuver leads onto, in the narrative language (may be empty). */
  streetNames: string[];
  /** Names of the road before (for "X becomes Y"). */
  previousNames: string[];
  /** The turn keeps the road ("turn right to stay on X"). */
  staysOnRoad: boolean;
  /** Compass direction of travel (start, ferry exit). */
  cardinal: Cardinal;
  roundaboutExitCount: number;
  /** Signposted destinations ("toward …"). */
  toward: string[];
  /** Metres of this maneuver (what "continue for …" says). */
  lengthMeters: number;
  /** Metres before the maneuver at which its alert is spoken; the alert says "in …" when given. */
  alertMeters?: number;
  units: DistanceUnits;
  /** Destination name given by the caller (destination maneuvers). */
  locationName?: string;
}

/** The four texts of a maneuver. */
export interface ManeuverPhrases {
  instruction: string;
  alert: string;
  pre: string;
  /** Absent for the destination (nothing follows it). */
  post?: string;
}
