/**
 * The fifteen countries of spec part 2 §4.5: timezone, weekend history and how
 * each sets the start of a Hijri month. Sources are listed in docs/calendars.md.
 */

export const COUNTRY_CODES = ['JO', 'SA', 'AE', 'QA', 'KW', 'BH', 'OM', 'EG', 'LB', 'PS', 'IQ', 'SY', 'YE', 'TR', 'IR'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

export const HIJRI_METHODS = ['umm_al_qura', 'follows', 'sighting', 'calculation', 'ihcu'] as const;
export type HijriMethod = (typeof HIJRI_METHODS)[number];

/** Where a country's crescent is looked for (sighting and calculation methods). */
export interface Observer {
  place: string;
  lat: number;
  lon: number;
}

export interface WeekendPeriod {
  /** First day (`YYYY-MM-DD`) this weekend applied; the oldest period has none. */
  since?: string;
  /** Weekdays, 0 = Sunday … 6 = Saturday. */
  days: readonly number[];
}

export interface CountryProfile {
  code: CountryCode;
  name: string;
  nameAr: string;
  timeZone: string;
  /** Newest first. */
  weekends: readonly WeekendPeriod[];
  hijri: {
    method: HijriMethod;
    /** The country whose month starts a `follows` country takes. */
    follows?: CountryCode;
    observer?: Observer;
    how: string;
  };
}

const FRI_SAT = [5, 6];
const THU_FRI = [4, 5];
const SAT_SUN = [6, 0];

const SIGHTING_HOW = (body: string, place: string) =>
  `${body} announces each month after the crescent is looked for on the evening of the 29th; until then the start is computed as expected: the crescent at least 5° above the horizon and 10.5° from the sun at sunset in ${place}.`;

export const COUNTRY_PROFILES: Readonly<Record<CountryCode, CountryProfile>> = {
  JO: {
    code: 'JO',
    name: 'Jordan',
    nameAr: 'الأردن',
    timeZone: 'Asia/Amman',
    weekends: [{ since: '2000-01-01', days: FRI_SAT }, { days: [5] }],
    hijri: { method: 'sighting', observer: { place: 'Amman', lat: 31.95, lon: 35.93 }, how: SIGHTING_HOW("Jordan's General Iftaa' Department", 'Amman') },
  },
  SA: {
    code: 'SA',
    name: 'Saudi Arabia',
    nameAr: 'السعودية',
    timeZone: 'Asia/Riyadh',
    weekends: [{ since: '2013-06-29', days: FRI_SAT }, { days: THU_FRI }],
    hijri: {
      method: 'umm_al_qura',
      how: 'The Umm al-Qura calendar (King Abdulaziz City for Science and Technology): a month begins the day after the 29th when, at Mecca, the conjunction precedes sunset and the moon sets after the sun. The Supreme Court announces Ramadan, Shawwal and Dhu al-Hijjah after sighting.',
    },
  },
  AE: {
    code: 'AE',
    name: 'United Arab Emirates',
    nameAr: 'الإمارات العربية المتحدة',
    timeZone: 'Asia/Dubai',
    weekends: [{ since: '2022-01-01', days: SAT_SUN }, { since: '2006-09-01', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'sighting', observer: { place: 'Abu Dhabi', lat: 24.45, lon: 54.38 }, how: SIGHTING_HOW("The UAE's Moon Sighting Committee", 'Abu Dhabi') },
  },
  QA: {
    code: 'QA',
    name: 'Qatar',
    nameAr: 'قطر',
    timeZone: 'Asia/Qatar',
    weekends: [{ since: '2003-09-01', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'follows', follows: 'SA', how: "Qatar's Crescent Sighting Committee (Ministry of Awqaf) declares the same month starts as Saudi Arabia; the calendar takes Saudi Arabia's." },
  },
  KW: {
    code: 'KW',
    name: 'Kuwait',
    nameAr: 'الكويت',
    timeZone: 'Asia/Kuwait',
    weekends: [{ since: '2007-09-01', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'follows', follows: 'SA', how: "Kuwait's Sharia Sighting Committee declares the same month starts as Saudi Arabia; the calendar takes Saudi Arabia's." },
  },
  BH: {
    code: 'BH',
    name: 'Bahrain',
    nameAr: 'البحرين',
    timeZone: 'Asia/Bahrain',
    weekends: [{ since: '2006-09-01', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'follows', follows: 'SA', how: "Bahrain's Supreme Council for Islamic Affairs declares the same month starts as Saudi Arabia; the calendar takes Saudi Arabia's." },
  },
  OM: {
    code: 'OM',
    name: 'Oman',
    nameAr: 'عُمان',
    timeZone: 'Asia/Muscat',
    weekends: [{ since: '2013-05-01', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'sighting', observer: { place: 'Muscat', lat: 23.59, lon: 58.41 }, how: SIGHTING_HOW("Oman's Main Committee for Sighting the Crescent (Ministry of Endowments and Religious Affairs)", 'Muscat') },
  },
  EG: {
    code: 'EG',
    name: 'Egypt',
    nameAr: 'مصر',
    timeZone: 'Africa/Cairo',
    weekends: [{ days: FRI_SAT }],
    hijri: {
      method: 'calculation',
      observer: { place: 'Cairo', lat: 30.04, lon: 31.24 },
      how: "Dar al-Ifta' announces from the astronomical calculation of the Egyptian Survey Authority: a month begins the day after the 29th when, at Cairo, the conjunction precedes sunset and the moon sets at least 5 minutes after the sun.",
    },
  },
  LB: {
    code: 'LB',
    name: 'Lebanon',
    nameAr: 'لبنان',
    timeZone: 'Asia/Beirut',
    weekends: [{ days: SAT_SUN }],
    hijri: { method: 'sighting', observer: { place: 'Beirut', lat: 33.89, lon: 35.5 }, how: SIGHTING_HOW("Dar al-Fatwa of the Lebanese Republic", 'Beirut') },
  },
  PS: {
    code: 'PS',
    name: 'Palestine',
    nameAr: 'فلسطين',
    timeZone: 'Asia/Hebron',
    weekends: [{ days: FRI_SAT }],
    hijri: { method: 'sighting', observer: { place: 'Jerusalem', lat: 31.78, lon: 35.23 }, how: SIGHTING_HOW('The Grand Mufti of Jerusalem and the Palestinian Territories', 'Jerusalem') },
  },
  IQ: {
    code: 'IQ',
    name: 'Iraq',
    nameAr: 'العراق',
    timeZone: 'Asia/Baghdad',
    weekends: [{ days: FRI_SAT }],
    hijri: { method: 'sighting', observer: { place: 'Baghdad', lat: 33.31, lon: 44.36 }, how: SIGHTING_HOW("Iraq's Sunni and Shia Endowment offices", 'Baghdad') },
  },
  SY: {
    code: 'SY',
    name: 'Syria',
    nameAr: 'سوريا',
    timeZone: 'Asia/Damascus',
    weekends: [{ days: FRI_SAT }],
    hijri: { method: 'sighting', observer: { place: 'Damascus', lat: 33.51, lon: 36.29 }, how: SIGHTING_HOW("Syria's Ministry of Awqaf", 'Damascus') },
  },
  YE: {
    code: 'YE',
    name: 'Yemen',
    nameAr: 'اليمن',
    timeZone: 'Asia/Aden',
    weekends: [{ since: '2013-08-15', days: FRI_SAT }, { days: THU_FRI }],
    hijri: { method: 'follows', follows: 'SA', how: "Yemen's Ministry of Endowments declares the same month starts as Saudi Arabia in most years; the calendar takes Saudi Arabia's." },
  },
  TR: {
    code: 'TR',
    name: 'Türkiye',
    nameAr: 'تركيا',
    timeZone: 'Europe/Istanbul',
    weekends: [{ days: SAT_SUN }],
    hijri: {
      method: 'ihcu',
      how: 'The Presidency of Religious Affairs (Diyanet) applies the criteria of the 2016 International Hijri Calendar Union congress: a month begins the next day everywhere when, somewhere on Earth before 00:00 UTC, the crescent is at least 5° above the horizon and 8° from the sun at sunset.',
    },
  },
  IR: {
    code: 'IR',
    name: 'Iran',
    nameAr: 'إيران',
    timeZone: 'Asia/Tehran',
    weekends: [{ days: [5] }],
    hijri: { method: 'sighting', observer: { place: 'Tehran', lat: 35.69, lon: 51.39 }, how: SIGHTING_HOW("The Office of the Supreme Leader's istihlal committee", 'Tehran') },
  },
};

export function isCountryCode(value: string): value is CountryCode {
  return (COUNTRY_CODES as readonly string[]).includes(value);
}
