import { defineRoute, type RouteDefinition } from '../route.js';
import { languageOf, type PlacesService } from '../../services/places/places-service.js';
import {
  placeCategoriesQuery,
  placeDetailQuery,
  placeFacetsQuery,
  placeOperatorBody,
  placeSlugParams,
  placeThumbQuery,
  placesListQuery,
} from '../../services/places/place-queries.js';
import {
  placeCategoriesResponse,
  placeDetailResponse,
  placeFacetsResponse,
  placeHoursResponse,
  placeOperatorResponse,
  placeThumbResponse,
  placesListResponse,
} from '../../services/places/place-responses.js';

// access and scopes as the /places rows of services/access/endpoint-access.ts say
const route = { tags: ['places'] };

/** The place catalogue (spec part 2 §4.4, scope `places`). Open state and holidays at `at` (default now). */
export function placeRoutes(places: PlacesService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places',
      summary: 'Places with q, category, amenities, sponsored, openNow, minRating, near/radiusKm, sort and paging; echoes the applied filters and the total',
      query: placesListQuery,
      response: placesListResponse,
      handler: ({ query, headers }) => places.list(query, languageOf(query.locale, headers['accept-language'])),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/thumb',
      summary: 'Thumbnail of a place: logo or featured photo, rating, open state with holiday annotation; unknown slug gives every field null',
      query: placeThumbQuery,
      response: placeThumbResponse,
      handler: ({ query, headers }) => places.thumb(query.slug, { atMs: query.at, language: languageOf(query.locale, headers['accept-language']) }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/facets',
      summary: 'Amenity facet groups with counts of enabled options over the places matching q (scan capped; capped says so)',
      query: placeFacetsQuery,
      response: placeFacetsResponse,
      handler: ({ query, headers }) => places.facets(query.q, languageOf(query.locale, headers['accept-language'])),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/categories',
      summary: 'The category taxonomy: slugs (the category filter values), English and Arabic names, group, Maki icon, aliases, OSM tags',
      query: placeCategoriesQuery,
      response: placeCategoriesResponse,
      handler: ({ query, headers }) => places.categories(languageOf(query.locale, headers['accept-language'])),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}',
      summary: 'Place detail with entrances, arrival intelligence, holiday and annotated openText; 200 null for an unknown slug',
      params: placeSlugParams,
      query: placeDetailQuery,
      response: placeDetailResponse,
      handler: ({ params, query, headers, signal }) => places.detail(params.slug, { atMs: query.at, language: languageOf(query.locale, headers['accept-language']), signal }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/hours',
      summary: "Opening hours: the weekly shape, the OSM value, the place's timezone, open state, next change and holiday; 200 null for an unknown slug",
      params: placeSlugParams,
      query: placeDetailQuery,
      response: placeHoursResponse,
      handler: ({ params, query, headers }) => places.hours(params.slug, { atMs: query.at, language: languageOf(query.locale, headers['accept-language']) }),
    }),
  ];
}

/** Operators set a place's sponsored flag and claim status (spec part 2 §2.4, §3). */
export function adminPlaceRoutes(places: PlacesService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'PATCH',
      path: '/admin/places/{slug}',
      tags: ['admin', 'places'],
      summary: 'Set sponsored and/or claimStatus (unclaimed|pending|verified) of a place',
      params: placeSlugParams,
      body: placeOperatorBody,
      response: placeOperatorResponse,
      errors: ['FORBIDDEN', 'NOT_FOUND'],
      handler: ({ params, body }) => places.setOperatorFields(params.slug, body),
    }),
  ];
}
