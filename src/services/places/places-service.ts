/**
 * The place catalogue service (spec part 2 §2.4–2.6, §3, §4.4): lists with every filter of the §4.4
 * table, detail with entrances, arrival intelligence and the holiday of the day, hours, thumbnails,
 * amenity facets and the category list. Open state is computed at request time from the stored hours
 * in the place's own timezone; a holiday that affects business hours annotates the text, never the state.
 */
import type { PlaceRecord } from '../../domain/place.js';
import { ApiError } from '../../shared/errors.js';
import { roundTo } from '../../shared/rounding.js';
import { haversineMeters, initialBearingDegrees } from '../../solvers/graph/geodesy.js';
import type { ListedPlace, OpenNowFilter, PlaceListFilter, PlaceRepository } from '../../store/pg/places.js';
import type { CalendarService, HolidaySummary } from '../calendars/calendar-service.js';
import { COUNTRY_CODES, COUNTRY_PROFILES, isCountryCode } from '../calendars/country-profiles.js';
import { metricOf } from '../routing/engine-request.js';
import type { RoutingService } from '../routing/routing-service.js';
import { AMENITY_GROUPS, CUISINE_GROUP, amenityGroupOf, amenityLabel } from './place-amenities.js';
import type { PlacePhoto, PlaceQuestion, PlaceReview } from './place-content-responses.js';
import type { PlacesListQuery, PlaceOperatorBody } from './place-queries.js';
import { DEFAULT_TIME_ZONE } from './place-seeder.js';
import { PLACE_CATEGORIES, categoryBySlug, type PlaceCategory } from './place-taxonomy.js';
import { type OpenStatus, type TextLanguage, WEEKDAYS, localMinuteOfWeek, openStatusAt, openTextOf } from './opening-hours.js';

export const ATTRIBUTION = '© OpenStreetMap contributors, ODbL';
/** Places /places/facets reads at most. */
export const FACET_SCAN_CAP = 5_000;
/** How long the list of places with week-varying hours is reused for openNow (ms). */
const IRREGULAR_HOURS_TTL_MS = 60_000;
const ZONES = [...new Set([DEFAULT_TIME_ZONE, ...COUNTRY_CODES.map((code) => COUNTRY_PROFILES[code].timeZone)])];

/** The resolved picture of a place (spec §2.4 image resolution order). */
export interface PlaceImage {
  url: string;
  source: 'logo' | 'photo' | 'street';
  width: number | null;
  height: number | null;
  /** A featured photo (thumb `url` takes logo, else featured photo). */
  featured?: boolean;
}

/**
 * Pictures and user content of places. The catalogue itself knows logos only (none uploaded yet);
 * the user-content module (reviews, photos, Q&A) supplies the rest through this interface.
 */
export interface PlaceContentSource {
  /** Best approved photo per place: featured first, then oldest. */
  photosOf(placeIds: readonly string[]): Promise<Map<string, PlaceImage>>;
  /** Detail arrays (reviews, photos, questions) of one place. */
  contentOf(placeId: string, language: TextLanguage): Promise<{ reviews: PlaceReview[]; photos: PlacePhoto[]; questions: PlaceQuestion[] }>;
}

/** Until user content exists: no photos, empty arrays. */
export const NO_CONTENT: PlaceContentSource = {
  photosOf: async () => new Map(),
  contentOf: async () => ({ reviews: [], photos: [], questions: [] }),
};

export interface PlacesServiceDeps {
  repository: PlaceRepository;
  calendars: CalendarService;
  roads?: Pick<RoutingService, 'nearestRoad'>;
  content?: PlaceContentSource;
  /** Absolute site origin that relative upload paths are joined onto (`https://example.com`). */
  siteUrl: string;
  /** Absolute URL of a category's pin icon in a theme (map-data's category icons); undefined: none served. */
  iconUrl?: (category: PlaceCategory, theme: 'light' | 'dark') => string | null;
  now?: () => number;
}

/** `ar` when the first supported language asked for is Arabic, else `en`. */
export function languageOf(locale: string | undefined, acceptLanguage: string | undefined): TextLanguage {
  for (const source of [locale, acceptLanguage]) {
    if (!source) continue;
    for (const part of source.split(',')) {
      const tag = part.split(';')[0]!.trim().toLowerCase();
      if (tag.startsWith('ar')) return 'ar';
      if (tag.startsWith('en')) return 'en';
    }
  }
  return 'en';
}

const wkt = (lng: number, lat: number) => `POINT(${lng} ${lat})`;

export class PlacesService {
  private readonly repository: PlaceRepository;
  private readonly content: PlaceContentSource;
  private readonly now: () => number;
  private irregular?: { at: number; places: Promise<{ id: string; raw: string; timeZone: string }[]> };

  constructor(private readonly deps: PlacesServiceDeps) {
    this.repository = deps.repository;
    this.content = deps.content ?? NO_CONTENT;
    this.now = deps.now ?? Date.now;
  }

  /** The holiday of the place's country at an instant (nationwide), null on an ordinary day or outside the fifteen countries. */
  holidayOf(place: Pick<PlaceRecord, 'countryCode'>, atMs: number): HolidaySummary | null {
    const code = place.countryCode;
    if (!code || !isCountryCode(code)) return null;
    return this.deps.calendars.flags(code, atMs).holiday;
  }

  /** Open state and text of a place at an instant (null without hours). */
  openOf(place: Pick<PlaceRecord, 'openingHours' | 'timeZone' | 'countryCode'>, atMs: number, language: TextLanguage, holiday: HolidaySummary | null): { openState: OpenStatus['state'] | null; openText: string | null; status: OpenStatus | null } {
    const raw = place.openingHours?.raw;
    const status = raw ? openStatusAt(raw, atMs, place.timeZone) : undefined;
    if (!status) return { openState: null, openText: null, status: null };
    const holidayName = holiday?.affectsBusinessHours ? (language === 'ar' ? holiday.nameAr : holiday.name) : undefined;
    return { openState: status.state, openText: openTextOf(status, language, holidayName), status };
  }

  private icon(slug: string, theme: 'light' | 'dark'): string | null {
    const category = categoryBySlug(slug);
    return category && this.deps.iconUrl ? this.deps.iconUrl(category, theme) : null;
  }

  private absolute(path: string): string {
    return new URL(path, `${this.deps.siteUrl}/`).toString();
  }

  /** The resolved image: logo, then best approved photo (featured, then oldest), then street-level (none here). */
  private imageOf(place: PlaceRecord, photos: Map<string, PlaceImage>): PlaceImage | null {
    if (place.logoPath) return { url: this.absolute(place.logoPath), source: 'logo', width: null, height: null };
    return photos.get(place.id) ?? null;
  }

  /** The list/detail shape of spec §2.4. */
  private shape(place: ListedPlace, atMs: number, language: TextLanguage, photos: Map<string, PlaceImage>, holiday: HolidaySummary | null) {
    const image = this.imageOf(place, photos);
    const open = this.openOf(place, atMs, language, holiday);
    const category = categoryBySlug(place.canonicalCategory);
    return {
      id: place.id,
      slug: place.slug,
      nameEn: place.nameEn,
      nameAr: place.nameAr,
      /** Which names were transliterated from the other script rather than tagged. */
      nameTransliterated: { en: place.nameEnSource === 'transliterated', ar: place.nameArSource === 'transliterated' },
      name: (language === 'ar' ? place.nameAr : place.nameEn) ?? place.nameEn ?? place.nameAr,
      logoUrl: place.logoPath,
      imageUrl: image?.url ?? null,
      imageSource: image?.source ?? null,
      imageWidth: image?.width ?? null,
      imageHeight: image?.height ?? null,
      categories: place.categories,
      canonicalCategorySlug: place.canonicalCategory,
      categoryName: category ? (language === 'ar' ? category.nameAr : category.nameEn) : null,
      iconLightUrl: this.icon(place.canonicalCategory, 'light'),
      iconDarkUrl: this.icon(place.canonicalCategory, 'dark'),
      center: wkt(place.lng, place.lat),
      address: addressOf(place.tags, language),
      contact: { phone: place.phone, website: place.website },
      openingHours: place.openingHours ? { weekly: inWeekOrder(place.openingHours.weekly), raw: place.openingHours.raw, timeZone: place.timeZone } : null,
      openState: open.openState,
      openText: open.openText,
      amenities: place.amenities.filter((slug) => amenityGroupOf(slug) !== undefined),
      sponsored: place.sponsored,
      claimStatus: place.claimStatus,
      rating: place.rating,
      reviewCount: place.reviewCount,
      entrances: place.entrances.map((entrance) => ({ id: entrance.id, type: entrance.type, label: entrance.label, location: wkt(entrance.lng, entrance.lat) })),
      osm: { type: place.osmType, id: place.osmId },
      ...(place.distanceKm !== undefined ? { distanceKm: roundTo(place.distanceKm, 3) } : {}),
    };
  }

  private async irregularOpenIds(atMs: number): Promise<string[]> {
    const now = this.now();
    if (!this.irregular || now - this.irregular.at > IRREGULAR_HOURS_TTL_MS) this.irregular = { at: now, places: this.repository.irregularHours() };
    const places = await this.irregular.places;
    return places.filter((place) => (openStatusAt(place.raw, atMs, place.timeZone)?.state ?? 'closed') !== 'closed').map((place) => place.id);
  }

  /** The openNow filter at an instant: each zone's minute of the week, and the week-varying places open then. */
  async openNowFilter(atMs: number): Promise<OpenNowFilter> {
    return { zones: ZONES.map((timeZone) => ({ timeZone, minuteOfWeek: localMinuteOfWeek(atMs, timeZone) })), openIrregularIds: await this.irregularOpenIds(atMs) };
  }

  /** Places in the list shape of spec §2.4 (search shapes its results with it too). */
  async shapeList(items: readonly ListedPlace[], atMs: number, language: TextLanguage) {
    const photos = await this.content.photosOf(items.map((place) => place.id));
    return items.map((place) => this.shape(place, atMs, language, photos, this.holidayOf(place, atMs)));
  }

  /** GET /places */
  async list(query: PlacesListQuery, language: TextLanguage) {
    const atMs = query.at ?? this.now();
    const filter: PlaceListFilter = {
      q: query.q || undefined,
      sponsored: query.sponsored,
      category: query.category,
      amenities: query.amenities,
      minRating: query.minRating,
      near: query.near,
      radiusKm: query.radiusKm,
      sort: query.sort,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    };
    if (query.openNow) filter.openNow = await this.openNowFilter(atMs);
    const page = await this.repository.list(filter);
    return {
      items: await this.shapeList(page.items, atMs, language),
      total: page.total,
      page: query.page,
      limit: query.limit,
      q: query.q || null,
      sponsored: query.sponsored ?? null,
      category: query.category ?? null,
      amenities: query.amenities ?? [],
      openNow: query.openNow,
      sort: query.near ? 'distance' : query.sort,
      minRating: query.minRating ?? null,
      near: query.near ? `${query.near.lat},${query.near.lng}` : null,
      radiusKm: query.radiusKm ?? null,
      attribution: ATTRIBUTION,
    };
  }

  /** A place by its slug, or by the OSM element slug navigation uses (`way-31820663`). */
  async find(slug: string): Promise<PlaceRecord | null> {
    const place = await this.repository.findBySlug(slug);
    if (place) return place;
    const element = /^(node|way|relation)[-/]([1-9][0-9]{0,14})$/.exec(slug);
    return element ? this.repository.findByOsm(element[1]!, Number(element[2])) : null;
  }

  /** GET /places/{slug}: detail, or null for an unknown slug. */
  async detail(slug: string, options: { atMs?: number; language: TextLanguage; signal?: AbortSignal }) {
    const place = await this.find(slug);
    if (!place) return null;
    const atMs = options.atMs ?? this.now();
    const holiday = this.holidayOf(place, atMs);
    const [photos, content, arrival] = await Promise.all([
      this.content.photosOf([place.id]),
      this.content.contentOf(place.id, options.language),
      this.arrivalOf(place, options.language, options.signal),
    ]);
    return {
      ...this.shape(place, atMs, options.language, photos, holiday),
      holiday,
      tags: publicTags(place.tags),
      reviews: content.reviews,
      photos: content.photos,
      questions: content.questions,
      arrivalIntelligence: arrival,
      attribution: ATTRIBUTION,
    };
  }

  /** GET /places/{slug}/hours */
  async hours(slug: string, options: { atMs?: number; language: TextLanguage }) {
    const place = await this.find(slug);
    if (!place) return null;
    const atMs = options.atMs ?? this.now();
    const holiday = this.holidayOf(place, atMs);
    const open = this.openOf(place, atMs, options.language, holiday);
    return {
      slug: place.slug,
      timeZone: place.timeZone,
      available: place.openingHours !== null,
      weekly: place.openingHours ? inWeekOrder(place.openingHours.weekly) : null,
      raw: place.openingHours?.raw ?? null,
      weekStable: place.openingHours?.weekStable ?? null,
      alwaysOpen: place.openingHours?.alwaysOpen ?? null,
      openState: open.openState,
      openText: open.openText,
      nextChange: open.status?.next ? { weekday: open.status.next.weekday, time: open.status.next.time, inMinutes: open.status.next.inMinutes } : null,
      holiday,
      weekdays: [...WEEKDAYS],
    };
  }

  /** GET /places/thumb: unknown slug gives every field null. */
  async thumb(slug: string, options: { atMs?: number; language: TextLanguage }) {
    const place = await this.find(slug);
    if (!place) return { url: null, source: null, rating: null, openState: null, openText: null, holiday: null, imageUrl: null, imageSource: null, imageWidth: null, imageHeight: null };
    const atMs = options.atMs ?? this.now();
    const photos = await this.content.photosOf([place.id]);
    const image = this.imageOf(place, photos);
    // url: logo, else featured photo, else null (never a street frame)
    const thumb = image && (image.source === 'logo' || (image.source === 'photo' && image.featured)) ? image : null;
    const holiday = this.holidayOf(place, atMs);
    const open = this.openOf(place, atMs, options.language, holiday);
    return {
      url: thumb?.url ?? null,
      source: (thumb?.source ?? null) as 'logo' | 'photo' | null,
      rating: place.rating > 0 ? place.rating : null,
      openState: open.openState,
      openText: open.openText,
      holiday,
      imageUrl: image?.url ?? null,
      imageSource: image?.source ?? null,
      imageWidth: image?.width ?? null,
      imageHeight: image?.height ?? null,
    };
  }

  /** GET /places/facets: enabled options counted over at most FACET_SCAN_CAP places matching `q`; options by count. */
  async facets(q: string | undefined, language: TextLanguage) {
    const { rows, capped } = await this.repository.facetScan(q || undefined, FACET_SCAN_CAP);
    const groups = [...AMENITY_GROUPS.map((group) => ({ id: group.id, en: group.en, ar: group.ar })), CUISINE_GROUP];
    const counts = new Map<string, Map<string, number>>(groups.map((group) => [group.id, new Map()]));
    const totals = new Map<string, number>();
    for (const row of rows) {
      for (const slug of row.amenities) {
        const group = amenityGroupOf(slug);
        if (group) counts.get(group.id)!.set(slug, (counts.get(group.id)!.get(slug) ?? 0) + 1);
        else if (counts.has(slug)) totals.set(slug, (totals.get(slug) ?? 0) + 1);
      }
    }
    return {
      scanned: rows.length,
      capped,
      groups: groups.map((group) => ({
        id: group.id,
        name: group[language],
        total: totals.get(group.id) ?? 0,
        options: [...counts.get(group.id)!]
          .map(([slug, count]) => ({ slug, label: amenityLabel(slug, language)!, count }))
          .sort((a, b) => b.count - a.count || a.slug.localeCompare(b.slug)),
      })),
    };
  }

  /** GET /places/categories */
  categories(language: TextLanguage) {
    return {
      count: PLACE_CATEGORIES.length,
      categories: PLACE_CATEGORIES.map((category) => ({
        slug: category.slug,
        name: language === 'ar' ? category.nameAr : category.nameEn,
        nameEn: category.nameEn,
        nameAr: category.nameAr,
        group: category.group,
        icon: category.icon,
        iconLightUrl: this.deps.iconUrl?.(category, 'light') ?? null,
        iconDarkUrl: this.deps.iconUrl?.(category, 'dark') ?? null,
        aliases: [...category.aliases],
        osmTags: [...category.tags],
      })),
    };
  }

  /** PATCH /admin/places/{slug} */
  async setOperatorFields(slug: string, body: PlaceOperatorBody) {
    const place = await this.repository.setOperatorFields(slug, body);
    if (!place) throw new ApiError('NOT_FOUND', { message: `No place has the slug ${slug}` });
    return { slug: place.slug, sponsored: place.sponsored, claimStatus: place.claimStatus, priceLevel: place.priceLevel, updatedAt: place.updatedAt };
  }

  /**
   * Where to arrive (spec §2.4 `arrivalIntelligence`): the recommended entrance (a mapped one when the
   * place has any), and the last 50 metres from the road network: the nearest point a car and a walker
   * can reach, its street, distance and side. Null when routing is not configured.
   */
  private async arrivalOf(place: PlaceRecord, language: TextLanguage, signal?: AbortSignal) {
    const roads = this.deps.roads;
    if (!roads) return null;
    const access = async (costing: 'auto' | 'pedestrian') => {
      try {
        const road = await roads.nearestRoad(metricOf(costing, undefined), { lat: place.lat, lon: place.lng, searchCutoffMeters: 1_000 }, language, signal);
        return road ?? null;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'CLIENT_CLOSED_REQUEST') throw error;
        return null;
      }
    };
    const [car, foot] = await Promise.all([access('auto'), access('pedestrian')]);
    const entrance = place.entrances.find((candidate) => candidate.type === 'main') ?? place.entrances[0] ?? null;
    const target = entrance ?? { lat: place.lat, lng: place.lng };
    const describe = (road: typeof car) => {
      if (!road) return null;
      const distanceM = roundTo(haversineMeters(road.lat, road.lon, target.lat, target.lng), 1);
      const side = compassOf(initialBearingDegrees(road.lat, road.lon, target.lat, target.lng));
      return { location: { lng: roundTo(road.lon, 7), lat: roundTo(road.lat, 7) }, streetName: road.streetName, distanceM, direction: COMPASS.en[side]!, side };
    };
    const byCar = describe(car);
    const onFoot = describe(foot);
    const last = onFoot ?? byCar;
    return {
      recommendedEntrance: entrance
        ? { id: entrance.id, type: entrance.type, label: entrance.label, location: { lng: entrance.lng, lat: entrance.lat }, source: 'osm' }
        : { id: null, type: 'place', label: null, location: { lng: place.lng, lat: place.lat }, source: 'place-point' },
      lastFiftyMeters: last ? guidanceOf(last, entrance !== null, language) : null,
      dropOff: byCar && strip(byCar),
      walkingAccess: onFoot && strip(onFoot),
    };
  }
}

/** Monday to Sunday (jsonb keeps object keys in its own order). */
function inWeekOrder(weekly: Record<string, string>): Record<string, string> {
  return Object.fromEntries(WEEKDAYS.map((weekday) => [weekday, weekly[weekday] ?? 'closed']));
}

const COMPASS: Record<TextLanguage, string[]> = {
  en: ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'],
  ar: ['الشمال', 'الشمال الشرقي', 'الشرق', 'الجنوب الشرقي', 'الجنوب', 'الجنوب الغربي', 'الغرب', 'الشمال الغربي'],
};

function compassOf(bearing: number): number {
  return Math.round((((bearing % 360) + 360) % 360) / 45) % 8;
}

/** The public part of an access point (the compass index is internal). */
function strip<T extends { side: number }>(access: T): Omit<T, 'side'> {
  const { side: _side, ...rest } = access;
  return rest;
}

function guidanceOf(road: { streetName: string | null; distanceM: number; side: number }, mappedEntrance: boolean, language: TextLanguage): string {
  const metres = Math.round(road.distanceM);
  const target = mappedEntrance ? (language === 'ar' ? 'المدخل' : 'the entrance') : language === 'ar' ? 'المكان' : 'the place';
  if (language === 'ar') {
    const street = road.streetName ? `من ${road.streetName}` : 'من أقرب طريق';
    return metres < 5 ? `${target} على الطريق مباشرة ${street}` : `${street}، ${target} على بعد ${metres} م باتجاه ${COMPASS.ar[road.side]}`;
  }
  const street = road.streetName ? `From ${road.streetName}` : 'From the nearest road';
  return metres < 5 ? `${street}, ${target} is right at the road` : `${street}, ${target} is ${metres} m to the ${COMPASS.en[road.side]}`;
}

/** Address lines from `addr:*` tags, in the language when tagged so. */
function addressOf(tags: Readonly<Record<string, string>>, language: TextLanguage): string | null {
  const pick = (key: string) => (language === 'en' ? tags[`${key}:en`] : tags[`${key}:ar`]) ?? tags[key];
  const street = pick('addr:street');
  const number = tags['addr:housenumber'];
  const parts = [street && number ? `${number} ${street}` : street ?? (number ? number : undefined), pick('addr:district') ?? pick('addr:suburb'), pick('addr:city')].filter(Boolean);
  return parts.length ? parts.join(language === 'ar' ? '، ' : ', ') : null;
}

/** OSM tags a detail shows: descriptive ones, no import bookkeeping. */
function publicTags(tags: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).filter(([key]) => !/^(addr:(province|country)|brand:wikidata|wikidata|layer|name_\d)/.test(key)));
}
