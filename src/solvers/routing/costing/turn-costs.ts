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
/**
 * Search weight of one left turn when a vehicle avoids them ("no left turns"): about four minutes, so a
 * detour of three right turns round a block wins, yet a left turn that no sensible detour replaces (the
 * only way out of a street) is still taken rather than the route failing. Left = the guidance's left,
 * sharp-left and U-turn bins (40°–180° to the left; traffic drives on the right in the region).
 */
export const LEFT_TURN_WEIGHT = 240;
const LEFT_TURN_MIN_DEGREES = 40;

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
  avoidLeftTurns = false,
): TurnCost {
  let seconds = 0;
  let penalty = 0;
  const avoidingLeft = avoidLeftTurns && profile.motorized;
  if (profile.motorized) {
    if (nodeFlags & NodeFlag.trafficSignals) seconds += SIGNAL_SECONDS_VEHICLE;
    else if (nodeFlags & NodeFlag.stop) seconds += STOP_SECONDS;
    else if (nodeFlags & NodeFlag.giveWay) seconds += GIVE_WAY_SECONDS;
  } else if (nodeFlags & NodeFlag.trafficSignals) seconds += SIGNAL_SECONDS_PEOPLE;
  if (isUTurn) {
    seconds += profile.motorized ? U_TURN_SECONDS_VEHICLE : U_TURN_SECONDS_PEOPLE;
    if (profile.motorized && !deadEnd) penalty += U_TURN_WEIGHT_VEHICLE;
    if (avoidingLeft) penalty += LEFT_TURN_WEIGHT;
    return { seconds, penalty };
  }
  if (nodeDegree <= 2) return { seconds, penalty };
  const angle = turnAngle(inEndBearing, outStartBearing);
  const magnitude = Math.abs(angle);
  if (avoidingLeft && angle < 0 && magnitude >= LEFT_TURN_MIN_DEGREES) penalty += LEFT_TURN_WEIGHT;
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
