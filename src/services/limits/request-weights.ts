import type { RouteDefinition } from '../../edge/route.js';

/**
 * Monthly billing weights (spec part 1 §8 rule 1: weights apply to billing
 * only; every request counts as one against quotas). Documented in
 * docs/key-enforcement.md.
 */
export const REQUEST_WEIGHTS = {
  default: 1,
  geocodeLatin: 2,
  geocodeArabic: 3,
  routing: 5,
  matrixOrIsochrone: 10,
  optimization: 20,
} as const;

const ARABIC_SCRIPT = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const TEXT_PARAMETERS = ['q', 'query', 'text', 'address'];

/** The billing weight of one request to `route` with this query. */
export function requestWeight(route: Pick<RouteDefinition, 'path'>, rawQuery: Readonly<Record<string, string | string[]>>): number {
  const path = route.path;
  if (path.startsWith('/optimize/')) return REQUEST_WEIGHTS.optimization;
  if (path === '/routing/matrix' || path === '/routing/isochrone') return REQUEST_WEIGHTS.matrixOrIsochrone;
  if (path.startsWith('/routing/') || path.startsWith('/navigation/') || path === '/traffic/route') return REQUEST_WEIGHTS.routing;
  if (path.startsWith('/geocode')) {
    // Arabic text costs more to normalise, transliterate and match.
    const text = TEXT_PARAMETERS.map((name) => rawQuery[name]).flat().filter(Boolean).join(' ');
    return ARABIC_SCRIPT.test(text) ? REQUEST_WEIGHTS.geocodeArabic : REQUEST_WEIGHTS.geocodeLatin;
  }
  return REQUEST_WEIGHTS.default;
}
