/**
 * What a turn costs (seconds) for a profile: the angle at a real junction
 * (right-hand traffic, so crossing left costs more than turning right), the
 * node's control (signals, stop, give way) and U-turns. Bends of one road at a
 * node with two neighbours are not turns.
 */
import { NodeFlag } from '../../../datapack/pack-layout.js';
import { turnAngle } from './edge-bearings.js';
import type { Profile } from './profiles.js';
import type { Preference } from '../../../domain/costing.js';

/** Average wait at a signal-controlled junction (s), for vehicles and for people crossing. */
const SIGNAL_SECONDS_VEHICLE = 12;
const SIGNAL_SECONDS_PEOPLE = 5;
const STOP_SECONDS = 4;
const GIVE_WAY_SECONDS = 2;
/** A U-turn where the road continues: allowed but strongly discouraged for vehicles. */
const U_TURN_SECONDS_VEHICLE = 30;
const U_TURN_WEIGHT_VEHICLE = 600;
const U_TURN_SECONDS_PEOPLE = 3;

export interface TurnCost {
  seconds: number;
  /** Extra search weight beyond the seconds (discouraged, not forbidden, manoeuvres). */
  penalty: number;
}

/** The seconds of one turn and its added weight; `isUTurn` = leaving by the twin of the arriving edge. */
export function turnCost(
  profile: Profile,
  inEndBearing: number,
  outStartBearing: number,
  nodeFlags: number,
  nodeDegree: number,
  isUTurn: boolean,
  deadEnd: boolean,
): TurnCost {
  let seconds = 0;
  let penalty = 0;
  if (profile.motorized) {
    if (nodeFlags & NodeFlag.trafficSignals) seconds += SIGNAL_SECONDS_VEHICLE;
    else if (nodeFlags & NodeFlag.stop) seconds += STOP_SECONDS;
    else if (nodeFlags & NodeFlag.giveWay) seconds += GIVE_WAY_SECONDS;
  } else if (nodeFlags & NodeFlag.trafficSignals) seconds += SIGNAL_SECONDS_PEOPLE;
  if (isUTurn) {
    seconds += profile.motorized ? U_TURN_SECONDS_VEHICLE : U_TURN_SECONDS_PEOPLE;
    if (profile.motorized && !deadEnd) penalty += U_TURN_WEIGHT_VEHICLE;
    return { seconds, penalty };
  }
  if (nodeDegree <= 2) return { seconds, penalty };
  const angle = turnAngle(inEndBearing, outStartBearing);
  const magnitude = Math.abs(angle);
  if (magnitude < 25) return { seconds, penalty };
  if (!profile.motorized) return { seconds: seconds + (magnitude > 120 ? 2 : 1), penalty };
  if (magnitude < 60) seconds += 1.5;
  else if (angle > 0) seconds += magnitude > 140 ? 8 : 5;
  else seconds += magnitude > 140 ? 12 : 9;
  return { seconds, penalty };
}

/** How much of a turn's seconds the search weight counts, per preference. */
export function turnWeightShare(preference: Preference): number {
  return preference === 'fastest' ? 1 : preference === 'balanced' ? 0.75 : 0.2;
}
