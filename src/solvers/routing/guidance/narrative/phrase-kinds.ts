/**
 * The maneuver types grouped by the sentence they need, shared by every
 * language's templates (each language maps a kind to its own sentence).
 */
import { ManeuverType as T } from '../maneuver-types.js';

export type PhraseKind =
  | 'depart'
  | 'becomes'
  | 'continue'
  | 'slight'
  | 'turn'
  | 'sharp'
  | 'uturn'
  | 'rampStraight'
  | 'ramp'
  | 'exit'
  | 'keepStraight'
  | 'keep'
  | 'merge'
  | 'mergeSide'
  | 'roundaboutEnter'
  | 'roundaboutExit'
  | 'ferry'
  | 'arrive';

const KINDS: Partial<Record<number, PhraseKind>> = {
  [T.start]: 'depart',
  [T.startRight]: 'depart',
  [T.startLeft]: 'depart',
  [T.ferryExit]: 'depart',
  [T.destination]: 'arrive',
  [T.destinationRight]: 'arrive',
  [T.destinationLeft]: 'arrive',
  [T.becomes]: 'becomes',
  [T.continue]: 'continue',
  [T.slightRight]: 'slight',
  [T.slightLeft]: 'slight',
  [T.right]: 'turn',
  [T.left]: 'turn',
  [T.sharpRight]: 'sharp',
  [T.sharpLeft]: 'sharp',
  [T.uturnRight]: 'uturn',
  [T.uturnLeft]: 'uturn',
  [T.rampStraight]: 'rampStraight',
  [T.rampRight]: 'ramp',
  [T.rampLeft]: 'ramp',
  [T.exitRight]: 'exit',
  [T.exitLeft]: 'exit',
  [T.stayStraight]: 'keepStraight',
  [T.stayRight]: 'keep',
  [T.stayLeft]: 'keep',
  [T.merge]: 'merge',
  [T.mergeRight]: 'mergeSide',
  [T.mergeLeft]: 'mergeSide',
  [T.roundaboutEnter]: 'roundaboutEnter',
  [T.roundaboutExit]: 'roundaboutExit',
  [T.ferryEnter]: 'ferry',
};

/** The sentence a type needs; types guidance never builds (none, transit) read as "continue". */
export function phraseKind(type: number): PhraseKind {
  return KINDS[type] ?? 'continue';
}

const RIGHT_TYPES = new Set<number>([T.slightRight, T.right, T.sharpRight, T.uturnRight, T.rampRight, T.exitRight, T.stayRight, T.mergeRight, T.destinationRight]);

/** The side a sided type goes to. */
export function sideOfType(type: number): 'right' | 'left' {
  return RIGHT_TYPES.has(type) ? 'right' : 'left';
}
