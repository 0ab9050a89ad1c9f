/**
 * Place catalogue records (spec part 2 §2.4): what the seeder builds from the map data pack, what the
 * store persists and the places service shapes. Coordinates are WGS84 degrees.
 */

export type OsmElementType = 'node' | 'way' | 'relation';

/** Where a name came from: tagged in OSM, or transliterated from the other script (marked in responses). */
export type NameSource = 'osm' | 'transliterated';

/** A mapped entrance of the place (OSM `entrance=*` node on its outline). */
export interface PlaceEntranceRecord {
  /** `node-<osm id>` */
  id: string;
  /** OSM `entrance=*` value: `main`, `service`, `yes`, `emergency`, … */
  type: string;
  label: string | null;
  lat: number;
  lng: number;
}

/** Opening hours as stored: the spec's weekly shape, the OSM value and whether every week is alike. */
export interface StoredOpeningHours {
  weekly: Record<string, string>;
  raw: string;
  weekStable: boolean;
  alwaysOpen: boolean;
}

/** What seeding knows of a place: everything but operator fields, slug and aggregates. */
export interface PlaceSeed {
  osmType: OsmElementType;
  osmId: number;
  nameEn: string | null;
  nameAr: string | null;
  nameEnSource: NameSource | null;
  nameArSource: NameSource | null;
  /** Category slugs, canonical first. */
  categories: string[];
  canonicalCategory: string;
  lat: number;
  lng: number;
  /** ISO alpha-2 (upper case) of the country the place lies in, when known. */
  countryCode: string | null;
  /** IANA zone its hours are read in. */
  timeZone: string;
  phone: string | null;
  website: string | null;
  openingHours: StoredOpeningHours | null;
  /** Open intervals of a week as [start, end) minutes from Monday 00:00 local time (empty without hours). */
  weekIntervals: [number, number][];
  /** Enabled amenity facet option slugs (`wheelchair`, `wifi`, `cuisine-pizza`, …). */
  amenities: string[];
  /** The OSM tags the place was read from (names, address, contact, …). */
  tags: Record<string, string>;
  entrances: PlaceEntranceRecord[];
  /** A short slug candidate from the name (the store makes it unique). */
  slugBase: string;
}

/** Claim states: `verified` is the spec's; `unclaimed` and `pending` are this product's (docs/places.md). */
export const CLAIM_STATUSES = ['unclaimed', 'pending', 'verified'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export interface PlaceRecord extends PlaceSeed {
  id: string;
  /** Stable URL slug: issued once, never changed. */
  slug: string;
  sponsored: boolean;
  claimStatus: ClaimStatus;
  /** Site path of the business's logo (`/uploads/...`), null until one is uploaded. */
  logoPath: string | null;
  /** Mean review rating, 0 without reviews. */
  rating: number;
  reviewCount: number;
  /** Popularity from search clicks and reviews (search ranking). */
  popularity: number;
  createdAt: string;
  updatedAt: string;
}
