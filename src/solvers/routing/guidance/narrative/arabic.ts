/**
 * Arabic narrative in Modern Standard Arabic, written for Arabic speakers (not
 * a translation of the English sentences, and never mirrored: يمين is right,
 * يسار is left, as on the road). Imperatives address the driver in the
 * masculine singular, as Arabic navigation voices do. Numbers use Arabic-Indic
 * digits (see distance-phrases.ts); roundabout exits are ordinal words.
 */
import type { Cardinal } from '../geometry.js';
import { ManeuverType } from '../maneuver-types.js';
import { arabicDigits, distancePhrase } from './distance-phrases.js';
import { phraseKind, sideOfType, type PhraseKind } from './phrase-kinds.js';
import type { ManeuverPhrases, PhraseInput } from './phrase-input.js';

const ORDINALS = ['', 'الأول', 'الثاني', 'الثالث', 'الرابع', 'الخامس', 'السادس', 'السابع', 'الثامن', 'التاسع', 'العاشر'];

/** "المخرج الثاني", "المخرج رقم ١٢". */
export function arabicExit(count: number): string {
  return count >= 1 && count <= 10 ? `المخرج ${ORDINALS[count]}` : `المخرج رقم ${arabicDigits(String(count))}`;
}

const CARDINALS: Record<Cardinal, string> = {
  north: 'شمالًا',
  northeast: 'نحو الشمال الشرقي',
  east: 'شرقًا',
  southeast: 'نحو الجنوب الشرقي',
  south: 'جنوبًا',
  southwest: 'نحو الجنوب الغربي',
  west: 'غربًا',
  northwest: 'نحو الشمال الغربي',
};

const VERB = { drive: 'اتجه', pedestrian: 'امشِ', bicycle: 'سِر بالدراجة' } as const;
const MAX_TOWARD = 2;
/** The adverb (يمينًا / يسارًا) and the noun after a preposition (اليمين / اليسار). */
const ADVERB = { right: 'يمينًا', left: 'يسارًا' } as const;
const SIDE_NOUN = { right: 'اليمين', left: 'اليسار' } as const;

const names = (list: string[]): string => list.join(' / ');
const onto = (input: PhraseInput): string => (input.streetNames.length ? ` إلى ${names(input.streetNames)}` : '');
const toward = (input: PhraseInput): string => (input.toward.length ? ` باتجاه ${input.toward.slice(0, MAX_TOWARD).join('، ')}` : '');
/** "إلى X", "للبقاء على X", or nothing. */
const target = (input: PhraseInput): string => (input.streetNames.length && input.staysOnRoad ? ` للبقاء على ${names(input.streetNames)}` : onto(input));
const continueOn = (input: PhraseInput): string => (input.streetNames.length ? `تابع على ${names(input.streetNames)}` : 'تابع السير');

type Side = 'right' | 'left';

/** Each kind's sentence, without the final period. */
const SENTENCES: Record<Exclude<PhraseKind, 'arrive'>, (input: PhraseInput, side: Side) => string> = {
  depart: (input) => `${VERB[input.mode]} ${CARDINALS[input.cardinal]}${input.streetNames.length ? ` على ${names(input.streetNames)}` : ''}`,
  becomes: (input) => (input.previousNames.length && input.streetNames.length ? `يتحول ${names(input.previousNames)} إلى ${names(input.streetNames)}` : continueOn(input)),
  continue: continueOn,
  slight: (input, side) => `انحرف ${ADVERB[side]}${target(input)}`,
  turn: (input, side) => `انعطف ${ADVERB[side]}${target(input)}`,
  sharp: (input, side) => `انعطف ${ADVERB[side]} بحدة${target(input)}`,
  uturn: (input, side) => `استدر للخلف ${ADVERB[side]}${target(input)}`,
  rampStraight: (input) => `تابع مستقيمًا لتسلك المنحدر${toward(input) || onto(input)}`,
  ramp: (input, side) => `اسلك المنحدر على ${SIDE_NOUN[side]}${toward(input) || onto(input)}`,
  exit: (input, side) => `اسلك المخرج على ${SIDE_NOUN[side]}${toward(input) || onto(input)}`,
  keepStraight: (input) => `تابع مستقيمًا${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`,
  keep: (input, side) => `الزم ${SIDE_NOUN[side]}${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`,
  merge: (input) => (input.streetNames.length ? `اندمج في ${names(input.streetNames)}` : 'اندمج في حركة السير'),
  mergeSide: (input, side) => `اندمج ${ADVERB[side]}${input.streetNames.length ? ` في ${names(input.streetNames)}` : ''}`,
  roundaboutEnter: (input) => (input.roundaboutExitCount > 0 ? `عند الدوّار، اسلك ${arabicExit(input.roundaboutExitCount)}${onto(input)}` : 'ادخل الدوّار'),
  roundaboutExit: (input) => `اخرج من الدوّار${onto(input)}`,
  ferry: (input) => (input.streetNames.length ? `استقل العبّارة ${names(input.streetNames)}` : 'استقل العبّارة'),
};

function arrival(input: PhraseInput, sided: boolean): ManeuverPhrases {
  const place = input.locationName ?? 'وجهتك';
  const side = SIDE_NOUN[sideOfType(input.type)];
  const instruction = sided ? `${place} على ${side}.` : `لقد وصلت إلى ${place}.`;
  const future = sided ? `ستجد ${place} على ${side}.` : `ستصل إلى ${place}.`;
  const alert = input.alertMeters ? `بعد ${distancePhrase(input.alertMeters, input.units, 'ar')}، ${future}` : future;
  return { instruction, alert, pre: instruction };
}

export function arabicPhrases(input: PhraseInput): ManeuverPhrases {
  const kind = phraseKind(input.type);
  if (kind === 'arrive') return arrival(input, input.type !== ManeuverType.destination);
  const sentence = SENTENCES[kind](input, sideOfType(input.type));
  const instruction = `${sentence}.`;
  const alert = input.alertMeters ? `بعد ${distancePhrase(input.alertMeters, input.units, 'ar')}، ${sentence}.` : instruction;
  // Inside a roundabout the exit maneuver follows at once: nothing to continue on.
  if (kind === 'roundaboutEnter') return { instruction, alert, pre: instruction };
  const distance = distancePhrase(input.lengthMeters, input.units, 'ar');
  const post = input.streetNames.length ? `تابع على ${names(input.streetNames)} لمسافة ${distance}.` : `تابع لمسافة ${distance}.`;
  return { instruction, alert, pre: instruction, post };
}
