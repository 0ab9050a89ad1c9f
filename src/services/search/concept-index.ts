/**
 * The bilingual concept index of meaning-based search (spec part 2 §4.3 `semantic=on`; docs/places.md
 * "Meaning-based matching"). A concept is a need or intent people type instead of a place name:
 * "hungry" / "جوعان" / "ja3an" means restaurants, fast food and cafés; "open now" / "مفتوح" / "fate7"
 * means the openNow filter. Every category of the taxonomy is a concept too (its English and Arabic
 * names and aliases, Arabizi included). Terms and queries go through the same normaliser as place names
 * (`tokensOf`), so spelling variants of Arabic letters and chat-alphabet digits meet; single words of five
 * letters or more also match within one edit (two from eight letters).
 *
 * Matching is greedy longest-first over the query's tokens (phrases of up to four words), so
 * "pharmacy open now" is the pharmacy concept plus the open-now filter.
 */
import { editDistance } from '../geocoding/fuzzy.js';
import { PLACE_CATEGORIES } from '../places/place-taxonomy.js';
import { tokensOf } from './search-text.js';

export interface Concept {
  id: string;
  /** English, Arabic and Arabizi words and phrases that mean it. */
  terms: readonly string[];
  /** Category slug → weight 0..1 (how well the category answers the need). */
  categories?: Readonly<Record<string, number>>;
  /** Amenity option slug (`cuisine-pizza`) → weight 0..1. */
  amenities?: Readonly<Record<string, number>>;
  /** The phrase asks for places open now. */
  openNow?: boolean;
  /** The phrase asks for places near the caller ("near me"): with an origin, nearest first. */
  nearby?: boolean;
}

/** Needs and intents; the taxonomy's categories are added as concepts of their own. */
export const CONCEPTS: readonly Concept[] = [
  {
    id: 'hungry',
    terms: ['hungry', 'starving', 'food', 'eat', 'something to eat', 'meal', 'جوعان', 'جعان', 'جائع', 'جوعانه', 'عايز اكل', 'عاوز اكل', 'اكل', 'وجبة', 'ja3an', 'ga3an', 'gu3an', 'jo3an', 'ga3ana', '3ayez akl', '3awez akl', 'akl'],
    categories: { restaurant: 1, 'fast-food': 0.95, cafe: 0.55, bakery: 0.45, sweets: 0.35 },
  },
  {
    id: 'breakfast',
    terms: ['breakfast', 'فطار', 'فطور', 'futoor', 'fetar', 'fotar', 'foul', 'فول', 'taameya', 'طعمية'],
    categories: { 'fast-food': 1, restaurant: 0.8, bakery: 0.7, cafe: 0.6 },
  },
  {
    id: 'thirsty',
    terms: ['thirsty', 'drink', 'something to drink', 'عطشان', 'عطشانه', 'مشروب', '3atshan', 'atshan'],
    categories: { 'juice-bar': 1, cafe: 0.9, convenience: 0.5, supermarket: 0.4 },
  },
  {
    id: 'coffee',
    terms: ['coffee', 'espresso', 'latte', 'tea', 'قهوه', 'شاي', 'نسكافيه', 'ahwa', '2ahwa', 'shay', 'shai'],
    categories: { cafe: 1, 'juice-bar': 0.3, bakery: 0.25 },
  },
  {
    id: 'sweet-tooth',
    terms: ['dessert', 'sweets', 'cake', 'ice cream', 'حلو', 'حلويات', 'تورته', 'جيلاتي', '7elw', 'helw', '7alawiyat', 'gelato'],
    categories: { sweets: 1, bakery: 0.7, cafe: 0.4 },
  },
  {
    id: 'pizza',
    terms: ['pizza', 'بيتزا', 'بيزا', 'beetza'],
    amenities: { 'cuisine-pizza': 1 },
    categories: { 'fast-food': 0.5, restaurant: 0.45 },
  },
  {
    id: 'chicken',
    terms: ['chicken', 'fried chicken', 'فراخ', 'دجاج', 'فرخه', 'frakh', 'ferakh', 'dajaj'],
    amenities: { 'cuisine-chicken': 1 },
    categories: { 'fast-food': 0.7, restaurant: 0.5 },
  },
  {
    id: 'sick',
    terms: ['sick', 'ill', 'fever', 'headache', 'medicine', 'medication', 'painkiller', 'مريض', 'عيان', 'تعبان', 'دوا', 'دواء', 'صداع', 'سخونيه', 'mareed', '3ayan', '3ayyan', 'ta3ban', 'dawa'],
    categories: { pharmacy: 1, clinic: 0.8, hospital: 0.7 },
  },
  {
    id: 'emergency',
    terms: ['emergency', 'accident', 'injured', 'ambulance', 'urgent care', 'طوارئ', 'حادثه', 'اسعاف', 'مصاب', 'tawari2', 'es3af', 'is3af'],
    categories: { hospital: 1, clinic: 0.5, police: 0.4, 'fire-station': 0.3 },
  },
  {
    id: 'toothache',
    terms: ['toothache', 'tooth', 'teeth', 'ضرس', 'سنان', 'ders', 'dars', 'asnan'],
    categories: { dentist: 1, clinic: 0.4 },
  },
  {
    id: 'cash',
    terms: ['cash', 'money', 'withdraw', 'atm', 'فلوس', 'كاش', 'سحب فلوس', 'فيزا', 'flous', 'felous', 'floos', 'kash'],
    categories: { atm: 1, bank: 0.85, 'money-exchange': 0.5 },
  },
  {
    id: 'exchange-money',
    terms: ['exchange money', 'dollars', 'euros', 'currency exchange', 'تغيير عمله', 'دولار', 'صرف', 'dollar', 'sarf'],
    categories: { 'money-exchange': 1, bank: 0.7 },
  },
  {
    id: 'fill-up',
    terms: ['petrol', 'gas', 'gasoline', 'diesel', 'fill up', 'بنزين', 'سولار', 'بنزينه', 'تفويل', 'banzeen', 'benzeen', 'solar'],
    categories: { fuel: 1, 'ev-charging': 0.3 },
  },
  {
    id: 'car-trouble',
    terms: ['flat tyre', 'flat tire', 'car broke', 'breakdown', 'mechanic', 'عطل', 'كاوتش', 'عربيه عطلانه', 'ميكانيكي', '3otl', 'kawetsh', 'mekaniki'],
    categories: { 'car-repair': 1, fuel: 0.3 },
  },
  {
    id: 'park-car',
    terms: ['park the car', 'park my car', 'parking', 'اركن', 'ركنه', 'مكان اركن', 'arkan', 'rakna'],
    categories: { parking: 1 },
  },
  {
    id: 'pray',
    terms: ['pray', 'prayer', 'friday prayer', 'salah', 'صلاه', 'اصلي', 'صلاه الجمعه', 'جمعه', 'sala', 'a9alli', 'asalli', 'gom3a'],
    categories: { mosque: 1, 'place-of-worship': 0.8, church: 0.3 },
  },
  {
    id: 'mass',
    terms: ['mass', 'liturgy', 'قداس', 'odas', 'qodas'],
    categories: { church: 1, 'place-of-worship': 0.6 },
  },
  {
    id: 'groceries',
    terms: ['groceries', 'grocery shopping', 'milk', 'eggs', 'vegetables', 'بقاله', 'لبن', 'بيض', 'خضار', 'طلبات البيت', 'ba2ala', 'laban', 'beid', 'khodar'],
    categories: { supermarket: 1, convenience: 0.85, greengrocer: 0.6, butcher: 0.4, bakery: 0.4 },
  },
  {
    id: 'bread',
    terms: ['bread', 'عيش', 'خبز', '3eish', 'aish', 'khobz'],
    categories: { bakery: 1, supermarket: 0.5, convenience: 0.4 },
  },
  {
    id: 'kids',
    terms: ['kids', 'children', 'family outing', 'play', 'اطفال', 'عيال', 'خروجه', 'فسحه', 'atfal', '3eyal', 'khoroga', 'fos7a'],
    categories: { park: 1, entertainment: 0.8, cinema: 0.5, mall: 0.5 },
  },
  {
    id: 'fresh-air',
    terms: ['walk', 'fresh air', 'green', 'picnic', 'تمشيه', 'هوا', 'نتمشى', 'tamsheya', 'hawa'],
    categories: { park: 1 },
  },
  {
    id: 'movie',
    terms: ['movie', 'film', 'فيلم', 'سيما', 'film', 'sima'],
    categories: { cinema: 1, mall: 0.4 },
  },
  {
    id: 'shopping',
    terms: ['shopping', 'clothes shopping', 'buy clothes', 'تسوق', 'شوبينج', 'هدوم', 'shopping', 'hodoom', 'tasawoq'],
    categories: { mall: 1, clothes: 0.85, shoes: 0.6 },
  },
  {
    id: 'workout',
    terms: ['workout', 'exercise', 'train', 'swim', 'تمرين', 'اتمرن', 'رياضه', 'سباحه', 'tamreen', 'riyada', 'sebaha'],
    categories: { sports: 1, park: 0.3 },
  },
  {
    id: 'haircut',
    terms: ['haircut', 'shave', 'beard', 'hair', 'حلاقه', 'دقن', 'شعر', '7ela2a', 'hela2a', 'da2n', 'sha3r'],
    categories: { hairdresser: 1, beauty: 0.6 },
  },
  {
    id: 'sleep',
    terms: ['sleep', 'stay the night', 'room', 'overnight', 'انام', 'مبيت', 'اوضه', 'anam', 'mabeet'],
    categories: { hotel: 1 },
  },
  {
    id: 'study',
    terms: ['study', 'learn', 'course', 'exam', 'مذاكره', 'ادرس', 'كورس', 'امتحان', 'mozakra', 'ordros', 'kors'],
    categories: { library: 1, university: 0.7, training: 0.7, school: 0.5 },
  },
  {
    id: 'phone-repair',
    terms: ['phone repair', 'charger', 'sim card', 'recharge', 'شاحن', 'خط', 'كارت شحن', 'تصليح موبايل', 'shahen', 'kart sha7n'],
    categories: { 'mobile-phones': 1, electronics: 0.6 },
  },
  {
    id: 'send-parcel',
    terms: ['send a parcel', 'parcel', 'package', 'letter', 'طرد', 'جواب', 'ارسال', 'tard', 'gawab'],
    categories: { 'post-office': 1 },
  },
  {
    id: 'wash-clothes',
    terms: ['wash clothes', 'ironing', 'dry clean', 'مكوه', 'كي', 'غسيل هدوم', 'makwa', 'ghaseel'],
    categories: { laundry: 1 },
  },
  {
    id: 'restroom',
    terms: ['restroom', 'bathroom', 'toilet', 'حمام', 'تواليت', 'دوره مياه', '7ammam', 'hammam'],
    categories: { toilets: 1, mall: 0.3, fuel: 0.25, cafe: 0.2 },
  },
  {
    id: 'report-crime',
    terms: ['stolen', 'theft', 'report', 'lost wallet', 'اتسرق', 'سرقه', 'بلاغ', 'محضر', 'etsara2', 'balagh', 'ma7dar'],
    categories: { police: 1 },
  },
  {
    id: 'paperwork',
    terms: ['paperwork', 'documents', 'id card', 'licence', 'license', 'ورق', 'بطاقه', 'رخصه', 'شهاده ميلاد', 'wara2', 'beta2a', 'rokhsa'],
    categories: { government: 1, police: 0.4, 'post-office': 0.3 },
  },
  // filters a phrase can ask for
  {
    id: 'open-now',
    terms: ['open now', 'open right now', 'still open', 'open late', 'opened now', 'مفتوح', 'مفتوح الان', 'مفتوح دلوقتي', 'فاتح', 'فاتح دلوقتي', 'شغال', 'شغال دلوقتي', 'maftou7', 'maftoo7', 'fate7', 'fateh', 'shaghal', 'sha8al'],
    // not the bare word "open" nor "مفتوحه": names use them ("Open Arab University", "الجامعة العربية المفتوحة")
    openNow: true,
  },
  {
    id: 'near-me',
    terms: ['near me', 'nearby', 'close by', 'closest', 'nearest', 'around me', 'around here', 'قريب', 'قريب مني', 'جنبي', 'اقرب', 'حوالين', 'orayeb', '2orayeb', 'qarib', 'gambi', 'a2rab'],
    nearby: true,
  },
];

export interface ConceptMatch {
  id: string;
  /** The query words it matched, as normalised. */
  matched: string;
  categories: Record<string, number>;
  amenities: Record<string, number>;
  openNow: boolean;
  nearby: boolean;
  /** Matched within one or two edits rather than exactly. */
  fuzzy: boolean;
}

export interface ConceptAnalysis {
  matches: ConceptMatch[];
  /** Indexes of query tokens the matches used. */
  consumed: Set<number>;
  /** Category weights of every match, the highest per category. */
  categories: Map<string, number>;
  amenities: Map<string, number>;
  openNow: boolean;
  nearby: boolean;
}

const MAX_PHRASE = 4;

function fuzzyBudget(word: string): number {
  const length = [...word].length;
  return length >= 8 ? 2 : length >= 5 ? 1 : 0;
}

export class ConceptIndex {
  private readonly byPhrase = new Map<string, Concept[]>();
  /** Single-word phrases, for fuzzy lookups (a few hundred). */
  private readonly words: string[] = [];

  constructor(concepts: readonly Concept[]) {
    for (const concept of concepts) {
      for (const term of concept.terms) {
        const phrase = tokensOf(term).join(' ');
        if (!phrase) continue;
        const list = this.byPhrase.get(phrase);
        if (list) {
          if (!list.includes(concept)) list.push(concept);
        } else this.byPhrase.set(phrase, [concept]);
      }
    }
    // fuzzy matching never reaches a filter: "المفتوحه" (a name's "the open") is not "مفتوح" (open now)
    for (const [phrase, found] of this.byPhrase) if (!phrase.includes(' ') && !found.some((concept) => concept.openNow || concept.nearby)) this.words.push(phrase);
  }

  /** Concepts of the taxonomy's categories (names and aliases) plus the needs above. */
  static standard(): ConceptIndex {
    const categories: Concept[] = PLACE_CATEGORIES.filter((category) => category.slug !== 'other').map((category) => ({
      id: `category:${category.slug}`,
      terms: [category.nameEn, category.nameAr, ...category.aliases],
      categories: { [category.slug]: 1 },
    }));
    return new ConceptIndex([...CONCEPTS, ...categories]);
  }

  private lookup(tokens: readonly string[]): { concepts: Concept[]; fuzzy: boolean } | undefined {
    const exact = this.byPhrase.get(tokens.join(' '));
    if (exact) return { concepts: exact, fuzzy: false };
    if (tokens.length !== 1) return undefined;
    const word = tokens[0]!;
    const budget = fuzzyBudget(word);
    if (budget === 0) return undefined;
    let best: { phrase: string; distance: number } | undefined;
    for (const candidate of this.words) {
      if (fuzzyBudget(candidate) === 0) continue;
      const distance = editDistance(word, candidate, budget);
      if (distance <= budget && (!best || distance < best.distance || (distance === best.distance && candidate < best.phrase))) best = { phrase: candidate, distance };
    }
    return best ? { concepts: this.byPhrase.get(best.phrase)!, fuzzy: true } : undefined;
  }

  /** The concepts a query's tokens mention, longest phrases first, left to right. */
  analyze(tokens: readonly string[]): ConceptAnalysis {
    const analysis: ConceptAnalysis = { matches: [], consumed: new Set(), categories: new Map(), amenities: new Map(), openNow: false, nearby: false };
    let index = 0;
    while (index < tokens.length) {
      let found: { concepts: Concept[]; fuzzy: boolean; length: number } | undefined;
      for (let length = Math.min(MAX_PHRASE, tokens.length - index); length >= 1 && !found; length--) {
        const hit = this.lookup(tokens.slice(index, index + length));
        if (hit) found = { ...hit, length };
      }
      if (!found) {
        index++;
        continue;
      }
      const matched = tokens.slice(index, index + found.length).join(' ');
      for (let used = index; used < index + found.length; used++) analysis.consumed.add(used);
      for (const concept of found.concepts) {
        // a fuzzy hit counts a little less than an exact one
        const factor = found.fuzzy ? 0.85 : 1;
        const match: ConceptMatch = {
          id: concept.id,
          matched,
          categories: Object.fromEntries(Object.entries(concept.categories ?? {}).map(([slug, weight]) => [slug, weight * factor])),
          amenities: Object.fromEntries(Object.entries(concept.amenities ?? {}).map(([slug, weight]) => [slug, weight * factor])),
          openNow: concept.openNow === true,
          nearby: concept.nearby === true,
          fuzzy: found.fuzzy,
        };
        analysis.matches.push(match);
        for (const [slug, weight] of Object.entries(match.categories)) analysis.categories.set(slug, Math.max(analysis.categories.get(slug) ?? 0, weight));
        for (const [slug, weight] of Object.entries(match.amenities)) analysis.amenities.set(slug, Math.max(analysis.amenities.get(slug) ?? 0, weight));
        analysis.openNow ||= match.openNow;
        analysis.nearby ||= match.nearby;
      }
      index += found.length;
    }
    return analysis;
  }
}

/**
 * Category words of the taxonomy (names and one-word aliases): a query word that names a category may be
 * matched by a place of that category rather than by its name ("pharmacy sandy" finds "Sandy pharmacy",
 * "ahwa kokh" the café "Qahoa Al-Kokh"). Used by text search whether or not `semantic` is on.
 */
export class CategoryWords {
  private readonly byWord = new Map<string, string[]>();

  constructor() {
    for (const category of PLACE_CATEGORIES) {
      if (category.slug === 'other') continue;
      for (const term of [category.nameEn, category.nameAr, ...category.aliases]) {
        const tokens = tokensOf(term);
        // one-word terms only, and "nameEn"s like "Fruit and vegetables" word by word (not "and")
        for (const token of tokens.length === 1 ? tokens : []) {
          const list = this.byWord.get(token) ?? [];
          if (!list.includes(category.slug)) list.push(category.slug);
          this.byWord.set(token, list);
        }
      }
    }
  }

  categoriesOf(token: string): readonly string[] {
    return this.byWord.get(token) ?? [];
  }
}
