/**
 * Request schemas of /search, /search/suggestions and /search/events (spec part 2 §4.3; docs/places.md
 * "Search"). Query values arrive as strings; a repeated parameter is refused; every refusal names the
 * field and what would be accepted (400 VALIDATION_ERROR).
 */
import { z } from 'zod';
import { FALSY, MAX_RADIUS_KM, TRUTHY, number, queryAt, queryLanguage, queryNear, single, strictBoolean, wholeNumber } from '../places/place-queries.js';
import { PLACE_CATEGORIES, isCategorySlug } from '../places/place-taxonomy.js';

export const MAX_SEARCH_CATEGORIES = 10;
export const DEFAULT_SEARCH_LIMIT = 20;
export const DEFAULT_TYPEAHEAD_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;
/** Deepest ranked row a page may reach (page × limit): search ranks at most this many candidates. */
export const MAX_SEARCH_WINDOW = 400;
export const MAX_QUERY_CHARS = 256;
export const SEARCH_SORTS = ['relevance', 'distance', 'rating', 'popularity'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** `semantic`: `on` (also true|1|yes) or `off` (also false|0|no); blank is off. */
const semanticSwitch = single.optional().transform((value, context): boolean => {
  const lowered = value?.trim().toLowerCase() ?? '';
  if (lowered === '' || FALSY.has(lowered)) return false;
  if (TRUTHY.has(lowered)) return true;
  context.addIssue({ code: 'custom', message: 'must be on or off' });
  return z.NEVER;
});

const categoryList = single.transform((value, context) => {
  const slugs = [...new Set(value.split(',').map((slug) => slug.trim()).filter(Boolean))];
  const given = value.split(',').filter((slug) => slug.trim()).length;
  if (given > MAX_SEARCH_CATEGORIES) {
    context.addIssue({ code: 'custom', message: `at most ${MAX_SEARCH_CATEGORIES} category slugs (comma-separated); ${given} given` });
    return z.NEVER;
  }
  const unknown = slugs.filter((slug) => !isCategorySlug(slug));
  if (unknown.length) {
    context.addIssue({ code: 'custom', message: `unknown category ${unknown.map((slug) => `"${slug.slice(0, 60)}"`).join(', ')}: GET /places/categories lists the ${PLACE_CATEGORIES.length} slugs` });
    return z.NEVER;
  }
  return slugs;
});

const priceLevels = single.transform((value, context) => {
  const parts = value.split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => /^[1-4]$/.test(part))) {
    context.addIssue({ code: 'custom', message: 'must be price levels 1 to 4, one or several comma-separated (e.g. 1,2)' });
    return z.NEVER;
  }
  return [...new Set(parts.map(Number))].sort();
});

const searchSort = single
  .trim()
  .optional()
  .transform((value, context): SearchSort => {
    if (value === undefined || value === '') return 'relevance';
    const lowered = value.toLowerCase();
    if ((SEARCH_SORTS as readonly string[]).includes(lowered)) return lowered as SearchSort;
    context.addIssue({ code: 'custom', message: `must be one of ${SEARCH_SORTS.join(', ')}` });
    return z.NEVER;
  });

export const searchQuery = z
  .object({
    q: single.max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`).optional(),
    mode: single
      .trim()
      .optional()
      .transform((value, context): 'full' | 'typeahead' => {
        const lowered = value?.toLowerCase() ?? '';
        if (lowered === '' || lowered === 'full') return 'full';
        if (lowered === 'typeahead') return 'typeahead';
        context.addIssue({ code: 'custom', message: 'must be full or typeahead' });
        return z.NEVER;
      }),
    semantic: semanticSwitch,
    category: categoryList.optional(),
    openNow: strictBoolean,
    near: queryNear.optional(),
    origin: queryNear.optional(),
    radiusKm: number()
      .pipe(z.number().gt(0, 'must be more than 0').max(MAX_RADIUS_KM, `must be at most ${MAX_RADIUS_KM}`))
      .optional(),
    sort: searchSort,
    price: priceLevels.optional(),
    page: wholeNumber(1, MAX_SEARCH_WINDOW, `must be a whole number from 1 to ${MAX_SEARCH_WINDOW}`).optional().transform((value) => value ?? 1),
    limit: wholeNumber(1, Number.MAX_SAFE_INTEGER, `must be a whole number from 1 (larger values give ${MAX_SEARCH_LIMIT})`)
      .optional()
      .transform((value) => (value === undefined ? undefined : Math.min(value, MAX_SEARCH_LIMIT))),
    at: queryAt,
    locale: queryLanguage,
  })
  .superRefine((query, context) => {
    if (query.near && query.origin && (query.near.lat !== query.origin.lat || query.near.lng !== query.origin.lng)) {
      context.addIssue({ code: 'custom', path: ['origin'], message: 'is another name for near: give one of them, or the same point in both' });
    }
    const origin = query.near ?? query.origin;
    if (query.radiusKm !== undefined && !origin) context.addIssue({ code: 'custom', path: ['radiusKm'], message: 'limits the distance from near: give near=lat,lng too' });
    if (query.sort === 'distance' && !origin) context.addIssue({ code: 'custom', path: ['sort'], message: 'distance needs an origin: give near=lat,lng' });
    const limit = query.limit ?? (query.mode === 'typeahead' ? DEFAULT_TYPEAHEAD_LIMIT : DEFAULT_SEARCH_LIMIT);
    if (query.page * limit > MAX_SEARCH_WINDOW) context.addIssue({ code: 'custom', path: ['page'], message: `page × limit may reach at most row ${MAX_SEARCH_WINDOW}: refine the query instead` });
  })
  .transform(({ near, origin, limit, ...query }) => ({
    ...query,
    q: query.q?.trim() ?? '',
    origin: near ?? origin,
    limit: limit ?? (query.mode === 'typeahead' ? DEFAULT_TYPEAHEAD_LIMIT : DEFAULT_SEARCH_LIMIT),
  }));
export type SearchQuery = z.infer<typeof searchQuery>;

export const DEFAULT_SUGGESTION_LIMIT = 10;
export const MAX_SUGGESTION_LIMIT = 20;

export const suggestionsQuery = z
  .object({
    q: single.max(100, 'must be at most 100 characters').optional(),
    locale: queryLanguage,
    near: queryNear.optional(),
    limit: wholeNumber(1, Number.MAX_SAFE_INTEGER, `must be a whole number from 1 (larger values give ${MAX_SUGGESTION_LIMIT})`)
      .optional()
      .transform((value) => Math.min(value ?? DEFAULT_SUGGESTION_LIMIT, MAX_SUGGESTION_LIMIT)),
  })
  .transform((query) => ({ ...query, q: query.q?.trim() ?? '' }));
export type SuggestionsQuery = z.infer<typeof suggestionsQuery>;

/** POST /search/events: a search made or a result clicked; nothing about the caller is taken. */
export const searchEventBody = z
  .object({
    type: z.enum(['search', 'click'], { error: 'must be search or click' }),
    query: z.string().trim().min(1, 'must not be blank').max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters`).optional(),
    placeSlug: z.string().trim().min(1).max(120, 'must be at most 120 characters').optional(),
    position: z.number().int('must be a whole number').min(0).max(MAX_SEARCH_WINDOW).optional(),
    resultCount: z.number().int('must be a whole number').min(0).max(1_000_000).optional(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.type === 'click' && !body.placeSlug) context.addIssue({ code: 'custom', path: ['placeSlug'], message: 'a click names the place clicked' });
    if (body.type === 'search' && !body.query) context.addIssue({ code: 'custom', path: ['query'], message: 'a search event carries the query searched' });
  });
export type SearchEventBody = z.infer<typeof searchEventBody>;
