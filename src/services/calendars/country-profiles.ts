/**
 * The fifteen countries of spec part 2 §4.5: timezone, weekend history and how
 * each sets the start of a Hijri month. Sources are listed in docs/calendars.md.
 */

export const COUNTRY_CODES = ['JO', 'SA', 'AE', 'QA', 'KW', 'BH', 'OM', 'EG', 'LB', 'PS', 'IQ', 'SY', 'YE', 'TR', 'IR'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

export const HIJRI_METHODS = ['umm_al_qura', 'follows', 'sighting', 'calculation', 'ihcu'] as const;
export type HijriMethod = (typeof HIJRI_METHODS)[number];

import { EARLY_CRESCENT, MOON_ABOVE_HORIZON, NAKED_EYE_CRESCENT, type VisibilityCriterion } from './crescent.js';

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
    /** Sighting countries: what the expected start assumes the committee will accept. */
    criterion?: VisibilityCriterion;
    how: string;
  };
}

const FRI_SAT = [5, 6];
const THU_FRI = [4, 5];
const SAT_SUN = [6, 0];

/** A sighting country: its committee, its capital, and what its expected starts assume. */
function sighting(body: string, observer: Observer, criterion: VisibilityCriterion): CountryProfile['hijri'] {
  const expectation =
    criterion === NAKED_EYE_CRESCENT
      ? `the crescent at least ${criterion.minAltitude}° above the horizon and ${criterion.minElongation}° from the sun at sunset in ${observer.place}`
      : criterion.minElongation > 0
        ? `the conjunction before sunset and the moon above the horizon at sunset, at least ${criterion.minElongation}° from the sun, in ${observer.place}`
        : `the conjunction before sunset and the moon setting after the sun in ${observer.place}`;
  return { method: 'sighting', observer, criterion, how: `${body} announces each month after the crescent is looked for on the evening of the 29th; until then the start is computed as expected: ${expectation}.` };
}

export const COUNTRY_PROFILES: Readonly<Record<CountryCode, CountryProfile>> = {
  JO: {
    code: 'JO',
    name: 'Jordan',
    nameAr: 'الأردن',
    timeZone: 'Asia/Amman',
    weekends: [{ since: '2000-01-01', days: FRI_SAT }, { days: [5] }],
    hijri: sighting("Jordan's General Iftaa' Department", { place: 'Amman', lat: 31.95, lon: 35.93 }, MOON_ABOVE_HORIZON),
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
    hijri: sighting("The UAE's Moon Sighting Committee", { place: 'Abu Dhabi', lat: 24.45, lon: 54.38 }, MOON_ABOVE_HORIZON),
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
    hijri: sighting("Oman's Main Committee for Sighting the Crescent (Ministry of Endowments and Religious Affairs)", { place: 'Muscat', lat: 23.59, lon: 58.41 }, NAKED_EYE_CRESCENT),
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
    hijri: sighting('Dar al-Fatwa of the Lebanese Republic', { place: 'Beirut', lat: 33.89, lon: 35.5 }, EARLY_CRESCENT),
  },
  PS: {
    code: 'PS',
    name: 'Palestine',
    nameAr: 'فلسطين',
    timeZone: 'Asia/Hebron',
    weekends: [{ days: FRI_SAT }],
    hijri: sighting('The Grand Mufti of Jerusalem and the Palestinian Territories', { place: 'Jerusalem', lat: 31.78, lon: 35.23 }, MOON_ABOVE_HORIZON),
  },
  IQ: {
    code: 'IQ',
    name: 'Iraq',
    nameAr: 'العراق',
    timeZone: 'Asia/Baghdad',
    weekends: [{ days: FRI_SAT }],
    hijri: sighting("Iraq's Sunni and Shia Endowment offices", { place: 'Baghdad', lat: 33.31, lon: 44.36 }, NAKED_EYE_CRESCENT),
  },
  SY: {
    code: 'SY',
    name: 'Syria',
    nameAr: 'سوريا',
    timeZone: 'Asia/Damascus',
    weekends: [{ days: FRI_SAT }],
    hijri: sighting("Syria's Ministry of Awqaf", { place: 'Damascus', lat: 33.51, lon: 36.29 }, MOON_ABOVE_HORIZON),
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
    hijri: sighting("The Office of the Supreme Leader's istihlal committee", { place: 'Tehran', lat: 35.69, lon: 51.39 }, NAKED_EYE_CRESCENT),
  },
};

export function isCountryCode(value: string): value is CountryCode {
  return (COUNTRY_CODES as readonly string[]).includes(value);
}
