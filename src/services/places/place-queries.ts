/**
 * Request schemas of the place endpoints (spec part 2 §4.4; docs/places.md). Query values arrive as
 * strings; a repeated parameter is refused; every refusal names the field and what would be accepted.
 */
import { z } from 'zod';
import { CLAIM_STATUSES } from '../../domain/place.js';
import { queryInstant } from '../calendars/calendar-queries.js';
import { isAmenityGroupId, amenityGroupOf } from './place-amenities.js';
import { PLACE_CATEGORIES, isCategorySlug } from './place-taxonomy.js';

export const single = z.string({ error: 'must be given once' });
export const TRUTHY = new Set(['true', '1', 'yes', 'on']);
export const FALSY = new Set(['false', '0', 'no', 'off']);

/** Default and largest page size; deepest row a page may reach (page × limit). */
export const DEFAULT_PLACE_LIMIT = 50;
export const MAX_PLACE_LIMIT = 100;
export const MAX_PLACE_WINDOW = 10_000;
export const MAX_RADIUS_KM = 20_000;

export function number(message = 'must be a number') {
  return single.trim().transform((value, context) => {
    const parsed = value === '' ? Number.NaN : Number(value);
    if (Number.isFinite(parsed)) return parsed;
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

export function wholeNumber(min: number, max: number, message: string) {
  return single.trim().transform((value, context) => {
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed;
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

/** `sponsored`: truthy `true|1|yes|on`, falsy `false|0|no|off`; blank or anything else is no filter (spec §4.4). */
const lenientBoolean = single.optional().transform((value): boolean | undefined => {
  const lowered = value?.trim().toLowerCase() ?? '';
  return TRUTHY.has(lowered) ? true : FALSY.has(lowered) ? false : undefined;
});

/** A strict boolean (`openNow`): the same words; blank is false; anything else refused. */
export const strictBoolean = single.optional().transform((value, context): boolean => {
  const lowered = value?.trim().toLowerCase() ?? '';
  if (lowered === '' || FALSY.has(lowered)) return false;
  if (TRUTHY.has(lowered)) return true;
  context.addIssue({ code: 'custom', message: 'must be one of true, 1, yes, on, false, 0, no, off' });
  return z.NEVER;
});

/** `at`: an ISO 8601 instant with offset, to evaluate open state and holidays at (default now); as /holidays/today's. */
export const queryAt = queryInstant.optional();

/** `locale` (`ar`, `en`, or a list such as `ar,en`: the first supported wins). */
export const queryLanguage = single.trim().max(100).optional();

/** `near=lat,lng` */
export const queryNear = single.transform((value, context) => {
  const parts = value.split(',').map((part) => part.trim());
  const [lat, lng] = parts.map((part) => (part === '' ? Number.NaN : Number(part))) as [number, number];
  if (parts.length !== 2 || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    context.addIssue({ code: 'custom', message: 'must be lat,lng (two numbers)' });
    return z.NEVER;
  }
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) {
    context.addIssue({ code: 'custom', message: 'lat must lie within -90..90 and lng within -180..180' });
    return z.NEVER;
  }
  return { lat, lng };
});

const categorySlug = single.trim().transform((value, context) => {
  if (value.includes(',')) {
    context.addIssue({ code: 'custom', message: 'takes one category slug (GET /places/categories lists them)' });
    return z.NEVER;
  }
  if (!isCategorySlug(value)) {
    context.addIssue({ code: 'custom', message: `unknown category "${value.slice(0, 60)}": GET /places/categories lists the ${PLACE_CATEGORIES.length} slugs` });
    return z.NEVER;
  }
  return value;
});

const amenitySlugs = single.transform((value, context) => {
  const slugs = [...new Set(value.split(',').map((slug) => slug.trim()).filter(Boolean))];
  if (slugs.length > 20) {
    context.addIssue({ code: 'custom', message: 'at most 20 amenity slugs' });
    return z.NEVER;
  }
  const unknown = slugs.filter((slug) => !isAmenityGroupId(slug) && !(amenityGroupOf(slug) && (slug.startsWith('cuisine-') ? /^cuisine-[a-z0-9_]{1,40}$/.test(slug) : true)));
  if (unknown.length) {
    context.addIssue({ code: 'custom', message: `unknown amenity ${unknown.map((slug) => `"${slug.slice(0, 60)}"`).join(', ')}: GET /places/facets lists option and group slugs` });
    return z.NEVER;
  }
  return slugs;
});

export const PLACE_SORTS = ['relevance', 'rating', 'name', 'newest', 'oldest'] as const;

export const placesListQuery = z
  .object({
    q: single.trim().max(256, 'must be at most 256 characters').optional(),
    page: wholeNumber(1, MAX_PLACE_WINDOW, `must be a whole number from 1 to ${MAX_PLACE_WINDOW}`).optional().transform((value) => value ?? 1),
    limit: wholeNumber(1, Number.MAX_SAFE_INTEGER, `must be a whole number from 1 (larger values give ${MAX_PLACE_LIMIT})`)
      .optional()
      .transform((value) => Math.min(value ?? DEFAULT_PLACE_LIMIT, MAX_PLACE_LIMIT)),
    sponsored: lenientBoolean,
    category: categorySlug.optional(),
    amenities: amenitySlugs.optional(),
    openNow: strictBoolean,
    sort: single
      .trim()
      .optional()
      .transform((value, context) => {
        if (value === undefined || value === '') return 'relevance' as const;
        const lowered = value.toLowerCase();
        if ((PLACE_SORTS as readonly string[]).includes(lowered)) return lowered as (typeof PLACE_SORTS)[number];
        context.addIssue({ code: 'custom', message: `must be one of ${PLACE_SORTS.join(', ')}` });
        return z.NEVER;
      }),
    minRating: number()
      .pipe(z.number().min(0, 'must be from 0 to 5').max(5, 'must be from 0 to 5'))
      .optional(),
    near: queryNear.optional(),
    radiusKm: number()
      .pipe(z.number().gt(0, 'must be more than 0').max(MAX_RADIUS_KM, `must be at most ${MAX_RADIUS_KM}`))
      .optional(),
    at: queryAt,
    locale: queryLanguage,
  })
  .superRefine((query, context) => {
    if (query.radiusKm !== undefined && !query.near) context.addIssue({ code: 'custom', path: ['radiusKm'], message: 'limits the distance from near: give near=lat,lng too' });
    if (query.page * query.limit > MAX_PLACE_WINDOW) {
      context.addIssue({ code: 'custom', path: ['page'], message: `page × limit may reach at most row ${MAX_PLACE_WINDOW}: narrow the filters instead` });
    }
  });
export type PlacesListQuery = z.infer<typeof placesListQuery>;

/** A slug as the path carries it: lower-case words and digits joined by dashes (or an OSM element `way-123`). */
export const placeSlugParams = z.object({ slug: single.trim().min(1).max(120) });

export const placeDetailQuery = z.object({ at: queryAt, locale: queryLanguage });
export const placeThumbQuery = z.object({ slug: single.trim().min(1, 'is required').max(120), at: queryAt, locale: queryLanguage });
export const placeFacetsQuery = z.object({ q: single.trim().max(256, 'must be at most 256 characters').optional(), locale: queryLanguage });
export const placeCategoriesQuery = z.object({ locale: queryLanguage });

/** PATCH /admin/places/{slug}: the operator fields (spec part 2 §2.4 `sponsored`, §3 `claimStatus`). */
export const placeOperatorBody = z
  .object({
    sponsored: z.boolean().optional(),
    claimStatus: z.enum(CLAIM_STATUSES).optional(),
    /** Price level 1 (cheap) to 4 for the search `price` filter; null clears it (OSM has no tag for it). */
    priceLevel: z.number().int('must be a whole number').min(1, 'must be 1 to 4').max(4, 'must be 1 to 4').nullable().optional(),
  })
  .strict()
  .refine((body) => body.sponsored !== undefined || body.claimStatus !== undefined || body.priceLevel !== undefined, { message: 'give sponsored, claimStatus, priceLevel or several' });
export type PlaceOperatorBody = z.infer<typeof placeOperatorBody>;
