/** English (en-US) narrative: Valhalla's phrasing, one sentence per maneuver. */
import { ManeuverType } from '../maneuver-types.js';
import { distancePhrase } from './distance-phrases.js';
import { phraseKind, sideOfType, type PhraseKind } from './phrase-kinds.js';
import type { ManeuverPhrases, PhraseInput } from './phrase-input.js';

const VERB = { drive: 'Drive', pedestrian: 'Walk', bicycle: 'Bike' } as const;
const MAX_TOWARD = 2;
const VERBS = new Set(['Drive', 'Walk', 'Bike', 'Continue', 'Bear', 'Turn', 'Make', 'Stay', 'Take', 'Keep', 'Merge', 'Enter', 'Exit']);

export function englishOrdinal(value: number): string {
  const tens = value % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}

const names = (list: string[]): string => list.join('/');
const onto = (input: PhraseInput): string => (input.streetNames.length ? ` onto ${names(input.streetNames)}` : '');
const toward = (input: PhraseInput): string => (input.toward.length ? ` toward ${input.toward.slice(0, MAX_TOWARD).join('/')}` : '');
/** "onto X", "to stay on X", or nothing. */
const target = (input: PhraseInput): string => (input.streetNames.length && input.staysOnRoad ? ` to stay on ${names(input.streetNames)}` : onto(input));
const continueOn = (input: PhraseInput): string => `Continue${input.streetNames.length ? ` on ${names(input.streetNames)}` : ''}`;

/** Each kind's sentence, without the final period. */
const SENTENCES: Record<Exclude<PhraseKind, 'arrive'>, (input: PhraseInput, side: string) => string> = {
  depart: (input) => `${VERB[input.mode]} ${input.cardinal}${input.streetNames.length ? ` on ${names(input.streetNames)}` : ''}`,
  becomes: (input) => (input.previousNames.length && input.streetNames.length ? `${names(input.previousNames)} becomes ${names(input.streetNames)}` : continueOn(input)),
  continue: continueOn,
  slight: (input, side) => `Bear ${side}${target(input)}`,
  turn: (input, side) => `Turn ${side}${target(input)}`,
  sharp: (input, side) => `Make a sharp ${side}${target(input)}`,
  uturn: (input, side) => `Make a ${side} U-turn${target(input)}`,
  rampStraight: (input) => `Stay straight to take the ramp${toward(input) || onto(input)}`,
  ramp: (input, side) => `Take the ramp on the ${side}${toward(input) || onto(input)}`,
  exit: (input, side) => `Take the exit on the ${side}${toward(input) || onto(input)}`,
  keepStraight: (input) => `Keep straight${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`,
  keep: (input, side) => `Keep ${side}${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`,
  merge: (input) => `Merge${onto(input)}`,
  mergeSide: (input, side) => `Merge ${side}${onto(input)}`,
  roundaboutEnter: (input) =>
    input.roundaboutExitCount > 0 ? `Enter the roundabout and take the ${englishOrdinal(input.roundaboutExitCount)} exit${onto(input)}` : 'Enter the roundabout',
  roundaboutExit: (input) => `Exit the roundabout${onto(input)}`,
  ferry: (input) => {
    const street = names(input.streetNames);
    return street ? `Take the ${/ferry/i.test(street) ? street : `${street} ferry`}` : 'Take the ferry';
  },
};

function arrival(input: PhraseInput, sided: boolean): ManeuverPhrases {
  const place = input.locationName;
  const side = sideOfType(input.type);
  const instruction = sided ? `${place ?? 'Your destination'} is on the ${side}.` : `You have arrived at ${place ?? 'your destination'}.`;
  const future = sided ? `${place ?? 'Your destination'} will be on the ${side}.` : `You will arrive at ${place ?? 'your destination'}.`;
  const lowered = place ? future : future.charAt(0).toLowerCase() + future.slice(1);
  const alert = input.alertMeters ? `In ${distancePhrase(input.alertMeters, input.units, 'en')}, ${lowered}` : future;
  return { instruction, alert, pre: instruction };
}

export function englishPhrases(input: PhraseInput): ManeuverPhrases {
  const kind = phraseKind(input.type);
  if (kind === 'arrive') return arrival(input, input.type !== ManeuverType.destination);
  const sentence = SENTENCES[kind](input, sideOfType(input.type));
  const instruction = `${sentence}.`;
  // "In 200 meters, turn right …": lower-case our own verb, never a street name ("Al Tayaran Street becomes …").
  const space = sentence.indexOf(' ');
  const lowered = VERBS.has(space < 0 ? sentence : sentence.slice(0, space)) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
  const alert = input.alertMeters ? `In ${distancePhrase(input.alertMeters, input.units, 'en')}, ${lowered}.` : instruction;
  // Inside a roundabout the exit maneuver follows at once: nothing to continue on.
  if (kind === 'roundaboutEnter') return { instruction, alert, pre: instruction };
  const distance = distancePhrase(input.lengthMeters, input.units, 'en');
  const post = input.streetNames.length ? `Continue on ${names(input.streetNames)} for ${distance}.` : `Continue for ${distance}.`;
  return { instruction, alert, pre: instruction, post };
}
