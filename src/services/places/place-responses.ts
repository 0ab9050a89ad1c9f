/** Response schemas of the place endpoints, for the OpenAPI document (spec part 2 §2.4–2.6, §4.4). */
import { z } from 'zod';
import { photoSchema, questionSchema, reviewSchema } from './place-content-responses.js';

const nullableString = z.string().nullable();
const holiday = z.object({ name: z.string(), nameAr: z.string(), type: z.string(), affectsBusinessHours: z.boolean() }).nullable();
const openState = z.enum(['open', 'closing', 'closed']).nullable();
const lngLat = z.object({ lng: z.number(), lat: z.number() });

export const placeSchema = z.object({
  id: z.string().describe('uuid'),
  slug: z.string().describe('Stable URL slug, issued once'),
  nameEn: nullableString,
  nameAr: nullableString,
  nameTransliterated: z.object({ en: z.boolean(), ar: z.boolean() }).describe('Names transliterated from the other script rather than tagged in OSM'),
  name: nullableString.describe('The name in the caller language (locale, else Accept-Language)'),
  logoUrl: nullableString.describe('Relative site path (/uploads/...), null until a logo is uploaded'),
  imageUrl: nullableString,
  imageSource: z.enum(['logo', 'photo', 'street']).nullable(),
  imageWidth: z.number().nullable(),
  imageHeight: z.number().nullable(),
  categories: z.array(z.string()),
  canonicalCategorySlug: z.string(),
  categoryName: nullableString,
  iconLightUrl: nullableString,
  iconDarkUrl: nullableString,
  center: z.string().describe('WKT POINT(<lng> <lat>)'),
  address: nullableString,
  contact: z.object({ phone: nullableString, website: nullableString }),
  openingHours: z.object({ weekly: z.record(z.string(), z.string()), raw: z.string(), timeZone: z.string() }).nullable(),
  openState,
  openText: nullableString,
  amenities: z.array(z.string()),
  sponsored: z.boolean(),
  claimStatus: z.string(),
  rating: z.number(),
  reviewCount: z.number(),
  entrances: z.array(z.object({ id: z.string(), type: z.string(), label: nullableString, location: z.string() })),
  osm: z.object({ type: z.string(), id: z.number() }),
  distanceKm: z.number().optional().describe('Present only with near'),
});

export const placesListResponse = z.object({
  items: z.array(placeSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  q: nullableString,
  sponsored: z.boolean().nullable(),
  category: nullableString,
  amenities: z.array(z.string()),
  openNow: z.boolean(),
  sort: z.string(),
  minRating: z.number().nullable(),
  near: nullableString,
  radiusKm: z.number().nullable(),
  attribution: z.string(),
});

const entranceGuide = z.object({ location: lngLat, streetName: nullableString, distanceM: z.number(), direction: z.string().describe('Compass direction from the road point to the entrance or place: north, north-east, …') }).nullable();

export const placeDetailResponse = placeSchema
  .extend({
    holiday,
    tags: z.record(z.string(), z.string()),
    reviews: z.array(reviewSchema).describe('The newest 5; page all with GET /places/{slug}/reviews'),
    photos: z.array(photoSchema).describe('The first 10 approved (featured first, then oldest); page all with GET /places/{slug}/photos'),
    questions: z.array(questionSchema).describe('The newest 5 with their oldest 3 answers; page all with GET /places/{slug}/questions'),
    arrivalIntelligence: z
      .object({
        recommendedEntrance: z.object({ id: nullableString, type: z.string(), label: nullableString, location: lngLat, source: z.string() }),
        dropOff: entranceGuide,
        walkingAccess: entranceGuide,
        lastFiftyMeters: nullableString,
      })
      .nullable(),
    attribution: z.string(),
  })
  .nullable();

export const placeHoursResponse = z
  .object({
    slug: z.string(),
    timeZone: z.string(),
    available: z.boolean(),
    weekly: z.record(z.string(), z.string()).nullable(),
    raw: nullableString,
    weekStable: z.boolean().nullable(),
    alwaysOpen: z.boolean().nullable(),
    openState,
    openText: nullableString,
    nextChange: z.object({ weekday: z.string(), time: z.string(), inMinutes: z.number() }).nullable(),
    holiday,
    weekdays: z.array(z.string()),
  })
  .nullable();

export const placeThumbResponse = z.object({
  url: nullableString,
  source: z.enum(['logo', 'photo']).nullable(),
  rating: z.number().nullable(),
  openState,
  openText: nullableString,
  holiday,
  imageUrl: nullableString,
  imageSource: z.enum(['logo', 'photo', 'street']).nullable(),
  imageWidth: z.number().nullable(),
  imageHeight: z.number().nullable(),
});

export const placeFacetsResponse = z.object({
  scanned: z.number(),
  capped: z.boolean(),
  groups: z.array(z.object({ id: z.string(), name: z.string(), total: z.number(), options: z.array(z.object({ slug: z.string(), label: z.string(), count: z.number() })) })),
});

export const placeCategoriesResponse = z.object({
  count: z.number(),
  categories: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      nameEn: z.string(),
      nameAr: z.string(),
      group: z.string(),
      icon: z.string().describe('Mapbox Maki icon name'),
      iconLightUrl: nullableString,
      iconDarkUrl: nullableString,
      aliases: z.array(z.string()),
      osmTags: z.array(z.string()),
    }),
  ),
});

export const placeOperatorResponse = z.object({ slug: z.string(), sponsored: z.boolean(), claimStatus: z.string(), priceLevel: z.number().nullable(), updatedAt: z.string() });
