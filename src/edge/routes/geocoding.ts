import { z } from 'zod';
import { GeocoderUnavailable, type AutocompleteAnswer, type ForwardOptions, type Geocoder } from '../../services/geocoding/geocoder.js';
import { parseLocales } from '../../services/geocoding/result-format.js';
import { jsonString } from '../../shared/json-text.js';
import { memoizedJson, sharedJsonBytes } from '../json-memo.js';
import { defineRoute, HttpReply, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../../domain/geo.js';
import { coordinatePair, queryBbox, queryLocale } from '../schemas/geo-query.js';
import { forwardQuery, forwardQueryCheck, type ForwardQuery } from '../schemas/forward-query.js';

const SEARCH = 'svc';
const GEOCODE = 'svc-geocode';
const route = { tags: ['geocoding'] };
const MAX_BATCH = 50;

/** Runs a geocoder call; an unavailable or failing geocoder answers 200 with `available: false, status: 502` (spec part 2 §4.2). */
function answer<T extends object>(provider: string, call: () => T, unavailable: object = {}): T | { provider: string; available: false; status: 502 } {
  try {
    return call();
  } catch (error) {
    if (error instanceof GeocoderUnavailable) return { provider, available: false, status: 502, ...unavailable };
    throw error;
  }
}

const bodyLocale = z.string().trim().max(100).optional();
const bodyBbox = z
  .union([z.string(), z.array(z.number()).length(4)])
  .optional()
  .transform((value, context) => {
    if (value === undefined) return undefined;
    const parsed = queryBbox.safeParse(Array.isArray(value) ? value.join(',') : value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });

/** A point of a reverse or address batch: `{ lat, lng }` or `{ lat, lon }`; undefined when unusable. */
export function batchPoint(point: unknown, anyFinite = false): { lat: number; lon: number } | undefined {
  if (!point || typeof point !== 'object') return undefined;
  const { lat, lng, lon } = point as Record<string, unknown>;
  const longitudeValue = lng ?? lon;
  if (lng !== undefined && lon !== undefined && lng !== lon) return undefined;
  if (anyFinite) {
    if (typeof lat !== 'number' || !Number.isFinite(lat) || typeof longitudeValue !== 'number' || !Number.isFinite(longitudeValue)) return undefined;
  } else if (!latitude.safeParse(lat).success || !longitude.safeParse(longitudeValue).success) return undefined;
  return { lat: lat as number, lon: longitudeValue as number };
}

export const batchPoints = z.array(z.unknown(), { error: 'must be an array of { lat, lng } points' }).min(1, 'must not be empty').max(MAX_BATCH, `at most ${MAX_BATCH} points`);

function forwardOptions(query: ForwardQuery): ForwardOptions {
  return { locales: parseLocales(query.locale), limit: query.limit, near: query.point, bbox: query.bbox };
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const AUTOCOMPLETE_HEAD = `{"provider":${JSON.stringify(GEOCODE)},"query":`;
const COMMA = Buffer.from(',');
const AUTOCOMPLETE_TAIL = Buffer.from(']}');

/**
 * `JSON.stringify({ provider, ...found })` of an autocomplete answer, as UTF-8. A kept answer (no bias point) is
 * serialized once; one made for a bias point is spliced from its suggestions' kept JSON bytes (the same suggestion
 * serves every point), so a moving point costs no serialization, and no UTF-8 encoding, of the suggestions again.
 */
export function autocompleteReply(found: AutocompleteAnswer, kept: boolean): HttpReply {
  if (kept) return memoizedJson(found, (value) => ({ provider: GEOCODE, ...value }));
  let head = AUTOCOMPLETE_HEAD + jsonString(found.query);
  if (found.normalizedQuery !== undefined) head += `,"normalizedQuery":${jsonString(found.normalizedQuery)}`;
  const suggestions = found.suggestions;
  const parts: Buffer[] = [Buffer.from(`${head},"suggestions":[`)];
  let length = parts[0]!.length + AUTOCOMPLETE_TAIL.length;
  for (let at = 0; at < suggestions.length; at++) {
    const part = sharedJsonBytes(suggestions[at]!);
    if (at) parts.push(COMMA);
    parts.push(part);
    length += part.length + (at ? 1 : 0);
  }
  parts.push(AUTOCOMPLETE_TAIL);
  return HttpReply.content(Buffer.concat(parts, length), JSON_CONTENT_TYPE);
}

/** Geocoding (spec part 2 §4.2, scope `geocode`): forward, autocomplete, reverse and their batch forms. */
export function geocodingRoutes(geocoder: Geocoder): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geocode/search',
      summary: 'Forward geocoding of streets, places, admin areas, addresses and buildings (Arabic, English, Arabizi)',
      query: forwardQuery(20, 50),
      // the geocoder keeps answers (and so the same array for a repeated call): its JSON is kept with it
      handler: ({ query }) => answer(SEARCH, () => memoizedJson(geocoder.search(query.q, forwardOptions(query)), (data) => ({ provider: SEARCH, available: true, data }))),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geocode/autocomplete',
      summary: 'Suggestions while typing (the last word may be unfinished); normalizedQuery when the input was rewritten',
      query: forwardQuery(8, 15),
      // asked on every keystroke: the schema's parse was ~10 % of a moving-bias request (forward-query.ts)
      queryCheck: forwardQueryCheck(8, 15),
      handler: ({ query }) =>
        // the geocoder keeps answers without a bias point whole (see Geocoder.autocomplete)
        answer(GEOCODE, () => autocompleteReply(geocoder.autocomplete(query.q, forwardOptions(query)), query.point === undefined), { query: query.q, suggestions: [] }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geocode/reverse',
      summary: 'Street or building at a point (zoom 18 detail); geography only, no business names',
      query: coordinatePair({ locale: queryLocale }, true),
      handler: ({ query }) =>
        answer(SEARCH, () => ({ provider: SEARCH, available: true, data: geocoder.reverse(query.point!.lat, query.point!.lon, parseLocales(query.locale)) ?? null })),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/geocode/batch',
      summary: `Top match for each of up to ${MAX_BATCH} queries`,
      body: z.object({
        queries: z.array(z.string().max(256, 'must be at most 256 characters'), { error: 'must be an array of strings' }).min(1, 'must not be empty').max(MAX_BATCH, `at most ${MAX_BATCH} queries`),
        locale: bodyLocale,
        bbox: bodyBbox,
      }),
      handler: ({ body }) =>
        answer(GEOCODE, () => {
          const results = geocoder.batch(body.queries, { locales: parseLocales(body.locale), limit: 1, bbox: body.bbox });
          return { provider: GEOCODE, count: results.length, found: results.filter((result) => result.found).length, results };
        }),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/geocode/reverse-batch',
      summary: `Reverse geocoding of up to ${MAX_BATCH} points; an unusable point gives found:false`,
      body: z.object({ points: batchPoints, locale: bodyLocale }),
      handler: ({ body }) =>
        answer(GEOCODE, () => {
          const locales = parseLocales(body.locale);
          const results = body.points.map((raw) => {
            const point = batchPoint(raw);
            const result = point && geocoder.reverse(point.lat, point.lon, locales);
            const echo = { lat: point?.lat ?? null, lng: point?.lon ?? null };
            if (!result) return { ...echo, found: false, displayName: null, type: null, address: null };
            return { ...echo, found: true, displayName: result.display_name, type: result.type, address: result.address };
          });
          return { provider: GEOCODE, count: results.length, found: results.filter((result) => result.found).length, results };
        }),
    }),
  ];
}
