/**
 * The AI helper endpoints (spec part 3 §4.7; docs/assistant.md "AI helpers"), all deterministic:
 * search understanding (the intent parser and the search concept index), route labels (the
 * router's own label generator over the trip of a routing envelope) and delivery constraints (free
 * text → the block POST /routing/plan takes, plus time windows, vehicle limits, turn and area rules).
 */
import { z } from 'zod';
import { AVOIDABLE, type Avoidable } from '../../domain/costing.js';
import { parseConstraintsText } from '../routing/plan-request.js';
import { routeLabels } from '../../solvers/routing/guidance/index.js';
import { CategoryWords, ConceptIndex } from '../search/concept-index.js';
import { tokensOf } from '../search/search-text.js';
import { analyseMessage, parseIntent } from './intent-parser.js';

const concepts = ConceptIndex.standard();
const categoryWords = new CategoryWords();

const URGENT = /\b(urgent|urgently|emergency|asap|right now|now|immediately|quick|quickly|hurry)\b|طوارئ|ضروري|بسرعه|حالا|فورا|الحين|هلق|دلوقتي|مستعجل/;
const MIN_RATING = /\b(?:rated|rating)\s*(?:above|over|at least|>=?)?\s*([1-5](?:\.\d)?)|([1-5](?:\.\d)?)\s*(?:stars?|\+ ?stars?)|تقييم\s*(?:فوق|اعلى من|اكثر من)?\s*([1-5])/;
const CHEAP = /\b(cheap|budget|affordable|inexpensive)\b|رخيص|رخيصه|اقتصادي/;
const PRICEY = /\b(expensive|fancy|luxury|upscale|fine dining)\b|فاخر|فخم|غالي/;

/** POST /ai/search-understanding: `content` is strict JSON (filters, category hints, locale, urgency). */
export function searchUnderstanding(query: string) {
  const analysed = analyseMessage(query);
  const intent = parseIntent(query);
  const analysis = concepts.analyze(tokensOf(query));
  const hints = new Map<string, number>(analysis.categories);
  for (const token of tokensOf(query)) for (const slug of categoryWords.categoriesOf(token)) hints.set(slug, Math.max(hints.get(slug) ?? 0, 1));
  const rating = MIN_RATING.exec(analysed.folded);
  const content = {
    query: query.trim(),
    intent: intent.action,
    filters: {
      openNow: analysis.openNow,
      nearby: analysis.nearby,
      minRating: rating ? Number(rating[1] ?? rating[2] ?? rating[3]) : null,
      price: CHEAP.test(analysed.folded) ? 'low' : PRICEY.test(analysed.folded) ? 'high' : null,
      amenities: [...analysis.amenities.keys()],
    },
    categoryHints: [...hints.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([slug]) => slug).slice(0, 5),
    locale: analysed.language,
    script: analysed.script,
    urgency: URGENT.test(analysed.folded) ? 'high' : 'normal',
  };
  return { model: 'svc-ai' as const, unavailable: false, purpose: 'search_understanding' as const, content: JSON.stringify(content) };
}

const tripSchema = z.object({
  language: z.string().max(20).default('en-US'),
  legs: z
    .array(
      z.object({
        maneuvers: z
          .array(z.object({ type: z.number(), length: z.number().nonnegative(), street_names: z.array(z.string().max(200)).max(20).optional() }))
          .min(1)
          .max(10_000),
      }),
    )
    .min(1)
    .max(25),
  summary: z.object({ has_toll: z.boolean().optional(), has_ferry: z.boolean().optional(), has_highway: z.boolean().optional() }).default({}),
});

/** POST /ai/route-labels: label and tip of the trip in a routing envelope; empty content and null parsed when the trip is unusable. */
export function routeLabelsOf(payload: Record<string, unknown>) {
  const data = payload.data as Record<string, unknown> | undefined;
  const candidate = (data && typeof data === 'object' ? data.trip : undefined) ?? payload.trip ?? payload;
  const trip = tripSchema.safeParse(candidate);
  if (!trip.success || payload.available === false) return { model: 'svc-ai' as const, unavailable: false, purpose: 'route_labels' as const, content: '', parsed: null };
  const labels = routeLabels({
    language: trip.data.language,
    legs: trip.data.legs,
    summary: { has_toll: trip.data.summary.has_toll ?? false, has_ferry: trip.data.summary.has_ferry ?? false, has_highway: trip.data.summary.has_highway ?? false },
  });
  return { model: 'svc-ai' as const, unavailable: false, purpose: 'route_labels' as const, content: JSON.stringify(labels.parsed), parsed: labels.parsed };
}

export interface TimeWindow {
  start: string | null;
  end: string | null;
}

const TIME = String.raw`(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|صباحا|الصبح|ص|مساء|المسا|م|ظهرا|العصر)?`;
const BETWEEN = new RegExp(String.raw`(?:between|from|بين|من)\s*(?:الساعه\s*)?${TIME}\s*(?:and|to|until|till|-|–|و|الى|إلى|لل|ل|حتى)\s*(?:الساعه\s*)?${TIME}`, 'g');
const RANGE = new RegExp(String.raw`(?<![\d.])${TIME}\s*[-–]\s*${TIME}`, 'g');
const AFTER = new RegExp(String.raw`(?:after|not before|بعد)\s*(?:الساعه\s*)?${TIME}`, 'g');
const BEFORE = new RegExp(String.raw`(?:before|by|no later than|قبل)\s*(?:الساعه\s*)?${TIME}`, 'g');

function clock(hourText: string, minuteText: string | undefined, half: string | undefined): string | null {
  let hour = Number(hourText);
  const minute = minuteText ? Number(minuteText) : 0;
  const pm = half && /^(pm|p\.m\.|مساء|المسا|م|العصر)$/.test(half);
  const am = half && /^(am|a\.m\.|صباحا|الصبح|ص)$/.test(half);
  if (pm && hour < 12) hour += 12;
  if (am && hour === 12) hour = 0;
  // a bare afternoon-ish hour ("between 2 and 5") in delivery talk means the afternoon
  if (!half && hour >= 1 && hour <= 6) hour += 12;
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const VEHICLE: { field: 'heightM' | 'weightT' | 'widthM' | 'lengthM'; patterns: RegExp[] }[] = [
  { field: 'heightM', patterns: [new RegExp(String.raw`(?:height|tall|clearance|ارتفاع|الارتفاع|طول الشاحنه)[^\d]{0,20}${NUMBER}\s*(?:m|meters?|metres?|م|متر)`), new RegExp(String.raw`${NUMBER}\s*(?:m|meters?|metres?|متر)\s*(?:high|tall|height)`)] },
  { field: 'weightT', patterns: [new RegExp(String.raw`${NUMBER}\s*(?:t|tons?|tonnes?|طن|اطنان)\b`), new RegExp(String.raw`(?:weight|weighs|وزن|الوزن)[^\d]{0,20}${NUMBER}`)] },
  { field: 'widthM', patterns: [new RegExp(String.raw`(?:width|wide|عرض|العرض)[^\d]{0,20}${NUMBER}`), new RegExp(String.raw`${NUMBER}\s*(?:m|meters?|metres?|متر)\s*wide`)] },
  { field: 'lengthM', patterns: [new RegExp(String.raw`(?:length|long|طول)[^\d]{0,20}${NUMBER}\s*(?:m|meters?|metres?|م|متر)`), new RegExp(String.raw`${NUMBER}\s*(?:m|meters?|metres?|متر)\s*long`)] },
];
const HAZMAT = /\b(hazmat|hazardous|dangerous goods|flammable)\b|مواد خطره|مواد قابله للاشتعال/;
const TRUCK = /\b(truck|trucks|lorry|hgv|semi|trailer)\b|شاحنه|شاحنات|تريلا|تريله|قلاب/;
const NO_LEFT_TURNS = /\b(no|avoid|without|never|minimi[sz]e)\s+(any\s+)?left(\s|-)?turns?\b|\bright turns only\b|\bno turning left\b|(بدون|تجنب|بلا|ممنوع|لا)\s*(ال)?(انعطاف|لف|دوران|لفات|انعطافات)?\s*(الي|لل|ل)?\s*(ال)?يسار/;
const CITY_CENTRE = /\b(avoid|no|without|skip|stay out of|not through|bypass)\s+(the\s+)?(city\s+)?(cent(re|er)|downtown|old town|old city)\b|(بدون|تجنب|بلا|دون|لا تمر|ما تمر)\s*(المرور\s*)?(ب|في|من)?\s*(وسط|قلب)\s*(ال)?(بلد|مدينه|البلد|المدينه)/;
/** What is left of a clause once its time window was taken: nothing to report as unparsed. */
const FILLER = /^(please|pls|the|a|deliver|delivery|deliveries|drop off|arrive|arrival|open|التوصيل|توصيل|الوصول|التسليم|لو سمحت|من فضلك)$/;
const SHORTEST = /\bshortest\b|اقصر/;
const FASTEST = /\bfastest\b|\bquickest\b|اسرع/;
const WALK = /\b(walking|on foot|walk)\b|مشي|على الاقدام/;
const BIKE = /\b(bike|bicycle|cycling)\b|دراجه|بسكليت/;

/** Lower case, Eastern digits, Arabic letter variants and marks folded; punctuation kept (times need their colon). */
function lightFold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[أإآ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/\s+/g, ' ');
}

/** The limits that were said, in the planner's `vehicle` shape (unsaid ones left to the truck defaults). */
function planVehicle(vehicle: { heightM: number | null; weightT: number | null; widthM: number | null; lengthM: number | null; hazmat: boolean }) {
  const limits: { heightM?: number; weightT?: number; widthM?: number; lengthM?: number; hazmat?: boolean } = {};
  for (const field of ['heightM', 'weightT', 'widthM', 'lengthM'] as const) if (vehicle[field] !== null && vehicle[field] > 0) limits[field] = vehicle[field];
  if (vehicle.hazmat) limits.hazmat = true;
  return limits;
}

/** POST /ai/constraints: free-text constraints read by rules (English and Arabic); what no rule understood comes back in `unparsed`. */
export function parseConstraints(text: string) {
  let rest = lightFold(text);
  // time windows first: their "and"/"و" would otherwise split the clause
  const timeWindows: TimeWindow[] = [];
  const take = (pattern: RegExp, build: (match: RegExpExecArray) => TimeWindow | null) => {
    rest = rest.replace(pattern, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const window = build(match);
      if (!window) return match[0];
      timeWindows.push(window);
      return ' ';
    });
  };
  take(BETWEEN, (m) => ((start, end) => (start && end ? { start, end } : null))(clock(m[1]!, m[2], m[3] ?? m[6]), clock(m[4]!, m[5], m[6])));
  take(RANGE, (m) => ((start, end) => (start && end ? { start, end } : null))(clock(m[1]!, m[2], m[3] ?? m[6]), clock(m[4]!, m[5], m[6])));
  take(AFTER, (m) => ((start) => (start ? { start, end: null } : null))(clock(m[1]!, m[2], m[3])));
  take(BEFORE, (m) => ((end) => (end ? { start: null, end } : null))(clock(m[1]!, m[2], m[3])));

  const avoid = new Set<Avoidable>();
  const vehicle: { heightM: number | null; weightT: number | null; widthM: number | null; lengthM: number | null; hazmat: boolean } = { heightM: null, weightT: null, widthM: null, lengthM: null, hazmat: false };
  let noLeftTurns = false;
  const avoidAreas: string[] = [];
  let costing: 'truck' | 'pedestrian' | 'bicycle' | undefined;
  let preference: 'shortest' | 'fastest' | undefined;
  const unparsed: string[] = [];
  const clauses = rest.split(/[;،؛\n]|\.(?!\d)|,\s*|\band\b|\bو(?=\s)|(?<=\s)و(?=[^\s]{2,}\s*(?:بدون|تجنب|بلا|دون|لا))/).map((clause) => clause.trim()).filter(Boolean);
  for (const clause of clauses) {
    let understood = false;
    for (const item of parseConstraintsText(clause).avoid) {
      avoid.add(item);
      understood = true;
    }
    for (const { field, patterns } of VEHICLE) {
      for (const pattern of patterns) {
        const found = pattern.exec(clause);
        if (found && vehicle[field] === null) {
          vehicle[field] = Number(found[1]);
          understood = true;
        }
      }
    }
    if (HAZMAT.test(clause)) (vehicle.hazmat = true), (understood = true);
    if (TRUCK.test(clause)) (costing = 'truck'), (understood = true);
    else if (WALK.test(clause)) (costing = costing ?? 'pedestrian'), (understood = true);
    else if (BIKE.test(clause)) (costing = costing ?? 'bicycle'), (understood = true);
    if (NO_LEFT_TURNS.test(clause)) (noLeftTurns = true), (understood = true);
    if (CITY_CENTRE.test(clause)) {
      if (!avoidAreas.includes('city_centre')) avoidAreas.push('city_centre');
      understood = true;
    }
    if (SHORTEST.test(clause)) (preference = 'shortest'), (understood = true);
    else if (FASTEST.test(clause)) (preference = 'fastest'), (understood = true);
    if (!understood && !FILLER.test(clause)) unparsed.push(clause);
  }
  const limited = vehicle.heightM !== null || vehicle.weightT !== null || vehicle.widthM !== null || vehicle.lengthM !== null || vehicle.hazmat;
  if (limited && !costing) costing = 'truck';
  const orderedAvoid = AVOIDABLE.filter((item) => avoid.has(item));
  return {
    model: 'svc-ai' as const,
    unavailable: false,
    purpose: 'constraints' as const,
    source: 'rules' as const,
    text,
    /** Fields a POST /routing/plan body takes as they are. */
    plan: {
      avoid: orderedAvoid,
      ...(costing ? { costing } : {}),
      ...(preference ? { preference } : {}),
      // the planner enforces these (docs/routing.md, "Routing constraints"); vehicle limits through the truck costing
      ...(limited && costing === 'truck' ? { vehicle: planVehicle(vehicle) } : {}),
      ...(noLeftTurns ? { noLeftTurns } : {}),
      ...(avoidAreas.length ? { avoidAreas } : {}),
      constraintsText: text,
    },
    constraints: { avoid: orderedAvoid, timeWindows, vehicle: limited ? vehicle : null, noLeftTurns, avoidAreas },
    unparsed,
  };
}
