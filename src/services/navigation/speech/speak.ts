/**
 * POST /navigation/speak (spec part 3 §4.2; request and response are ours, see
 * docs/navigation.md): guidance text made ready for a speech engine, as plain
 * normalized text and as SSML. No speech engine is configured in this
 * deployment, so no audio is produced and `audioUrl` is absent: the client
 * speaks the SSML or the text with its platform's engine.
 */
import { distancePhrase, type DistanceUnits } from '../../../solvers/routing/guidance/index.js';
import { ApiError } from '../../../shared/errors.js';
import { PROVIDER } from '../stateless-navigation.js';
import { detectLanguage, plainText } from './plain-text.js';
import { spokenArabic } from './spoken-arabic.js';
import { spokenEnglish } from './spoken-english.js';
import { ssmlDocument } from './ssml.js';

/** Which text of a navigation maneuver to speak. */
export type ManeuverCue = 'alert' | 'pre' | 'post' | 'instruction';

export interface SpeakManeuver {
  instruction?: string;
  verbalAlert?: string;
  verbalPre?: string;
  verbalPost?: string;
}

export interface SpeakInput {
  text?: string;
  maneuver?: SpeakManeuver;
  /** Default `pre` (what is said at the maneuver), falling back to the instruction. */
  cue?: ManeuverCue;
  /** When given, the speech announces the maneuver this far ahead ("In 200 meters, turn left …"). */
  distanceMeters?: number;
  units?: DistanceUnits;
  /** BCP 47 tag, English or Arabic; default: the language the text is written in. */
  language?: string;
}

export interface SpeakResult {
  provider: typeof PROVIDER;
  language: string;
  text: string;
  ssml: string;
}

const CUE_FIELDS: Record<ManeuverCue, keyof SpeakManeuver> = { alert: 'verbalAlert', pre: 'verbalPre', post: 'verbalPost', instruction: 'instruction' };

/** The raw text a request asks to speak: `text`, or the maneuver's cue (then its instruction). */
export function speechSource(input: Pick<SpeakInput, 'text' | 'maneuver' | 'cue'>): string {
  if (input.text !== undefined) return input.text;
  const maneuver = input.maneuver ?? {};
  return maneuver[CUE_FIELDS[input.cue ?? 'pre']] || maneuver.instruction || '';
}

/** `en-us` → `en-US`, `AR` → `ar`: the canonical case of a language tag. */
function canonicalTag(tag: string): string {
  const [language, ...rest] = tag.split('-');
  return [language!.toLowerCase(), ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part.toLowerCase()))].join('-');
}

function announced(text: string, meters: number, units: DistanceUnits, language: 'en' | 'ar'): string {
  const distance = distancePhrase(meters, units, language);
  if (language === 'ar') return `بعد ${distance}، ${text}`;
  // "Turn left …" becomes "In 200 meters, turn left …"; a name at the start keeps its capital
  const lowered = /^[A-Z][a-z]+\b/.test(text) && !/^(Al|El)\b/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
  return `In ${distance}, ${lowered}`;
}

export function speak(input: SpeakInput): SpeakResult {
  const plain = plainText(speechSource(input));
  if (!plain) {
    throw new ApiError('VALIDATION_ERROR', {
      message: [input.text !== undefined ? 'text: nothing left to speak once markup is removed' : 'maneuver: has no text to speak (instruction, verbalAlert, verbalPre or verbalPost)'],
    });
  }
  const tag = canonicalTag(input.language ?? (detectLanguage(plain) === 'ar' ? 'ar' : 'en-US'));
  const language = tag.startsWith('ar') ? 'ar' : 'en';
  const source = input.distanceMeters !== undefined && plain ? announced(plain, input.distanceMeters, input.units ?? 'kilometers', language) : plain;
  const text = language === 'ar' ? spokenArabic(source) : spokenEnglish(source);
  return { provider: PROVIDER, language: tag, text, ssml: ssmlDocument(text, tag) };
}
