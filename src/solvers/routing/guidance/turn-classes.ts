/**
 * Turn degrees to maneuver types, with Valhalla's bins (maneuversbuilder's
 * simple directional types): continue within 15° of straight, slight 16–39°,
 * turn 40–119°, sharp 120–159°, U-turn 160–200° each side of straight on.
 */
import { ManeuverType, type ManeuverTypeCode } from './maneuver-types.js';

/** Degrees from straight within which a change of road is "straight on" (becomes / continue / merge). */
export const STRAIGHT_DEVIATION = 30;

/**
 * @param uturnSide for a turn made of several pieces (a median crossing, a U-turn slip lane), the side
 *   the traveller actually turned to; a U-turn's side is otherwise read from the degree.
 */
export function turnType(degree: number, uturnSide?: 'left' | 'right'): ManeuverTypeCode {
  if (degree > 344 || degree < 16) return ManeuverType.continue;
  if (degree < 40) return ManeuverType.slightRight;
  if (degree < 120) return ManeuverType.right;
  if (degree < 160) return ManeuverType.sharpRight;
  if (degree <= 200) return uturnSide ? (uturnSide === 'left' ? ManeuverType.uturnLeft : ManeuverType.uturnRight) : uturnType(degree);
  if (degree < 240) return ManeuverType.sharpLeft;
  if (degree < 321) return ManeuverType.left;
  return ManeuverType.slightLeft;
}

/**
 * U-turns: a reversal that bends right (160–177°) is a right U-turn, anything else a left U-turn,
 * as traffic drives on the right in the region (and a dead-end reversal is made to the left).
 */
export function uturnType(degree: number): ManeuverTypeCode {
  return degree >= 160 && degree < 177 ? ManeuverType.uturnRight : ManeuverType.uturnLeft;
}

/** Right half (1..179) vs left half (181..359); straight and straight back count as neither. */
export function isUturnDegree(degree: number): boolean {
  return degree >= 160 && degree <= 200;
}

export function sideOfDegree(degree: number): 'right' | 'left' | 'straight' {
  if (degree > 344 || degree < 16) return 'straight';
  return degree < 180 ? 'right' : 'left';
}

export function rampType(degree: number): ManeuverTypeCode {
  const side = sideOfDegree(degree);
  return side === 'straight' ? ManeuverType.rampStraight : side === 'right' ? ManeuverType.rampRight : ManeuverType.rampLeft;
}

export function exitType(degree: number): ManeuverTypeCode {
  return degree < 180 ? ManeuverType.exitRight : ManeuverType.exitLeft;
}

/** Joining a highway from a ramp on its right means moving left into traffic: merge left. */
export function mergeType(degree: number): ManeuverTypeCode {
  const side = sideOfDegree(degree);
  return side === 'straight' ? ManeuverType.merge : side === 'left' ? ManeuverType.mergeLeft : ManeuverType.mergeRight;
}

/** Signed degree: negative to the left, positive to the right, -180..180. */
export function signedDegree(degree: number): number {
  return degree > 180 ? degree - 360 : degree;
}

/** Keep left / right / straight at a fork, from where the taken branch lies among the forward branches. */
export function forkType(taken: number, others: number[]): ManeuverTypeCode {
  const mine = signedDegree(taken);
  const leftOfMe = others.some((other) => signedDegree(other) < mine);
  const rightOfMe = others.some((other) => signedDegree(other) > mine);
  if (leftOfMe && rightOfMe) return ManeuverType.stayStraight;
  return leftOfMe ? ManeuverType.stayRight : ManeuverType.stayLeft;
}

const TURN_TYPES = new Set<number>([
  ManeuverType.slightRight,
  ManeuverType.right,
  ManeuverType.sharpRight,
  ManeuverType.uturnRight,
  ManeuverType.uturnLeft,
  ManeuverType.sharpLeft,
  ManeuverType.left,
  ManeuverType.slightLeft,
]);

export function isTurnType(type: number): boolean {
  return TURN_TYPES.has(type);
}
