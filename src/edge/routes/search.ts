import { defineRoute, type RouteDefinition } from '../route.js';
import { languageOf } from '../../services/places/places-service.js';
import type { SearchService } from '../../services/search/search-service.js';
import { searchEventBody, searchQuery, suggestionsQuery } from '../../services/search/search-queries.js';
import { searchEventResponse, searchResponse, suggestionsResponse } from '../../services/search/search-responses.js';

// access, scopes and the events throttle as the /search rows of services/access/endpoint-access.ts say
const route = { tags: ['search'] };

/** Place search (spec part 2 §4.3, scope `search`; docs/places.md "Search"). */
export function searchRoutes(search: SearchService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/search',
      summary:
        'Search places: q (Arabic-aware, Arabizi), mode=typeahead, semantic=on (concept index, embeddings), category (up to 10), openNow, near/origin, radiusKm, sort, price, paging',
      query: searchQuery,
      response: searchResponse,
      handler: ({ query, headers }) => search.search(query, languageOf(query.locale, headers['accept-language'])),
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
