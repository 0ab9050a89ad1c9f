/**
 * The query of forward geocoding and autocomplete: its schema (the documentation, and the judge of every refusal)
 * and a hand-written check of the same query for the hot path.
 *
 * Why two: autocomplete is asked on every keystroke with a moving bias point, and the schema's parse (an object of
 * seven fields with transforms, pipes and a refinement) was ~10 % of that request's server CPU. The check accepts
 * exactly what the schema accepts and gives exactly its value; whatever it does not accept outright (a repeated,
 * blank, malformed or out-of-range field, a lone `lat`) it hands to the schema, so every 400 and its wording stay
 * the schema's. `forward-query.test.ts` compares the two on random query strings.
 */
import { latitude, longitude } from '../../domain/geo.js';
import { coordinatePair, queryBbox, queryLimit, queryLocale, queryText, readBbox, type QueryBbox } from './geo-query.js';

/** What the forward query gives a handler. */
export interface ForwardQuery {
  q: string;
  locale?: string;
  limit: number;
  bbox?: QueryBbox;
  point: { lat: number; lon: number } | undefined;
}

/** Raw query fields as the pipeline decodes them: a repeated name is an array. */
type RawQuery = Readonly<Record<string, string | string[]>>;

/** The schema: text, language, limit (`fallback` when absent, capped at `cap`), bias point, bbox. */
export function forwardQuery(fallback: number, cap: number) {
  return coordinatePair({ q: queryText, locale: queryLocale, limit: queryLimit(fallback, cap), bbox: queryBbox }, false);
}

const MAX_TEXT_CHARS = 256;
const MAX_LOCALE_CHARS = 100;
const [MIN_LATITUDE, MAX_LATITUDE] = rangeOf(latitude);
const [MIN_LONGITUDE, MAX_LONGITUDE] = rangeOf(longitude);

/** The bounds of a `z.number().min().max()` schema, read from it so the check cannot drift from the schema. */
function rangeOf(schema: { minValue: number | null; maxValue: number | null }): [number, number] {
  return [schema.minValue ?? -Infinity, schema.maxValue ?? Infinity];
}

/** A query-string number as `queryNumber` reads it (trimmed, not blank, finite), else undefined. */
function numberOf(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 0) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * The check for `forwardQuery(fallback, cap)`: the schema's value for a query it accepts, or undefined to let the
 * schema decide. Fields other than the seven it knows are ignored, as the schema strips them.
 */
export function forwardQueryCheck(fallback: number, cap: number): (raw: RawQuery) => ForwardQuery | undefined {
  return (raw) => {
    const { q, locale, limit, bbox, lat, lon, lng } = raw;
    if (typeof q !== 'string') return undefined;
    const text = q.trim();
    if (text.length === 0 || text.length > MAX_TEXT_CHARS) return undefined;
    let localeText: string | undefined;
    if (locale !== undefined) {
      if (typeof locale !== 'string') return undefined;
      localeText = locale.trim();
      if (localeText.length > MAX_LOCALE_CHARS) return undefined;
    }
    let count = fallback;
    if (limit !== undefined) {
      const number = typeof limit === 'string' ? numberOf(limit) : undefined;
      if (number === undefined || !Number.isSafeInteger(number) || number < 1) return undefined;
      count = Math.min(number, cap);
    }
    let box: QueryBbox | undefined;
    if (bbox !== undefined) {
      const read = typeof bbox === 'string' ? readBbox(bbox) : undefined;
      if (read === undefined || typeof read === 'string') return undefined;
      box = read;
    }
    let point: ForwardQuery['point'];
    if (lat !== undefined || lon !== undefined || lng !== undefined) {
      const latitudeValue = coordinateOf(lat, MIN_LATITUDE, MAX_LATITUDE);
      const lonValue = coordinateOf(lon, MIN_LONGITUDE, MAX_LONGITUDE);
      const lngValue = coordinateOf(lng, MIN_LONGITUDE, MAX_LONGITUDE);
      // a bad or missing half of the pair, or lon and lng disagreeing: the schema words the refusal
      if (latitudeValue == null || lonValue === null || lngValue === null) return undefined;
      if (lonValue !== undefined && lngValue !== undefined && lonValue !== lngValue) return undefined;
      const longitudeValue = lonValue ?? lngValue;
      if (longitudeValue === undefined) return undefined;
      point = { lat: latitudeValue, lon: longitudeValue };
    }
    // the schema's key order and presence: optional fields only when given, `point` always
    if (box === undefined) return localeText === undefined ? { q: text, limit: count, point } : { q: text, locale: localeText, limit: count, point };
    return localeText === undefined ? { q: text, limit: count, bbox: box, point } : { q: text, locale: localeText, limit: count, bbox: box, point };
  };
}

/** A coordinate field: its number, undefined when absent, null when the schema would refuse it. */
function coordinateOf(value: string | string[] | undefined, min: number, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  const number = numberOf(value);
  return number === undefined || number < min || number > max ? null : number;
}
