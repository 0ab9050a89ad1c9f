/**
 * The place category taxonomy (spec part 2 §2.4, §2.5, §4.4 `GET /places/categories`): OSM tags → 62
 * categories with English and Arabic names, search aliases (English, Arabic, Arabizi) and a Mapbox Maki
 * icon name. A place's `categories` are every category one of its tags selects; its
 * `canonicalCategorySlug` is the first of them in this table's order (specific before general: a
 * `shop=bakery` is a bakery first, a shop second).
 *
 * Icons are Maki names (https://labs.mapbox.com/maki-icons/, CC0); the category slug is not the icon
 * name, as the spec warns clients.
 */

export interface PlaceCategory {
  slug: string;
  nameEn: string;
  nameAr: string;
  /** Maki icon name. */
  icon: string;
  /** The group a category belongs to in menus and facets (`food`, `health`, …). */
  group: CategoryGroup;
  /** Other words people search for it by: English, Arabic, Arabizi (chat-alphabet Arabic). */
  aliases: readonly string[];
  /** OSM tags that select it: `key=value`, or `key=*` for any value but `no`. */
  tags: readonly string[];
}

export const CATEGORY_GROUPS = ['food', 'shopping', 'health', 'money', 'transport', 'education', 'worship', 'leisure', 'lodging', 'services', 'government'] as const;
export type CategoryGroup = (typeof CATEGORY_GROUPS)[number];

const c = (slug: string, nameEn: string, nameAr: string, icon: string, group: CategoryGroup, tags: string[], aliases: string[]): PlaceCategory =>
  Object.freeze({ slug, nameEn, nameAr, icon, group, tags: Object.freeze(tags), aliases: Object.freeze(aliases) });

/** Order matters: the first category a place matches is its canonical one. */
export const PLACE_CATEGORIES: readonly PlaceCategory[] = Object.freeze([
  // food and drink
  c('restaurant', 'Restaurant', 'مطعم', 'restaurant', 'food', ['amenity=restaurant'], ['restaurants', 'dinner', 'lunch', 'مطاعم', 'أكل', 'غداء', 'عشاء', 'mat3am', 'mata3em', 'akl']),
  c('fast-food', 'Fast food', 'وجبات سريعة', 'fast-food', 'food', ['amenity=fast_food'], ['burger', 'shawarma', 'falafel', 'koshari', 'sandwich', 'شاورما', 'فلافل', 'كشري', 'برجر', 'ساندويتش', 'shawerma', 'ta3meya', 'koshary']),
  c('cafe', 'Café', 'مقهى', 'cafe', 'food', ['amenity=cafe'], ['coffee', 'coffee shop', 'ahwa', 'qahwa', 'كافيه', 'قهوة', 'كوفي', 'ahwa', '2ahwa', 'kafeh']),
  c('bakery', 'Bakery', 'مخبز', 'bakery', 'food', ['shop=bakery', 'shop=pastry'], ['bread', 'pastry', 'فرن', 'عيش', 'خبز', 'حلويات', 'forn', '3eish', 'khobz']),
  c('sweets', 'Sweets and desserts', 'حلويات', 'confectionery', 'food', ['shop=confectionery', 'shop=chocolate', 'amenity=ice_cream', 'shop=ice_cream'], ['dessert', 'ice cream', 'kunafa', 'basbousa', 'كنافة', 'بسبوسة', 'آيس كريم', 'جيلاتي', 'halawiyat', 'konafa']),
  c('bar', 'Bar', 'بار', 'bar', 'food', ['amenity=bar', 'amenity=pub', 'amenity=biergarten'], ['pub', 'drinks', 'حانة']),
  c('juice-bar', 'Juice bar', 'محل عصير', 'teahouse', 'food', ['shop=beverages', 'amenity=juice_bar', 'cuisine=juice'], ['juice', 'sugarcane', 'عصير', 'قصب', 'عصائر', '3aseer', 'asab']),
  // shopping
  c('supermarket', 'Supermarket', 'سوبر ماركت', 'grocery', 'shopping', ['shop=supermarket', 'shop=wholesale'], ['grocery', 'hypermarket', 'market', 'بقالة', 'ماركت', 'هايبر', 'soobermarket', 'ba2ala', 'market']),
  c('convenience', 'Convenience store', 'بقالة', 'convenience', 'shopping', ['shop=convenience', 'shop=kiosk', 'shop=general'], ['kiosk', 'corner shop', 'mini market', 'كشك', 'ميني ماركت', 'kushk', 'ba2ala']),
  c('butcher', 'Butcher', 'جزارة', 'slaughterhouse', 'shopping', ['shop=butcher', 'shop=seafood', 'shop=poultry'], ['meat', 'fish', 'chicken', 'لحمة', 'لحوم', 'سمك', 'فراخ', 'gazzar', 'la7ma']),
  c('greengrocer', 'Fruit and vegetables', 'خضار وفاكهة', 'farm', 'shopping', ['shop=greengrocer'], ['vegetables', 'fruit', 'خضري', 'فكهاني', 'khodar', 'fakha']),
  c('mall', 'Shopping mall', 'مول تجاري', 'shop', 'shopping', ['shop=mall', 'shop=department_store', 'amenity=marketplace'], ['mall', 'shopping centre', 'shopping center', 'market', 'مول', 'سوق', 'مركز تجاري', 'mool', 'souq']),
  c('clothes', 'Clothes', 'ملابس', 'clothing-store', 'shopping', ['shop=clothes', 'shop=fashion', 'shop=boutique', 'shop=tailor'], ['fashion', 'clothing', 'boutique', 'هدوم', 'أزياء', 'مفروشات', 'malabes', 'hodoom']),
  c('shoes', 'Shoes', 'أحذية', 'shoe', 'shopping', ['shop=shoes'], ['shoe shop', 'جزمة', 'شوز', 'gazma']),
  c('electronics', 'Electronics', 'إلكترونيات', 'mobile-phone', 'shopping', ['shop=electronics', 'shop=computer', 'shop=appliance', 'shop=hifi'], ['computer', 'appliances', 'كمبيوتر', 'أجهزة كهربائية', 'electroneyat']),
  c('mobile-phones', 'Mobile phones', 'موبايلات', 'mobile-phone', 'shopping', ['shop=mobile_phone', 'shop=telecommunication'], ['phone shop', 'mobile', 'موبايل', 'جوال', 'محمول', 'mobile', 'gawwal']),
  c('furniture', 'Furniture', 'أثاث', 'furniture', 'shopping', ['shop=furniture', 'shop=interior_decoration', 'shop=bed', 'shop=carpet'], ['home furnishing', 'موبيليا', 'مفروشات', 'عفش', 'asas', '3afsh']),
  c('hardware', 'Hardware', 'أدوات منزلية وعدد', 'hardware', 'shopping', ['shop=hardware', 'shop=doityourself', 'shop=paint', 'shop=houseware', 'shop=trade'], ['tools', 'diy', 'خردوات', 'عدد', 'أدوات', 'kharadawat']),
  c('stationery', 'Stationery and books', 'مكتبة وأدوات مكتبية', 'library', 'shopping', ['shop=stationery', 'shop=books', 'shop=copyshop'], ['books', 'bookshop', 'printing', 'كتب', 'مكتبة', 'أدوات مكتبية', 'maktaba']),
  c('beauty', 'Beauty', 'تجميل', 'hairdresser', 'shopping', ['shop=beauty', 'shop=cosmetics', 'shop=perfumery', 'shop=hairdresser_supply'], ['cosmetics', 'salon', 'perfume', 'spa', 'كوافير', 'عطور', 'مستحضرات تجميل', 'tagmeel', '3otoor']),
  c('hairdresser', 'Hairdresser', 'حلاق', 'hairdresser', 'services', ['shop=hairdresser', 'shop=barber'], ['barber', 'haircut', 'coiffeur', 'كوافير', 'صالون', 'حلاقة', '7ala2', 'kwafeer']),
  c('jewelry', 'Jewellery', 'مجوهرات', 'jewelry-store', 'shopping', ['shop=jewelry', 'shop=watches', 'shop=gold'], ['gold', 'jewelry', 'watches', 'دهب', 'ذهب', 'صاغة', 'dahab']),
  c('optician', 'Optician', 'نظارات', 'optician', 'shopping', ['shop=optician'], ['glasses', 'eyewear', 'بصريات', 'نضارة', 'nadara']),
  c('sports-shop', 'Sports shop', 'أدوات رياضية', 'shop', 'shopping', ['shop=sports', 'shop=outdoor', 'shop=bicycle'], ['sportswear', 'ملابس رياضية', 'riyada']),
  c('flowers-gifts', 'Flowers and gifts', 'ورد وهدايا', 'florist', 'shopping', ['shop=florist', 'shop=gift', 'shop=toys'], ['florist', 'gifts', 'toys', 'ورد', 'هدايا', 'لعب', 'ward', 'hadaya']),
  c('shop', 'Shop', 'محل', 'shop', 'shopping', ['shop=*'], ['store', 'shops', 'محلات', 'متجر', 'ma7al']),
  // health
  c('hospital', 'Hospital', 'مستشفى', 'hospital', 'health', ['amenity=hospital', 'healthcare=hospital'], ['emergency', 'er', 'مستشفيات', 'طوارئ', 'اسعاف', 'mostashfa', 'mustashfa', 'tawari2']),
  c('clinic', 'Clinic', 'عيادة', 'doctor', 'health', ['amenity=clinic', 'healthcare=clinic', 'amenity=doctors', 'healthcare=doctor', 'healthcare=centre', 'healthcare=laboratory'], ['doctor', 'medical centre', 'lab', 'laboratory', 'دكتور', 'طبيب', 'معمل تحاليل', 'مركز طبي', 'doktor', '3iyada', '3eyada']),
  c('dentist', 'Dentist', 'طبيب أسنان', 'dentist', 'health', ['amenity=dentist', 'healthcare=dentist'], ['dental', 'teeth', 'أسنان', 'دكتور أسنان', 'asnan']),
  c('pharmacy', 'Pharmacy', 'صيدلية', 'pharmacy', 'health', ['amenity=pharmacy', 'healthcare=pharmacy', 'shop=chemist'], ['chemist', 'drugstore', 'medicine', 'صيدليات', 'أجزخانة', 'دواء', 'saydaliya', 'saydalia', 'agzakhana']),
  c('veterinary', 'Veterinary', 'طبيب بيطري', 'veterinary', 'health', ['amenity=veterinary', 'shop=pet'], ['vet', 'pets', 'pet shop', 'بيطري', 'حيوانات أليفة', 'baytari']),
  // money
  c('bank', 'Bank', 'بنك', 'bank', 'money', ['amenity=bank'], ['banks', 'مصرف', 'بنوك', 'masraf', 'bnk']),
  c('atm', 'ATM', 'صراف آلي', 'bank', 'money', ['amenity=atm', 'atm=yes'], ['cash machine', 'cash', 'ماكينة صراف', 'فلوس', 'سحب', 'makanet sarraf', 'flous']),
  c('money-exchange', 'Money exchange', 'صرافة', 'bank', 'money', ['amenity=bureau_de_change', 'amenity=money_transfer'], ['exchange', 'currency', 'bureau de change', 'تحويل عملة', 'صرافة', 'sarafa']),
  // transport
  c('fuel', 'Fuel station', 'محطة وقود', 'fuel', 'transport', ['amenity=fuel'], ['gas station', 'petrol', 'benzine', 'بنزينة', 'بنزين', 'محطة بنزين', 'banzeena', 'benzina']),
  c('ev-charging', 'EV charging', 'شحن سيارات كهربائية', 'charging-station', 'transport', ['amenity=charging_station'], ['charger', 'electric car', 'شاحن', 'shahen']),
  c('parking', 'Parking', 'موقف سيارات', 'parking', 'transport', ['amenity=parking', 'amenity=parking_space', 'amenity=motorcycle_parking'], ['car park', 'garage', 'جراج', 'باركينج', 'garaj', 'parking']),
  c('car-repair', 'Car repair', 'ورشة سيارات', 'car-repair', 'transport', ['shop=car_repair', 'shop=tyres', 'shop=car_parts', 'amenity=car_wash'], ['mechanic', 'garage', 'tyres', 'car wash', 'ميكانيكي', 'كاوتش', 'غسيل سيارات', 'warsha', 'mikaniki']),
  c('car-dealer', 'Car dealer', 'معرض سيارات', 'car', 'transport', ['shop=car', 'shop=motorcycle', 'amenity=car_rental'], ['cars', 'car rental', 'عربيات', 'سيارات', 'تأجير سيارات', '3arabeyat']),
  c('bus-station', 'Bus station', 'محطة أتوبيس', 'bus', 'transport', ['amenity=bus_station'], ['bus', 'coach', 'أتوبيس', 'باص', 'otobees', 'bas']),
  c('taxi', 'Taxi', 'تاكسي', 'taxi', 'transport', ['amenity=taxi'], ['cab', 'تكسي', 'taxi']),
  // education
  c('school', 'School', 'مدرسة', 'school', 'education', ['amenity=school', 'amenity=kindergarten', 'amenity=childcare'], ['schools', 'kindergarten', 'nursery', 'مدارس', 'حضانة', 'madrasa', 'madrassa', '7adana']),
  c('university', 'University', 'جامعة', 'college', 'education', ['amenity=university', 'amenity=college'], ['college', 'faculty', 'institute', 'كلية', 'معهد', 'gam3a', 'jam3a', 'kolleya']),
  c('training', 'Training centre', 'مركز تدريب', 'school', 'education', ['amenity=language_school', 'amenity=driving_school', 'amenity=training', 'amenity=music_school'], ['courses', 'language school', 'driving school', 'كورسات', 'تعليم قيادة', 'korsat']),
  c('library', 'Library', 'مكتبة عامة', 'library', 'education', ['amenity=library'], ['public library', 'مكتبة', 'maktaba']),
  // worship
  c('mosque', 'Mosque', 'مسجد', 'religious-muslim', 'worship', ['religion=muslim'], ['masjid', 'jami', 'prayer', 'جامع', 'مصلى', 'صلاة', 'masged', 'gami3', 'jame3']),
  c('church', 'Church', 'كنيسة', 'religious-christian', 'worship', ['religion=christian'], ['cathedral', 'كاتدرائية', 'كنائس', 'kenisa', 'kaneesa']),
  c('place-of-worship', 'Place of worship', 'دار عبادة', 'place-of-worship', 'worship', ['amenity=place_of_worship'], ['temple', 'synagogue', 'معبد', 'عبادة']),
  // leisure
  c('park', 'Park', 'حديقة', 'park', 'leisure', ['leisure=park', 'leisure=garden', 'leisure=playground', 'leisure=common'], ['garden', 'playground', 'جنينة', 'منتزه', 'ملاهي', 'gneina', '7adi2a', 'hadiqa']),
  c('sports', 'Sports and fitness', 'رياضة ولياقة', 'fitness-centre', 'leisure', ['leisure=fitness_centre', 'leisure=sports_centre', 'leisure=pitch', 'leisure=stadium', 'leisure=swimming_pool', 'leisure=track', 'club=sport'], ['gym', 'fitness', 'stadium', 'pool', 'football', 'جيم', 'نادي', 'ملعب', 'حمام سباحة', 'gym', 'nady', 'mal3ab']),
  c('cinema', 'Cinema', 'سينما', 'cinema', 'leisure', ['amenity=cinema'], ['movies', 'film', 'أفلام', 'sinema', 'cinema']),
  c('theatre', 'Theatre and arts', 'مسرح وفنون', 'theatre', 'leisure', ['amenity=theatre', 'amenity=arts_centre', 'amenity=community_centre', 'amenity=events_venue', 'amenity=studio', 'amenity=social_centre'], ['theater', 'arts centre', 'venue', 'مسرح', 'قاعة', 'masra7']),
  c('museum', 'Museum', 'متحف', 'museum', 'leisure', ['tourism=museum', 'tourism=gallery'], ['gallery', 'exhibition', 'معرض', 'mat7af', 'mathaf']),
  c('attraction', 'Attraction', 'معلم سياحي', 'attraction', 'leisure', ['tourism=attraction', 'tourism=artwork', 'tourism=viewpoint', 'historic=*', 'amenity=fountain', 'tourism=theme_park', 'tourism=zoo'], ['landmark', 'sightseeing', 'monument', 'معالم', 'أثار', 'نصب تذكاري', 'ma3lam', 'asar']),
  c('entertainment', 'Entertainment', 'ترفيه', 'amusement-park', 'leisure', ['leisure=amusement_arcade', 'leisure=bowling_alley', 'leisure=water_park', 'amenity=nightclub', 'leisure=escape_game'], ['arcade', 'bowling', 'games', 'ملاهي', 'بولينج', 'العاب', 'malahy']),
  // lodging
  c('hotel', 'Hotel', 'فندق', 'lodging', 'lodging', ['tourism=hotel', 'tourism=motel', 'tourism=hostel', 'tourism=guest_house', 'tourism=apartment', 'tourism=chalet', 'tourism=caravan_site', 'tourism=camp_site'], ['lodging', 'stay', 'hostel', 'apartment', 'فنادق', 'شقة فندقية', 'نزل', 'fondo2', 'funduq']),
  // services
  c('post-office', 'Post office', 'مكتب بريد', 'post', 'services', ['amenity=post_office', 'amenity=post_box', 'shop=courier'], ['post', 'mail', 'courier', 'بوسطة', 'بريد', 'شحن', 'bosta', 'bareed']),
  c('laundry', 'Laundry', 'مغسلة', 'laundry', 'services', ['shop=laundry', 'shop=dry_cleaning'], ['dry cleaning', 'مكوجي', 'غسيل', 'makwagi', 'maghsala']),
  c('travel-agency', 'Travel agency', 'وكالة سفر', 'suitcase', 'services', ['shop=travel_agency'], ['travel', 'tickets', 'umrah', 'hajj', 'سياحة', 'تذاكر', 'عمرة', 'حج', 'siyaha']),
  c('office', 'Office', 'مكتب', 'building', 'services', ['office=*', 'craft=*', 'amenity=coworking_space'], ['company', 'business', 'شركة', 'مكاتب', 'shirka', 'maktab']),
  c('toilets', 'Toilets', 'دورة مياه', 'toilet', 'services', ['amenity=toilets', 'amenity=drinking_water'], ['restroom', 'wc', 'water', 'حمام', 'تواليت', 'مياه شرب', '7ammam']),
  // government and emergency
  c('police', 'Police', 'شرطة', 'police', 'government', ['amenity=police'], ['police station', 'قسم شرطة', 'قسم', 'بوليس', 'shorta', '2esm']),
  c('fire-station', 'Fire station', 'مطافئ', 'fire-station', 'government', ['amenity=fire_station'], ['firefighters', 'حريق', 'إطفاء', 'matafi']),
  c('government', 'Government office', 'جهة حكومية', 'town-hall', 'government', ['amenity=townhall', 'amenity=courthouse', 'office=government', 'amenity=embassy', 'office=diplomatic', 'amenity=social_facility', 'amenity=public_building'], ['city hall', 'court', 'embassy', 'ministry', 'حكومة', 'محكمة', 'سفارة', 'وزارة', 'حي', 'mahkama', 'sefara']),
  // what no tag above selects (amenity=fountain-like rarities): every place has a canonical category
  c('other', 'Place', 'مكان', 'marker', 'services', [], ['place', 'مكان']),
]);

/** The category of a place no tag of the taxonomy selects. */
export const FALLBACK_CATEGORY = 'other';

const BY_SLUG = new Map(PLACE_CATEGORIES.map((category) => [category.slug, category]));
/** `key=value` → category indexes, and `key` → indexes of its `key=*` categories. */
const BY_TAG = new Map<string, number[]>();
const BY_ANY_VALUE = new Map<string, number[]>();
PLACE_CATEGORIES.forEach((category, index) => {
  for (const selector of category.tags) {
    const [key, value] = selector.split('=') as [string, string];
    const map = value === '*' ? BY_ANY_VALUE : BY_TAG;
    const name = value === '*' ? key : selector;
    map.set(name, [...(map.get(name) ?? []), index]);
  }
});

export function categoryBySlug(slug: string): PlaceCategory | undefined {
  return BY_SLUG.get(slug);
}

/** Whether a slug names a category of the taxonomy. */
export function isCategorySlug(slug: string): boolean {
  return BY_SLUG.has(slug);
}

/**
 * The categories of an OSM element's tags, canonical first (table order). Empty when nothing matches
 * (the seeder then gives it the category its main key falls back to).
 */
export function categoriesOf(tags: Readonly<Record<string, string>>): PlaceCategory[] {
  const matched = new Set<number>();
  for (const [key, value] of Object.entries(tags)) {
    if (value === 'no') continue;
    for (const index of BY_TAG.get(`${key}=${value}`) ?? []) matched.add(index);
    // `key=*` selects only where no specific category of that key matched (shop=bakery is not also "shop")
    const any = BY_ANY_VALUE.get(key);
    if (any && !(BY_TAG.get(`${key}=${value}`)?.length)) for (const index of any) matched.add(index);
  }
  return [...matched].sort((a, b) => a - b).map((index) => PLACE_CATEGORIES[index]!);
}
