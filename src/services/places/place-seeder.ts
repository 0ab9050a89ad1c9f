/**
 * Seeds the place catalogue from the map data pack's points of interest (layer `poi`: named `amenity`,
 * `shop`, `tourism`, `leisure`, `office`, `healthcare`, `craft` elements, all their tags kept). Keyed
 * by OSM element, so seeding again updates; it runs at start when the pack (its sha256) or the
 * seeder changed since the last seed.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import type { NameSource, OsmElementType, PlaceSeed } from '../../domain/place.js';
import type { Logger } from '../../shared/logger.js';
import type { PlaceRepository } from '../../store/pg/places.js';
import { COUNTRY_PROFILES, isCountryCode } from '../calendars/country-profiles.js';
import { amenitiesOf } from './place-amenities.js';
import { FALLBACK_CATEGORY, PLACE_CATEGORIES, categoriesOf } from './place-taxonomy.js';
import { parseOpeningHours } from './opening-hours.js';
import { PackEntrances } from './place-entrances.js';
import { arabicToLatin, latinToArabic, slugOf } from './transliterate.js';

/** Bump when what the seeder derives from the same tags changes: the next start re-seeds. */
export const SEEDER_VERSION = 2;
/** The zone of places outside the fifteen countries (spec part 2 §3 names Asia/Amman). */
export const DEFAULT_TIME_ZONE = 'Asia/Amman';
const SOURCE_KINDS: readonly (OsmElementType | undefined)[] = ['node', 'way', 'relation'];
const ARABIC = /[\u0600-\u06FF]/;
const BATCH = 500;

export type CountryResolver = (lat: number, lng: number) => string | undefined;

function clean(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, 300) : null;
}

/** English and Arabic names from `name`, `name:en`, `name:ar` (then brand), the missing one transliterated. */
export function namesOf(tags: Readonly<Record<string, string>>): Pick<PlaceSeed, 'nameEn' | 'nameAr' | 'nameEnSource' | 'nameArSource'> {
  const name = clean(tags.name) ?? clean(tags.brand);
  let nameEn = clean(tags['name:en']) ?? clean(tags['brand:en']) ?? (name && !ARABIC.test(name) ? name : null);
  let nameAr = clean(tags['name:ar']) ?? clean(tags['brand:ar']) ?? (name && ARABIC.test(name) ? name : null);
  let nameEnSource: NameSource | null = nameEn ? 'osm' : null;
  let nameArSource: NameSource | null = nameAr ? 'osm' : null;
  if (!nameEn && nameAr) {
    nameEn = arabicToLatin(nameAr);
    nameEnSource = 'transliterated';
  } else if (!nameAr && nameEn) {
    nameAr = latinToArabic(nameEn);
    nameArSource = 'transliterated';
  }
  return { nameEn, nameAr, nameEnSource, nameArSource };
}

function contactOf(tags: Readonly<Record<string, string>>): { phone: string | null; website: string | null } {
  const phone = clean(tags.phone ?? tags['contact:phone'] ?? tags.mobile ?? tags['contact:mobile']);
  let website = clean(tags.website ?? tags['contact:website'] ?? tags.url);
  // only web links: a tagged value without a scheme gets https, anything else is dropped
  if (website && !/^https?:\/\//i.test(website)) website = /^[\w.-]+\.[a-z]{2,}(\/\S*)?$/i.test(website) ? `https://${website}` : null;
  return { phone: phone?.split(';')[0]!.trim() ?? null, website };
}

/** One seed per named POI of the pack. */
export function seedsOf(pack: MapPack, countryAt: CountryResolver): PlaceSeed[] {
  const s = pack.sections;
  const [start, end] = pack.layerRange('poi');
  const seeds: PlaceSeed[] = [];
  const entrances = new PackEntrances(pack);
  for (let feature = start; feature < end; feature++) {
    const osmType = SOURCE_KINDS[s['features.sourceKind'][feature]!];
    if (!osmType) continue;
    const tags = pack.featureTags(feature);
    const names = namesOf(tags);
    if (!names.nameEn && !names.nameAr) continue;
    const [lng, lat] = pack.featurePosition(feature);
    const matched = categoriesOf(tags);
    const categories = matched.length ? matched.map((category) => category.slug) : [FALLBACK_CATEGORY];
    const country = countryAt(lat, lng)?.toUpperCase();
    const countryCode = country && isCountryCode(country) ? country : null;
    const hours = parseOpeningHours(tags.opening_hours);
    seeds.push({
      osmType,
      osmId: s['features.osmId'][feature]!,
      ...names,
      categories,
      canonicalCategory: categories[0]!,
      lat: Math.round(lat * 1e7) / 1e7,
      lng: Math.round(lng * 1e7) / 1e7,
      countryCode,
      timeZone: countryCode ? COUNTRY_PROFILES[countryCode].timeZone : DEFAULT_TIME_ZONE,
      ...contactOf(tags),
      openingHours: hours ? { weekly: hours.weekly, raw: hours.raw, weekStable: hours.weekStable, alwaysOpen: hours.alwaysOpen } : null,
      weekIntervals: hours?.weekIntervals ?? [],
      amenities: amenitiesOf(tags),
      tags,
      entrances: entrances.of(feature),
      slugBase: slugOf(names.nameEn ?? names.nameAr ?? `${osmType}-${s['features.osmId'][feature]}`),
    });
  }
  return seeds;
}

export interface SeedReport {
  seeded: boolean;
  places: number;
  inserted: number;
  updated: number;
  ms: number;
}

/** Seeds when the pack or the seeder changed since the last seed (or `force`). */
export async function seedPlaces(options: { pack: MapPack; repository: PlaceRepository; countryAt: CountryResolver; logger: Logger; force?: boolean }): Promise<SeedReport> {
  const started = performance.now();
  const { pack, repository, logger } = options;
  const stamp = `${pack.header.source.sha256}|seeder-${SEEDER_VERSION}|categories-${PLACE_CATEGORIES.length}`;
  if (!options.force && (await repository.seedStamp('map-pack')) === stamp) {
    return { seeded: false, places: 0, inserted: 0, updated: 0, ms: performance.now() - started };
  }
  await repository.replaceCategories(PLACE_CATEGORIES);
  const seeds = seedsOf(pack, options.countryAt);
  let inserted = 0;
  let updated = 0;
  for (let index = 0; index < seeds.length; index += BATCH) {
    const report = await repository.upsertSeeds(seeds.slice(index, index + BATCH));
    inserted += report.inserted;
    updated += report.updated;
  }
  await repository.recordSeed('map-pack', stamp, seeds.length);
  const ms = performance.now() - started;
  logger.info({ places: seeds.length, inserted, updated, ms: Math.round(ms) }, 'place catalogue seeded from the map data pack');
  return { seeded: true, places: seeds.length, inserted, updated, ms };
}
