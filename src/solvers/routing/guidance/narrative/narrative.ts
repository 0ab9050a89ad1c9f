/** Picks the narrative language's templates, and when a maneuver's alert is spoken. */
import type { NarrativeLanguage } from '../street-names.js';
import { arabicPhrases } from './arabic.js';
import { englishPhrases } from './english.js';
import type { ManeuverPhrases, PhraseInput, TravelModeName } from './phrase-input.js';

export function maneuverPhrases(language: NarrativeLanguage, input: PhraseInput): ManeuverPhrases {
  return language === 'ar' ? arabicPhrases(input) : englishPhrases(input);
}

/** How far ahead of a maneuver its alert is meant to be spoken, by mode (highways: further). */
export const ALERT_LEAD_METERS = { drive: 400, driveHighway: 1000, bicycle: 150, pedestrian: 50 } as const;
/** Below this, the approach is too short for an "in … meters" alert: the alert is the bare instruction. */
export const MIN_ALERT_METERS = 25;

/**
 * The distance the alert says ("In 400 meters, …"): the mode's lead distance, or the whole
 * approach when the previous maneuver is shorter; undefined when the approach is too short.
 */
export function alertDistance(mode: TravelModeName, onHighway: boolean, approachMeters: number): number | undefined {
  const lead = mode === 'drive' ? (onHighway ? ALERT_LEAD_METERS.driveHighway : ALERT_LEAD_METERS.drive) : ALERT_LEAD_METERS[mode];
  const meters = Math.min(lead, approachMeters);
  return meters >= MIN_ALERT_METERS ? meters : undefined;
}

/** A maneuver shorter than this (seconds) has the next one announced with it, as Valhalla's verbal multi-cue. */
export const MULTI_CUE_SECONDS = 13;

/**
 * "Turn right onto X. Then, in 50 meters, turn left onto Y." / "انعطف يمينًا إلى X. ثم بعد ٥٠ مترًا، انعطف يسارًا إلى Y."
 * `nextAlert` is the next maneuver's alert, which already says the distance.
 */
export function multiCue(language: NarrativeLanguage, pre: string, nextAlert: string): string {
  if (language === 'ar') return `${pre} ثم ${nextAlert}`;
  const lowered = /^(In|You|Your|Continue|Turn|Bear|Make|Stay|Take|Keep|Merge|Enter|Exit|Drive|Walk|Bike) /.test(nextAlert) ? nextAlert.charAt(0).toLowerCase() + nextAlert.slice(1) : nextAlert;
  return `${pre} Then${lowered.startsWith('in ') ? ',' : ''} ${lowered}`;
}
