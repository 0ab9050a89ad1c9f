/**
 * Arabic narrative in Modern Standard Arabic, written for Arabic speakers (not
 * a translation of the English sentences, and never mirrored: يمين is right,
 * يسار is left, as on the road). Imperatives address the driver in the
 * masculine singular, as Arabic navigation voices do. Numbers use Arabic-Indic
 * digits (see distance-phrases.ts); roundabout exits are ordinal words.
 */
import { ManeuverType as T } from '../maneuver-types.js';
import type { Cardinal } from '../geometry.js';
import { arabicDigits, distancePhrase } from './distance-phrases.js';
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

const names = (list: string[]): string => list.join(' / ');
const onto = (input: PhraseInput): string => (input.streetNames.length ? ` إلى ${names(input.streetNames)}` : '');
const toward = (input: PhraseInput): string => (input.toward.length ? ` باتجاه ${input.toward.slice(0, MAX_TOWARD).join('، ')}` : '');

/** "إلى X", "للبقاء على X", or nothing. */
function target(input: PhraseInput): string {
  if (!input.streetNames.length) return '';
  return input.staysOnRoad ? ` للبقاء على ${names(input.streetNames)}` : onto(input);
}

const RIGHT_TYPES = new Set<number>([T.slightRight, T.right, T.sharpRight, T.uturnRight, T.rampRight, T.exitRight, T.stayRight, T.mergeRight]);
/** The adverb (يمينًا / يسارًا) and the prepositional form (اليمين / اليسار). */
const adverb = (type: number): string => (RIGHT_TYPES.has(type) ? 'يمينًا' : 'يسارًا');
const sideNoun = (type: number): string => (RIGHT_TYPES.has(type) ? 'اليمين' : 'اليسار');

function action(input: PhraseInput): string {
  const { type } = input;
  const street = names(input.streetNames);
  switch (type) {
    case T.start:
    case T.startRight:
    case T.startLeft:
    case T.ferryExit:
      return `${VERB[input.mode]} ${CARDINALS[input.cardinal]}${street ? ` على ${street}` : ''}`;
    case T.becomes:
      return input.previousNames.length && street ? `يتحول ${names(input.previousNames)} إلى ${street}` : street ? `تابع على ${street}` : 'تابع السير';
    case T.continue:
      return street ? `تابع على ${street}` : 'تابع السير';
    case T.slightRight:
    case T.slightLeft:
      return `انحرف ${adverb(type)}${target(input)}`;
    case T.right:
    case T.left:
      return `انعطف ${adverb(type)}${target(input)}`;
    case T.sharpRight:
    case T.sharpLeft:
      return `انعطف ${adverb(type)} بحدة${target(input)}`;
    case T.uturnRight:
    case T.uturnLeft:
      return `استدر للخلف ${adverb(type)}${target(input)}`;
    case T.rampStraight:
      return `تابع مستقيمًا لتسلك المنحدر${toward(input) || onto(input)}`;
    case T.rampRight:
    case T.rampLeft:
      return `اسلك المنحدر على ${sideNoun(type)}${toward(input) || onto(input)}`;
    case T.exitRight:
    case T.exitLeft:
      return `اسلك المخرج على ${sideNoun(type)}${toward(input) || onto(input)}`;
    case T.stayStraight:
      return `تابع مستقيمًا${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`;
    case T.stayRight:
    case T.stayLeft:
      return `الزم ${sideNoun(type)}${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`;
    case T.merge:
      return street ? `اندمج في ${street}` : 'اندمج في حركة السير';
    case T.mergeRight:
    case T.mergeLeft:
      return `اندمج ${adverb(type)}${street ? ` في ${street}` : ''}`;
    case T.roundaboutEnter:
      return input.roundaboutExitCount > 0 ? `عند الدوّار، اسلك ${arabicExit(input.roundaboutExitCount)}${onto(input)}` : 'ادخل الدوّار';
    case T.roundaboutExit:
      return `اخرج من الدوّار${onto(input)}`;
    case T.ferryEnter:
      return street ? `استقل العبّارة ${street}` : 'استقل العبّارة';
    default:
      return street ? `تابع على ${street}` : 'تابع السير';
  }
}

function destination(input: PhraseInput): ManeuverPhrases {
  const place = input.locationName;
  const sideWord = input.type === T.destinationRight ? 'اليمين' : input.type === T.destinationLeft ? 'اليسار' : undefined;
  const instruction = sideWord ? `${place ?? 'وجهتك'} على ${sideWord}.` : `لقد وصلت إلى ${place ?? 'وجهتك'}.`;
  const future = sideWord ? `ستجد ${place ?? 'وجهتك'} على ${sideWord}.` : `ستصل إلى ${place ?? 'وجهتك'}.`;
  const alert = input.alertMeters ? `بعد ${distancePhrase(input.alertMeters, input.units, 'ar')}، ${future}` : future;
  return { instruction, alert, pre: instruction };
}

export function arabicPhrases(input: PhraseInput): ManeuverPhrases {
  if (input.type === T.destination || input.type === T.destinationRight || input.type === T.destinationLeft) return destination(input);
  const sentence = action(input);
  const instruction = `${sentence}.`;
  const alert = input.alertMeters ? `بعد ${distancePhrase(input.alertMeters, input.units, 'ar')}، ${sentence}.` : instruction;
  const distance = distancePhrase(input.lengthMeters, input.units, 'ar');
  const street = names(input.streetNames);
  const post = street ? `تابع على ${street} لمسافة ${distance}.` : `تابع لمسافة ${distance}.`;
  // Inside a roundabout the exit maneuver follows at once: nothing to continue on.
  if (input.type === T.roundaboutEnter) return { instruction, alert, pre: instruction };
  return { instruction, alert, pre: instruction, post };
}
