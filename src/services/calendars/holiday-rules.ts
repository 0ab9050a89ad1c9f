/**
 * How a holiday's dates are made: the rule kinds of the country tables and the
 * date arithmetic of the Gregorian and Christian ones. Hijri rules are dated by
 * the country's Hijri calendar (hijri-calendar.ts), library rules by date-holidays.
 */
import { type DayNumber, dayOf, weekdayOf } from './civil-days.js';

export const HOLIDAY_TYPES = ['public', 'religious', 'bank', 'national', 'observance'] as const;
export type HolidayType = (typeof HOLIDAY_TYPES)[number];

/** Hijri months a rule or an announcement may name. */
export const HIJRI_MONTH_NAMES: readonly { name: string; nameAr: string }[] = [
  { name: 'Muharram', nameAr: 'محرم' },
  { name: 'Safar', nameAr: 'صفر' },
  { name: "Rabi' al-Awwal", nameAr: 'ربيع الأول' },
  { name: "Rabi' al-Thani", nameAr: 'ربيع الآخر' },
  { name: 'Jumada al-Ula', nameAr: 'جمادى الأولى' },
  { name: 'Jumada al-Akhirah', nameAr: 'جمادى الآخرة' },
  { name: 'Rajab', nameAr: 'رجب' },
  { name: "Sha'ban", nameAr: 'شعبان' },
  { name: 'Ramadan', nameAr: 'رمضان' },
  { name: 'Shawwal', nameAr: 'شوال' },
  { name: "Dhu al-Qi'dah", nameAr: 'ذو القعدة' },
  { name: 'Dhu al-Hijjah', nameAr: 'ذو الحجة' },
];

export const RAMADAN = 9;
export const SHAWWAL = 10;
export const DHU_AL_HIJJAH = 12;

export interface HolidayRuleBase {
  /** Stable within a country: part of the holiday `id`. */
  key: string;
  name: string;
  nameAr: string;
  type: HolidayType;
  /** Default: true, except for observances. */
  affectsBusinessHours?: boolean;
  /** English name of the city the holiday is kept in; absent: nationwide. */
  city?: string;
  cityAr?: string;
  /** First and last Gregorian year the holiday was kept (inclusive). */
  since?: number;
  until?: number;
  /** Consecutive days off (default 1); the days after the first carry `followingName`. */
  days?: number;
  followingName?: string;
  followingNameAr?: string;
  /** An extra day off when the holiday falls on one of these weekdays (e.g. Saturday → the Sunday after). */
  observed?: { since?: number; shifts: readonly { weekday: number; by: number }[] };
}

export type HolidayRule = HolidayRuleBase &
  (
    | { kind: 'fixed'; month: number; day: number }
    /** `hijriDay` -1: the month's last day (29th or 30th). */
    | { kind: 'hijri'; hijriMonth: number; hijriDay: number }
    /** `onlyWhenEastersCoincide`: kept only in years when Western and Orthodox Easter fall on one day. */
    | { kind: 'easter'; church: 'western' | 'orthodox'; offset: number; onlyWhenEastersCoincide?: boolean }
    | { kind: 'nth-weekday'; month: number; weekday: number; nth: number }
    /** A rule of the date-holidays library, dated by it (Persian and Julian calendars). */
    | { kind: 'library'; libraryRule: string }
  );

export function activeIn(rule: HolidayRuleBase, year: number): boolean {
  return (rule.since === undefined || year >= rule.since) && (rule.until === undefined || year <= rule.until);
}

/** Western (Gregorian computus) Easter Sunday. */
export function westernEaster(year: number): DayNumber {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOf(year, month, day);
}

/** Orthodox (Julian computus) Easter Sunday, as a Gregorian date. */
export function orthodoxEaster(year: number): DayNumber {
  const a = year % 4;
  const b = year % 7;
  const c = year % 19;
  const d = (19 * c + 15) % 30;
  const e = (2 * a + 4 * b - d + 34) % 7;
  const month = Math.floor((d + e + 114) / 31);
  const day = ((d + e + 114) % 31) + 1;
  // Julian to Gregorian: 13 days from 1900-03-01 to 2100-02-28
  const julianOffset = Math.floor(year / 100) - Math.floor(year / 400) - 2;
  return dayOf(year, month, day) + julianOffset;
}

/** The nth (1-based; -1 = last) `weekday` (0 = Sunday) of a month. */
export function nthWeekday(year: number, month: number, weekday: number, nth: number): DayNumber {
  if (nth < 0) {
    const last = dayOf(year, month + 1, 1) - 1;
    return last - ((weekdayOf(last) - weekday + 7) % 7);
  }
  const first = dayOf(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + (nth - 1) * 7;
}

/** First days of a Gregorian rule (fixed, Easter-based, nth weekday) in `year`. */
export function gregorianFirstDay(rule: HolidayRule, year: number): DayNumber | undefined {
  switch (rule.kind) {
    case 'fixed':
      return dayOf(year, rule.month, rule.day);
    case 'easter': {
      const western = westernEaster(year);
      const orthodox = orthodoxEaster(year);
      if (rule.onlyWhenEastersCoincide && western !== orthodox) return undefined;
      return (rule.church === 'western' ? western : orthodox) + rule.offset;
    }
    case 'nth-weekday':
      return nthWeekday(year, rule.month, rule.weekday, rule.nth);
    default:
      return undefined;
  }
}
