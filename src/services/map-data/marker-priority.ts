/**
 * A place's map priority, 0–100 (spec part 2 §4.8 `/map/poi`): what its category is worth on a map
 * (up to 40: a hospital or a landmark before a shop), how well it is rated (up to 25, trusted in
 * proportion to its reviews up to 20 of them), how much it is reviewed (up to 20, logarithmic: 1 000
 * reviews is the cap) and how often people open it (up to 15, logarithmic: popularity 1 000 is the cap).
 */
import { categoryBySlug, type CategoryGroup } from '../places/place-taxonomy.js';

const GROUP_WEIGHT: Readonly<Record<CategoryGroup, number>> = {
  health: 32,
  transport: 26,
  lodging: 26,
  leisure: 24,
  worship: 22,
  government: 22,
  education: 20,
  food: 20,
  shopping: 14,
  money: 14,
  services: 8,
};

/** Categories a map shows before the rest of their group. */
const CATEGORY_WEIGHT: ReadonlyMap<string, number> = new Map([
  ['hospital', 40],
  ['attraction', 36],
  ['museum', 34],
  ['mall', 32],
  ['university', 30],
  ['fuel', 28],
  ['police', 28],
  ['mosque', 26],
  ['church', 26],
  ['park', 26],
  ['other', 4],
]);

const log10Share = (value: number, cap: number) => Math.min(1, Math.log10(1 + Math.max(0, value)) / Math.log10(1 + cap));

export function categoryWeight(slug: string): number {
  const specific = CATEGORY_WEIGHT.get(slug);
  if (specific !== undefined) return specific;
  const category = categoryBySlug(slug);
  return category ? GROUP_WEIGHT[category.group] : 4;
}

export function markerPriority(place: { canonicalCategory: string; rating: number; reviewCount: number; popularity: number }): number {
  const trust = Math.min(1, Math.max(0, place.reviewCount) / 20);
  const rated = (Math.min(5, Math.max(0, place.rating)) / 5) * 25 * trust;
  const reviewed = 20 * log10Share(place.reviewCount, 1_000);
  const popular = 15 * log10Share(place.popularity, 1_000);
  return Math.round(Math.min(100, categoryWeight(place.canonicalCategory) + rated + reviewed + popular));
}
