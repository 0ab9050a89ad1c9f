/**
 * Country of a point, for the `country` / `country_code` address parts. An OSM
 * country boundary (admin_level 2) in the pack wins; `addr:country` on the data
 * comes next; this table of the region's countries (names and bounding boxes,
 * smallest box first so that Jordan wins over its neighbours' larger boxes)
 * is the last resort. Bounding boxes overlap at borders, which is why it is last.
 */
export interface Country {
  code: string;
  ar: string;
  en: string;
  /** west, south, east, north */
  bbox: [number, number, number, number];
}

export const COUNTRIES: Country[] = [
  { code: 'bh', ar: 'البحرين', en: 'Bahrain', bbox: [50.3, 25.5, 50.9, 26.4] },
  { code: 'ps', ar: 'فلسطين', en: 'Palestine', bbox: [34.2, 31.2, 35.6, 32.6] },
  { code: 'qa', ar: 'قطر', en: 'Qatar', bbox: [50.7, 24.4, 51.7, 26.2] },
  { code: 'lb', ar: 'لبنان', en: 'Lebanon', bbox: [35.1, 33.05, 36.65, 34.7] },
  { code: 'kw', ar: 'الكويت', en: 'Kuwait', bbox: [46.5, 28.5, 48.5, 30.1] },
  { code: 'jo', ar: 'الأردن', en: 'Jordan', bbox: [34.88, 29.18, 39.31, 33.38] },
  { code: 'ae', ar: 'الإمارات العربية المتحدة', en: 'United Arab Emirates', bbox: [51.5, 22.6, 56.4, 26.1] },
  { code: 'sy', ar: 'سوريا', en: 'Syria', bbox: [35.6, 32.3, 42.4, 37.4] },
  { code: 'om', ar: 'عمان', en: 'Oman', bbox: [51.9, 16.6, 59.9, 26.4] },
  { code: 'iq', ar: 'العراق', en: 'Iraq', bbox: [38.7, 29.0, 48.6, 37.4] },
  { code: 'eg', ar: 'مصر', en: 'Egypt', bbox: [24.7, 21.99, 36.9, 31.7] },
  { code: 'ye', ar: 'اليمن', en: 'Yemen', bbox: [42.5, 12.1, 54.0, 19.0] },
  { code: 'sa', ar: 'السعودية', en: 'Saudi Arabia', bbox: [34.5, 16.3, 55.7, 32.2] },
];

const BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

export function countryByCode(code: string | undefined): Country | undefined {
  return code ? BY_CODE.get(code.toLowerCase()) : undefined;
}

/** The first (smallest) country whose bounding box holds the point. */
export function countryAt(lon: number, lat: number): Country | undefined {
  return COUNTRIES.find(({ bbox }) => lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3]);
}
