import { withFields } from '../../shared/objects.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { languageOf } from '../../services/places/places-service.js';
import type { SearchService } from '../../services/search/search-service.js';
import { searchEventBody, searchQuery, suggestionsQuery } from '../../services/search/search-queries.js';
import { searchEventResponse, searchResponse, suggestionsResponse } from '../../services/search/search-responses.js';

// access, scopes and the events throttle as the /search rows of services/access/endpoint-access.ts say
const route = { tags: ['search'] };

/** Place search (spec part 2 §4.3, scope `search`; docs/places.md "Search"). */
export function searchRoutes(search: SearchService, sponsoredPlaces?: (placeIds: readonly string[]) => Promise<Map<string, string>>): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/search',
      summary:
        'Search places: q (Arabic-aware, Arabizi), mode=typeahead, semantic=on (concept index, embeddings), category (up to 10), openNow, near/origin, radiusKm, sort, price, paging',
      query: searchQuery,
      response: searchResponse,
      handler: async ({ query, headers }) => {
        const result = await search.search(query, languageOf(query.locale, headers['accept-language']));
        if (!sponsoredPlaces || result.items.length === 0) return result;
        // places with a live promoted placement are marked (never moved): sponsored, and the campaign to record a click on
        const promoted = await sponsoredPlaces(result.items.map((item) => item.id));
        if (promoted.size === 0) return result;
        return { ...result, items: result.items.map((item) => (promoted.has(item.id) ? withFields(item, { sponsored: true, adId: promoted.get(item.id)! }) : item)) };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/search/suggestions',
      summary: 'Suggestions: empty q gives everyday categories then landmark places in the locale; otherwise categories and places starting with q',
      query: suggestionsQuery,
      response: suggestionsResponse,
      handler: ({ query, headers }) => search.suggestions(query, languageOf(query.locale, headers['accept-language'])),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/search/events',
      summary: 'Record a search or a click on a result (daily counters only; clicks feed popularity); 60 per minute',
      body: searchEventBody,
      response: searchEventResponse,
      errors: ['NOT_FOUND'],
      bodyLimitBytes: 4 * 1024,
      handler: ({ body }) => search.recordEvent(body),
    }),
  ];
}
