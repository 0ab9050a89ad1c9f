/** English (en-US) narrative: Valhalla's phrasing, one sentence per maneuver. */
import { ManeuverType as T } from '../maneuver-types.js';
import { distancePhrase } from './distance-phrases.js';
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
function target(input: PhraseInput): string {
  if (!input.streetNames.length) return '';
  return input.staysOnRoad ? ` to stay on ${names(input.streetNames)}` : onto(input);
}

function side(type: number): 'right' | 'left' {
  return [T.slightLeft, T.left, T.sharpLeft, T.uturnLeft, T.rampLeft, T.exitLeft, T.stayLeft, T.mergeLeft].includes(type as never) ? 'left' : 'right';
}

/** The action, without the final period, capitalised. */
function action(input: PhraseInput): string {
  const { type } = input;
  const street = names(input.streetNames);
  switch (type) {
    case T.start:
    case T.startRight:
    case T.startLeft:
    case T.ferryExit:
      return `${VERB[input.mode]} ${input.cardinal}${street ? ` on ${street}` : ''}`;
    case T.becomes:
      return input.previousNames.length && street ? `${names(input.previousNames)} becomes ${street}` : `Continue${street ? ` on ${street}` : ''}`;
    case T.continue:
      return `Continue${street ? ` on ${street}` : ''}`;
    case T.slightRight:
    case T.slightLeft:
      return `Bear ${side(type)}${target(input)}`;
    case T.right:
    case T.left:
      return `Turn ${side(type)}${target(input)}`;
    case T.sharpRight:
    case T.sharpLeft:
      return `Make a sharp ${side(type)}${target(input)}`;
    case T.uturnRight:
    case T.uturnLeft:
      return `Make a ${side(type)} U-turn${target(input)}`;
    case T.rampStraight:
      return `Stay straight to take the ramp${toward(input) || onto(input)}`;
    case T.rampRight:
    case T.rampLeft:
      return `Take the ramp on the ${side(type)}${toward(input) || onto(input)}`;
    case T.exitRight:
    case T.exitLeft:
      return `Take the exit on the ${side(type)}${toward(input) || onto(input)}`;
    case T.stayStraight:
    case T.stayRight:
    case T.stayLeft:
      return `Keep ${type === T.stayStraight ? 'straight' : side(type)}${input.staysOnRoad ? target(input) : toward(input) || onto(input)}`;
    case T.merge:
      return `Merge${onto(input)}`;
    case T.mergeRight:
    case T.mergeLeft:
      return `Merge ${side(type)}${onto(input)}`;
    case T.roundaboutEnter:
      return input.roundaboutExitCount > 0 ? `Enter the roundabout and take the ${englishOrdinal(input.roundaboutExitCount)} exit${onto(input)}` : 'Enter the roundabout';
    case T.roundaboutExit:
      return `Exit the roundabout${onto(input)}`;
    case T.ferryEnter:
      return street ? `Take the ${/ferry/i.test(street) ? street : `${street} ferry`}` : 'Take the ferry';
    default:
      return `Continue${street ? ` on ${street}` : ''}`;
  }
}

function destination(input: PhraseInput): ManeuverPhrases {
  const place = input.locationName;
  const sideWord = input.type === T.destinationRight ? 'right' : input.type === T.destinationLeft ? 'left' : undefined;
  const instruction = sideWord ? `${place ?? 'Your destination'} is on the ${sideWord}.` : `You have arrived at ${place ?? 'your destination'}.`;
  const future = sideWord ? `${place ?? 'Your destination'} will be on the ${sideWord}.` : `You will arrive at ${place ?? 'your destination'}.`;
  const alert = input.alertMeters ? `In ${distancePhrase(input.alertMeters, input.units, 'en')}, ${future.charAt(0).toLowerCase()}${future.slice(1)}` : future;
  return { instruction, alert, pre: instruction };
}

export function englishPhrases(input: PhraseInput): ManeuverPhrases {
  if (input.type === T.destination || input.type === T.destinationRight || input.type === T.destinationLeft) return destination(input);
  const sentence = action(input);
  const instruction = `${sentence}.`;
  // "In 200 meters, turn right …": lower-case our own verb, never a street name ("Al Tayaran Street becomes …").
  const lowered = VERBS.has(sentence.split(' ')[0]!) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
  const alert = input.alertMeters ? `In ${distancePhrase(input.alertMeters, input.units, 'en')}, ${lowered}.` : instruction;
  const distance = distancePhrase(input.lengthMeters, input.units, 'en');
  const street = names(input.streetNames);
  const post = street ? `Continue on ${street} for ${distance}.` : `Continue for ${distance}.`;
  // Inside a roundabout the exit maneuver follows at once: nothing to continue on.
  if (input.type === T.roundaboutEnter) return { instruction, alert, pre: instruction };
  return { instruction, alert, pre: instruction, post };
}
