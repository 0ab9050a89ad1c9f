/** Response schemas of the search endpoints, for the OpenAPI document (spec part 2 §4.3; docs/places.md "Search"). */
import { z } from 'zod';
import { placeSchema } from '../places/place-responses.js';

export const searchItemSchema = placeSchema.extend({
  priceLevel: z.number().nullable().describe('1 (cheap) to 4; null when unknown (operators set it)'),
  popularity: z.number().describe('Clicks recorded by POST /search/events within the retention window'),
  match: z
    .object({
      kind: z.enum(['exact', 'prefix', 'words', 'partial', 'meaning', 'browse']),
      score: z.number(),
      text: z.number(),
      meaning: z.number(),
      prominent: z.boolean(),
    })
    .describe('How the place matched and its ranking score (docs/places.md "Ranking")'),
  adId: z.string().optional().describe('Present when a live promoted placement sponsors the place (sponsored is then true): record clicks with POST /ads/{adId}/click (docs/ads.md)'),
});

export const searchResponse = z.object({
  query: z.string(),
  normalizedQuery: z.string().optional().describe('Present when normalisation rewrote the query (Arabic letter variants, diacritics, chat-alphabet digits)'),
  mode: z.enum(['full', 'typeahead']),
  semantic: z.boolean().describe('Meaning-based matching ran (semantic=on, not typeahead)'),
  index: z.object({
    mode: z.enum(['text', 'hybrid']).describe('hybrid: meaning-based matching contributed (it matched a ranked place, or its words set openNow or the distance order)'),
    concepts: z.array(
      z.object({
        id: z.string(),
        matched: z.string(),
        categories: z.array(z.string()),
        amenities: z.array(z.string()),
        openNow: z.boolean().optional(),
        nearby: z.boolean().optional(),
        fuzzy: z.boolean(),
      }),
    ),
    embeddings: z.enum(['off', 'used', 'unavailable']),
  }),
  items: z.array(searchItemSchema),
  total: z.number().describe('Matches, counted up to 1000'),
  totalCapped: z.boolean(),
  page: z.number(),
  limit: z.number(),
  category: z.array(z.string()).nullable(),
  openNow: z.boolean(),
  openNowFromQuery: z.boolean(),
  price: z.array(z.number()).nullable(),
  sort: z.string(),
  near: z.string().nullable(),
  radiusKm: z.number().nullable(),
  attribution: z.string(),
});

export const suggestionsResponse = z.object({
  query: z.string(),
  locale: z.enum(['en', 'ar']),
  suggestions: z.array(
    z.object({
      id: z.string(),
      type: z.enum(['category', 'place']),
      label: z.string(),
      name: z.string(),
      lat: z.number().nullable(),
      lng: z.number().nullable(),
      category: z.string(),
      slug: z.string().nullable(),
      icon: z.string().nullable().describe('Maki icon name'),
      distanceKm: z.number().optional(),
    }),
  ),
});

export const searchEventResponse = z.object({ recorded: z.boolean(), type: z.enum(['search', 'click']), day: z.string() });
