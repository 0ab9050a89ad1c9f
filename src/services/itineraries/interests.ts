/**
 * What an automatic itinerary's `interests` ask for (spec part 3 §4.3; docs/itineraries.md "Interests"):
 * each word or phrase, in English, Arabic or Arabizi, is read by the concept index of meaning-based search
 * (category names and aliases, needs such as "hungry" / "جوعان") plus a few outing concepts of its own
 * ("history", "culture", "nature", "sightseeing"), giving category slugs with a weight 0..1 (how well the
 * category answers the interest). Without interests, an outing's usual categories count.
 */
import { ConceptIndex, type Concept } from '../search/concept-index.js';
import { PLACE_CATEGORIES } from '../places/place-taxonomy.js';
import { tokensOf } from '../search/search-text.js';

/** Outing interests the search concepts do not carry. */
const OUTING_CONCEPTS: readonly Concept[] = [
  {
    id: 'history',
    terms: ['history', 'historic', 'heritage', 'monuments', 'ancient', 'تاريخ', 'تاريخي', 'آثار', 'اثار', 'تراث', 'tarikh', 'tare5', 'asar'],
    categories: { attraction: 1, museum: 0.9, 'place-of-worship': 0.5, mosque: 0.5, church: 0.5 },
  },
  {
    id: 'culture',
    terms: ['culture', 'art', 'arts', 'cultural', 'ثقافة', 'فن', 'فنون', 'thaqafa', 'fan'],
    categories: { museum: 1, theatre: 0.9, attraction: 0.6, library: 0.5, cinema: 0.4 },
  },
  {
    id: 'nature',
    terms: ['nature', 'outdoors', 'green', 'walk', 'fresh air', 'طبيعة', 'خضرة', 'تمشية', 'نزهة', 'tabi3a', 'khodra', 'tamsheya'],
    categories: { park: 1, attraction: 0.4 },
  },
  {
    id: 'sightseeing',
    terms: ['sightseeing', 'sights', 'tourism', 'tourist', 'visit', 'سياحة', 'معالم', 'فسحة', 'خروجة', 'fas7a', 'khoroga'],
    categories: { attraction: 1, museum: 0.9, park: 0.6, mosque: 0.5, church: 0.5, 'place-of-worship': 0.5, theatre: 0.5 },
  },
  {
    id: 'religion',
    terms: ['religious', 'worship', 'pray', 'ديني', 'عبادة', 'صلاة', 'dini'],
    categories: { mosque: 1, church: 1, 'place-of-worship': 1 },
  },
];

/** Categories an outing without interests visits: sights, leisure, food and drink. */
const DEFAULT_GROUPS = new Set(['leisure', 'food', 'worship']);

export interface InterestReading {
  /** Category slug → weight 0..1 (the highest over every interest). */
  categories: Map<string, number>;
  /** Interests that named no category (echoed so a client can say so). */
  unmatched: string[];
}

export class InterestReader {
  private readonly search = ConceptIndex.standard();
  private readonly outing = new ConceptIndex(OUTING_CONCEPTS);

  read(interests: readonly string[]): InterestReading {
    const categories = new Map<string, number>();
    const unmatched: string[] = [];
    if (!interests.length) {
      for (const category of PLACE_CATEGORIES) if (DEFAULT_GROUPS.has(category.group)) categories.set(category.slug, 1);
      return { categories, unmatched };
    }
    for (const interest of interests) {
      const tokens = tokensOf(interest);
      let found = false;
      for (const analysis of [this.search.analyze(tokens), this.outing.analyze(tokens)]) {
        for (const [slug, weight] of analysis.categories) {
          if (weight <= 0) continue;
          categories.set(slug, Math.max(categories.get(slug) ?? 0, weight));
          found = true;
        }
      }
      if (!found) unmatched.push(interest);
    }
    return { categories, unmatched };
  }
}
