/**
 * Short builders for the country tables: the Islamic holidays every country
 * keeps under the same names, and Gregorian and Christian rules in one line each.
 */
import { DHU_AL_HIJJAH, type HolidayRule, type HolidayRuleBase, type HolidayType, SHAWWAL } from './holiday-rules.js';

type Extra = Partial<HolidayRuleBase> & { hijriDay?: number; onlyWhenEastersCoincide?: boolean };

const hijri = (key: string, hijriMonth: number, hijriDay: number, name: string, nameAr: string, extra: Extra = {}): HolidayRule =>
  ({ kind: 'hijri', key, hijriMonth, hijriDay, name, nameAr, type: 'religious', ...extra }) as HolidayRule;

export const islamicNewYear = (extra: Extra = {}) => hijri('islamic-new-year', 1, 1, 'Islamic New Year', 'رأس السنة الهجرية', extra);
export const ashura = (extra: Extra = {}) => hijri('ashura', 1, 10, 'Ashura', 'عاشوراء', extra);
export const prophetsBirthday = (extra: Extra = {}) => hijri('prophets-birthday', 3, 12, "Prophet's Birthday", 'المولد النبوي الشريف', extra);
export const israMiraj = (extra: Extra = {}) => hijri('isra-miraj', 7, 27, "Isra' and Mi'raj", 'الإسراء والمعراج', extra);
export const arafah = (extra: Extra = {}) => hijri('arafah', DHU_AL_HIJJAH, 9, 'Arafat Day', 'يوم عرفة', extra);

export const eidAlFitr = (days: number, extra: Extra = {}) =>
  hijri('eid-al-fitr', SHAWWAL, 1, 'Eid al-Fitr', 'عيد الفطر', { days, followingName: 'Eid al-Fitr Holiday', followingNameAr: 'عطلة عيد الفطر', ...extra });

export const eidAlAdha = (days: number, extra: Extra = {}) =>
  hijri('eid-al-adha', DHU_AL_HIJJAH, 10, 'Eid al-Adha', 'عيد الأضحى', { days, followingName: 'Eid al-Adha Holiday', followingNameAr: 'عطلة عيد الأضحى', ...extra });

/** The Islamic holidays most countries of the region keep: new year, the Prophet's birthday, both Eids (with Arafah). */
export function commonIslamic(fitrDays: number, adhaDays: number, options: { arafah?: boolean; israMiraj?: boolean } = {}): HolidayRule[] {
  return [
    islamicNewYear(),
    prophetsBirthday(),
    ...(options.israMiraj ? [israMiraj()] : []),
    eidAlFitr(fitrDays),
    ...(options.arafah === false ? [] : [arafah()]),
    eidAlAdha(adhaDays),
  ];
}

export const fixed = (key: string, month: number, day: number, name: string, nameAr: string, type: HolidayType, extra: Extra = {}): HolidayRule =>
  ({ kind: 'fixed', key, month, day, name, nameAr, type, ...extra }) as HolidayRule;

export const easter = (key: string, church: 'western' | 'orthodox', offset: number, name: string, nameAr: string, extra: Extra = {}): HolidayRule =>
  ({ kind: 'easter', key, church, offset, name, nameAr, type: 'religious', ...extra }) as HolidayRule;

export const nthWeekdayRule = (key: string, month: number, weekday: number, nth: number, name: string, nameAr: string, type: HolidayType, extra: Extra = {}): HolidayRule =>
  ({ kind: 'nth-weekday', key, month, weekday, nth, name, nameAr, type, ...extra }) as HolidayRule;

export const newYearsDay = (extra: Extra = {}) => fixed('new-year', 1, 1, "New Year's Day", 'رأس السنة الميلادية', 'public', extra);
export const labourDay = (extra: Extra = {}) => fixed('labour-day', 5, 1, 'Labour Day', 'عيد العمال', 'public', extra);
export const christmas = (extra: Extra = {}) => fixed('christmas', 12, 25, 'Christmas Day', 'عيد الميلاد المجيد', 'religious', extra);
