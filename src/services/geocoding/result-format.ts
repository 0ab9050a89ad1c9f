/**
 * Shapes entries as the API shows them: Nominatim-compatible geocode results
 * (spec part 2 §2.1) and autocomplete suggestions (§2.2), in the caller's
 * language preference. Only geography is shown: address parts never carry a
 * business name or category, and raw tags are never copied out.
 */
import { countryAt, countryByCode } from './countries.js';
import { ARABIC } from './entry-names.js';
import type { GeoEntry } from './geo-entries.js';
import type { GeoIndex } from './geo-index.js';

export const ATTRIBUTION = 'Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright';

/** Parses `ar,en`, `en-US;q=0.8, ar` … into primary language subtags, first preferred. */
export function parseLocales(value: string | undefined, fallback: readonly string[] = ['ar', 'en']): string[] {
  // most calls give none: no split, no regular expressions
  if (!value) return [...fallback];
  const locales = value
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase().split(/[-_]/)[0]!)
    .filter((part) => /^[a-z]{2,3}$/.test(part));
  return locales.length ? [...new Set(locales)] : [...fallback];
}

/** The entry's name in the first language of the preference that has one, else its `name`. */
export function localName(entry: GeoEntry, locales: readonly string[]): string | undefined {
  for (const locale of locales) {
    const name = locale === 'ar' ? entry.names.ar : locale === 'en' ? entry.names.en : entry.tags?.[`name:${locale}`];
    if (name) return name;
  }
  return entry.names.name ?? entry.names.ar ?? entry.names.en ?? entry.names.all[0];
}

const ADMIN_LEVEL_PART: Record<number, string> = { 2: 'country', 3: 'region', 4: 'state', 5: 'county', 6: 'municipality', 7: 'city', 8: 'city', 9: 'city_district', 10: 'suburb' };
const PLACE_PART: Record<string, string> = {
  city: 'city',
  town: 'town',
  village: 'village',
  hamlet: 'hamlet',
  borough: 'borough',
  suburb: 'suburb',
  quarter: 'quarter',
  neighbourhood: 'neighbourhood',
  locality: 'locality',
  isolated_dwelling: 'hamlet',
};

export interface FormatContext {
  index: GeoIndex;
  locales: readonly string[];
}

/** Country code and name: an OSM country boundary enclosing the entry, else addr:country, else the region table. */
function countryOf(entry: GeoEntry, parents: readonly GeoEntry[], locales: readonly string[]): { code: string; name: string } | undefined {
  const english = locales.find((locale) => locale === 'ar' || locale === 'en') === 'en';
  const boundary = parents.find((parent) => parent.kind === 'admin' && parent.adminLevel === 2);
  const boundaryCode = (boundary?.tags?.['ISO3166-1'] ?? boundary?.tags?.['ISO3166-1:alpha2'])?.toLowerCase();
  const known = countryByCode(boundaryCode) ?? (boundary ? undefined : (countryByCode(entry.address?.country) ?? countryAt(entry.lon, entry.lat)));
  if (known) return { code: known.code, name: english ? known.en : known.ar };
  if (boundary && boundaryCode) return { code: boundaryCode, name: localName(boundary, locales) ?? boundaryCode };
  return undefined;
}

function streetName(context: FormatContext, entry: GeoEntry): string | undefined {
  const address = entry.address!;
  const street = address.street ? context.index.streetsByName.get(address.street) : undefined;
  for (const locale of context.locales) {
    if (locale === 'ar' && address.street && ARABIC.test(address.street)) return address.street;
    if (locale === 'en' && address['street:en']) return address['street:en'];
    if (street) {
      const name = localName(street, [locale]);
      if (name && (locale === 'ar' ? street.names.ar : locale === 'en' ? street.names.en : undefined)) return name;
    }
  }
  return address.street ?? address['street:en'];
}

/** Name of the entry itself: its own name, or house number and street for an address point. */
export function entryLabel(context: FormatContext, entry: GeoEntry): string {
  if (entry.kind === 'address') {
    const own = entry.names.all.length ? localName(entry, context.locales) : undefined;
    const line = `${entry.address!.housenumber} ${streetName(context, entry) ?? ''}`.trim();
    return own ? `${own}, ${line}` : line;
  }
  return localName(entry, context.locales) ?? '';
}

/** Address parts (Nominatim keys) and the display line, from the entry and its enclosing areas. */
export function describe(context: FormatContext, entry: GeoEntry, parentIds: readonly number[] = entry.parents) {
  const parents = parentIds.map((id) => context.index.entries[id]!);
  const address: Record<string, string> = {};
  const put = (key: string, value: string | undefined) => {
    if (value && address[key] === undefined) address[key] = value;
  };
  if (entry.kind === 'address') {
    put('house_number', entry.address!.housenumber);
    put('road', streetName(context, entry));
  } else if (entry.kind === 'street') put('road', localName(entry, context.locales));
  else if (entry.kind === 'building' && entry.names.all.length) put('building', localName(entry, context.locales));
  const selfPart = entry.kind === 'admin' ? ADMIN_LEVEL_PART[entry.adminLevel ?? 8] : entry.kind === 'place' ? PLACE_PART[entry.type] : undefined;
  if (selfPart) put(selfPart, localName(entry, context.locales));
  for (const parent of parents) {
    const key = parent.kind === 'admin' ? ADMIN_LEVEL_PART[parent.adminLevel ?? 8] : PLACE_PART[parent.type];
    if (key) put(key, localName(parent, context.locales));
  }
  if (entry.address) {
    const arabicFirst = context.locales[0] === 'ar';
    put('city', arabicFirst ? entry.address.city : (entry.address['city:en'] ?? entry.address.city));
    put('city_district', arabicFirst ? entry.address.district : (entry.address['district:en'] ?? entry.address.district));
    put('state', arabicFirst ? entry.address.province : (entry.address['province:en'] ?? entry.address.province));
    put('postcode', entry.address.postcode);
  }
  const country = countryOf(entry, parents, context.locales);
  if (country) {
    address.country = country.name;
    address.country_code = country.code;
  }
  const lines: string[] = [entryLabel(context, entry)];
  for (const parent of parents) {
    const name = localName(parent, context.locales);
    if (name && !lines.includes(name)) lines.push(name);
  }
  for (const key of ['city', 'state'] as const) if (address[key] && !lines.includes(address[key])) lines.push(address[key]);
  if (address.country && !lines.includes(address.country)) lines.push(address.country);
  const separator = context.locales[0] === 'ar' ? '، ' : ', ';
  return { address, displayName: lines.filter(Boolean).join(separator) };
}

const fixed = (value: number) => String(Math.round(value * 1e7) / 1e7);

/** A geocode result (spec part 2 §2.1; Nominatim field names). */
export function geocodeResult(context: FormatContext, entry: GeoEntry, options: { point?: { lon: number; lat: number }; parents?: readonly number[] } = {}) {
  const { address, displayName } = describe(context, entry, options.parents);
  const [west, south, east, north] = entry.bbox;
  const lon = options.point?.lon ?? entry.lon;
  const lat = options.point?.lat ?? entry.lat;
  return {
    place_id: entry.id + 1,
    licence: ATTRIBUTION,
    osm_type: entry.osmType,
    osm_id: entry.osmId,
    lat: fixed(lat),
    lon: fixed(lon),
    category: entry.category,
    type: entry.type,
    addresstype: entry.kind === 'admin' ? (ADMIN_LEVEL_PART[entry.adminLevel ?? 8] ?? 'administrative') : entry.kind === 'street' ? 'road' : entry.type,
    importance: Math.round(entry.importance * 1000) / 1000,
    name: entryLabel(context, entry),
    display_name: displayName,
    address,
    boundingbox: [fixed(south), fixed(north), fixed(west), fixed(east)],
  };
}

export type GeocodeResult = ReturnType<typeof geocodeResult>;

/** An autocomplete suggestion (spec part 2 §2.2). */
export function suggestion(context: FormatContext, entry: GeoEntry) {
  const { displayName } = describe(context, entry);
  return {
    id: `${entry.osmType}/${entry.osmId}`,
    label: displayName,
    name: entryLabel(context, entry),
    lat: entry.lat,
    lng: entry.lon,
    type: entry.kind === 'street' ? 'road' : entry.kind === 'admin' ? 'administrative' : entry.type,
    category: entry.category,
  };
}
