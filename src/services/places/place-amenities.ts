/**
 * Amenity facets (spec part 2 §2.6): OSM tags → facet options, grouped. A place's `amenities` hold the
 * slugs of its enabled options and the ids of the groups it has any option of, so a filter on a whole
 * group (`amenities=diet`) is the same array test as one on an option (`amenities=halal`).
 */

export interface AmenityOption {
  slug: string;
  en: string;
  ar: string;
  /** Enabled when one of these tag tests holds. */
  when: (tags: Readonly<Record<string, string>>) => boolean;
}

export interface AmenityGroup {
  id: string;
  en: string;
  ar: string;
  options: readonly AmenityOption[];
}

const yes = (key: string, values = ['yes', 'designated', 'only']) => (tags: Readonly<Record<string, string>>) => values.includes(tags[key] ?? '');

export const AMENITY_GROUPS: readonly AmenityGroup[] = [
  {
    id: 'accessibility',
    en: 'Accessibility',
    ar: 'إمكانية الوصول',
    options: [
      { slug: 'wheelchair', en: 'Wheelchair accessible', ar: 'مناسب للكراسي المتحركة', when: yes('wheelchair') },
      { slug: 'wheelchair-limited', en: 'Partly wheelchair accessible', ar: 'مناسب جزئيًا للكراسي المتحركة', when: yes('wheelchair', ['limited']) },
    ],
  },
  {
    id: 'service',
    en: 'Service',
    ar: 'الخدمة',
    options: [
      { slug: 'outdoor-seating', en: 'Outdoor seating', ar: 'جلسات خارجية', when: yes('outdoor_seating') },
      { slug: 'wifi', en: 'Wi-Fi', ar: 'واي فاي', when: (tags) => ['wlan', 'yes', 'wifi'].includes(tags.internet_access ?? '') || tags.wifi === 'yes' },
      { slug: 'delivery', en: 'Delivery', ar: 'توصيل', when: yes('delivery') },
      { slug: 'takeaway', en: 'Takeaway', ar: 'تيك أواي', when: yes('takeaway') },
      { slug: 'drive-through', en: 'Drive-through', ar: 'خدمة السيارات', when: yes('drive_through') },
      { slug: 'parking', en: 'Parking', ar: 'موقف سيارات', when: (tags) => Boolean(tags.parking && tags.parking !== 'no') || yes('parking:customers')(tags) },
      { slug: 'air-conditioning', en: 'Air conditioning', ar: 'تكييف', when: yes('air_conditioning') },
      { slug: 'toilets', en: 'Toilets', ar: 'دورات مياه', when: yes('toilets') },
      { slug: 'atm', en: 'ATM', ar: 'صراف آلي', when: (tags) => yes('atm')(tags) || tags.amenity === 'atm' },
      { slug: 'open-24-7', en: 'Open 24/7', ar: 'مفتوح ٢٤ ساعة', when: (tags) => tags.opening_hours?.trim() === '24/7' },
    ],
  },
  {
    id: 'payment',
    en: 'Payment',
    ar: 'الدفع',
    options: [
      { slug: 'cash', en: 'Cash', ar: 'كاش', when: yes('payment:cash') },
      { slug: 'cards', en: 'Cards', ar: 'بطاقات', when: (tags) => ['payment:cards', 'payment:credit_cards', 'payment:debit_cards', 'payment:visa', 'payment:mastercard'].some((key) => yes(key)(tags)) },
      { slug: 'contactless', en: 'Contactless', ar: 'دفع بدون تلامس', when: yes('payment:contactless') },
    ],
  },
  {
    id: 'diet',
    en: 'Diet',
    ar: 'النظام الغذائي',
    options: [
      { slug: 'halal', en: 'Halal', ar: 'حلال', when: yes('diet:halal') },
      { slug: 'vegetarian', en: 'Vegetarian options', ar: 'خيارات نباتية', when: yes('diet:vegetarian', ['yes', 'only']) },
      { slug: 'vegan', en: 'Vegan options', ar: 'خيارات نباتية صرفة', when: yes('diet:vegan', ['yes', 'only']) },
    ],
  },
];

/** Cuisines (OSM `cuisine`, `;`-separated) become options of the `cuisine` group: `cuisine-<value>`. */
export const CUISINE_GROUP = { id: 'cuisine', en: 'Cuisine', ar: 'المطبخ' } as const;

const CUISINE_NAMES: Record<string, [string, string]> = {
  egyptian: ['Egyptian', 'مصري'], lebanese: ['Lebanese', 'لبناني'], syrian: ['Syrian', 'سوري'], arab: ['Arab', 'عربي'], middle_eastern: ['Middle Eastern', 'شرقي'],
  pizza: ['Pizza', 'بيتزا'], burger: ['Burgers', 'برجر'], chicken: ['Chicken', 'فراخ'], fried_chicken: ['Fried chicken', 'فراخ مقلية'], shawarma: ['Shawarma', 'شاورما'],
  falafel: ['Falafel', 'فلافل'], kebab: ['Kebab', 'كباب'], grill: ['Grill', 'مشويات'], seafood: ['Seafood', 'مأكولات بحرية'], fish: ['Fish', 'سمك'],
  italian: ['Italian', 'إيطالي'], chinese: ['Chinese', 'صيني'], japanese: ['Japanese', 'ياباني'], sushi: ['Sushi', 'سوشي'], indian: ['Indian', 'هندي'],
  turkish: ['Turkish', 'تركي'], american: ['American', 'أمريكي'], coffee_shop: ['Coffee', 'قهوة'], ice_cream: ['Ice cream', 'آيس كريم'], sandwich: ['Sandwiches', 'ساندويتشات'],
  breakfast: ['Breakfast', 'فطور'], dessert: ['Desserts', 'حلويات'], juice: ['Juice', 'عصير'], koshari: ['Koshari', 'كشري'], international: ['International', 'عالمي'],
};

/** A cuisine option's label; unknown values are shown as tagged, underscores as spaces. */
export function cuisineLabel(value: string, language: 'en' | 'ar'): string {
  const known = CUISINE_NAMES[value];
  if (known) return language === 'ar' ? known[1] : known[0];
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const OPTION_GROUP = new Map<string, AmenityGroup>();
for (const group of AMENITY_GROUPS) for (const option of group.options) OPTION_GROUP.set(option.slug, group);

export function amenityGroupOf(slug: string): { id: string; en: string; ar: string } | undefined {
  if (slug.startsWith('cuisine-')) return CUISINE_GROUP;
  return OPTION_GROUP.get(slug);
}

export function isAmenityGroupId(slug: string): boolean {
  return slug === CUISINE_GROUP.id || AMENITY_GROUPS.some((group) => group.id === slug);
}

/** The option's label in a language; undefined for a slug that is no option. */
export function amenityLabel(slug: string, language: 'en' | 'ar'): string | undefined {
  if (slug.startsWith('cuisine-')) return cuisineLabel(slug.slice('cuisine-'.length), language);
  const option = OPTION_GROUP.get(slug)?.options.find((candidate) => candidate.slug === slug);
  return option ? option[language] : undefined;
}

/** Enabled options and their groups' ids, in a stable order (groups, then options, then cuisines). */
export function amenitiesOf(tags: Readonly<Record<string, string>>): string[] {
  const slugs: string[] = [];
  for (const group of AMENITY_GROUPS) {
    const enabled = group.options.filter((option) => option.when(tags)).map((option) => option.slug);
    if (enabled.length) slugs.push(group.id, ...enabled);
  }
  const cuisines = (tags.cuisine ?? '')
    .split(';')
    .map((value) => value.trim().toLowerCase().replace(/\s+/g, '_'))
    .filter((value) => /^[a-z0-9_]{1,40}$/.test(value));
  if (cuisines.length) slugs.push(CUISINE_GROUP.id, ...[...new Set(cuisines)].map((value) => `cuisine-${value}`));
  return slugs;
}
