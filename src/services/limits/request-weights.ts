/**
 * Monthly billing weights (spec part 1 §8 rule 1: weights apply to billing
 * only; every request counts as one against quotas). Each endpoint's row in
 * the endpoint table (services/access/endpoint-access.ts) names its billing
 * class; documented in docs/key-enforcement.md.
 */
export const REQUEST_WEIGHTS = {
  default: 1,
  geocodeLatin: 2,
  geocodeArabic: 3,
  routing: 5,
  matrixOrIsochrone: 10,
  optimization: 20,
} as const;

/** How an endpoint's requests are billed: a named weight, or `geocode` (its weight follows the text's script). */
export type BillingClass = 'default' | 'geocode' | 'routing' | 'matrixOrIsochrone' | 'optimization';

const ARABIC_SCRIPT = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const TEXT_PARAMETERS = ['q', 'query', 'text', 'address'];

/** The billing weight of one request to an endpoint of this billing class, with this query. */
export function billingWeight(billing: BillingClass, rawQuery: Readonly<Record<string, string | string[]>>): number {
  if (billing !== 'geocode') return REQUEST_WEIGHTS[billing];
  // Arabic text costs more to normalise, transliterate and match.
  const text = TEXT_PARAMETERS.map((name) => rawQuery[name]).flat().filter(Boolean).join(' ');
  return ARABIC_SCRIPT.test(text) ? REQUEST_WEIGHTS.geocodeArabic : REQUEST_WEIGHTS.geocodeLatin;
}
