/**
 * Holidays of the Gulf countries and Yemen. Saudi Arabia, the UAE and Bahrain
 * take their Gregorian holidays from date-holidays (corrected here); Qatar,
 * Kuwait, Oman and Yemen are listed from their official calendars. Sources:
 * docs/calendars.md.
 */
import type { CountryHolidayTable } from './holiday-table.js';
import { arafah, ashura, commonIslamic, eidAlAdha, eidAlFitr, fixed, islamicNewYear, newYearsDay, nthWeekdayRule, prophetsBirthday, israMiraj, labourDay } from './rule-builders.js';

/** Saudi Arabia since 2016: a national holiday on a Friday adds the Thursday before, on a Saturday the Sunday after. */
const SAUDI_OBSERVED = (since: number) => ({ since, shifts: [{ weekday: 5, by: -1 }, { weekday: 6, by: 1 }] });

export const SA_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '02-22 since 2022': { key: 'founding-day', type: 'national', observed: SAUDI_OBSERVED(2022) },
      '09-23 since 2005': { key: 'national-day', type: 'national', observed: SAUDI_OBSERVED(2016) },
    },
  },
  rules: [eidAlFitr(4), arafah(), eidAlAdha(3)],
};

export const AE_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '01-01': { key: 'new-year' },
      '12-02': { key: 'national-day', type: 'national', days: 2, followingName: 'National Day Holiday', followingNameAr: 'عطلة اليوم الوطني' },
    },
  },
  rules: [
    fixed('commemoration-day', 11, 30, 'Commemoration Day', 'يوم الشهيد', 'national', { since: 2015, until: 2018 }),
    fixed('commemoration-day-dec', 12, 1, 'Commemoration Day', 'يوم الشهيد', 'national', { since: 2019, until: 2023 }),
    islamicNewYear(),
    prophetsBirthday(),
    israMiraj({ until: 2018 }),
    eidAlFitr(3),
    arafah(),
    eidAlAdha(3),
  ],
};

export const BH_HOLIDAYS: CountryHolidayTable = {
  library: {
    overrides: {
      '01-01': { key: 'new-year', nameAr: 'رأس السنة الميلادية' },
      '05-01': { key: 'labour-day', name: 'Labour Day' },
      '12-16': { key: 'national-day', type: 'national' },
      '12-17': { key: 'accession-day', type: 'national' },
    },
  },
  rules: [islamicNewYear(), ashura({ hijriDay: 9, days: 2 }), prophetsBirthday(), eidAlFitr(3), arafah(), eidAlAdha(3)],
};

export const QA_HOLIDAYS: CountryHolidayTable = {
  rules: [
    nthWeekdayRule('national-sports-day', 2, 2, 2, 'National Sports Day', 'اليوم الرياضي للدولة', 'national', { since: 2012 }),
    nthWeekdayRule('march-bank-holiday', 3, 0, 1, 'March Bank Holiday', 'عطلة البنوك في مارس', 'bank', { affectsBusinessHours: false }),
    fixed('independence-day', 9, 3, 'Independence Day', 'عيد الاستقلال', 'national', { until: 2006 }),
    fixed('national-day', 12, 18, 'National Day', 'اليوم الوطني', 'national', { since: 2007 }),
    eidAlFitr(3),
    arafah(),
    eidAlAdha(3),
  ],
};

export const KW_HOLIDAYS: CountryHolidayTable = {
  rules: [
    newYearsDay(),
    fixed('national-day', 2, 25, 'National Day', 'العيد الوطني', 'national'),
    fixed('liberation-day', 2, 26, 'Liberation Day', 'عيد التحرير', 'national', { since: 1991 }),
    ...commonIslamic(3, 3, { israMiraj: true }),
  ],
};

export const OM_HOLIDAYS: CountryHolidayTable = {
  rules: [
    fixed('accession-day', 1, 11, "Sultan's Accession Day", 'يوم تولي السلطان مقاليد الحكم', 'national', { since: 2021 }),
    fixed('renaissance-day', 7, 23, 'Renaissance Day', 'يوم النهضة', 'national', { until: 2020 }),
    fixed('national-day', 11, 18, 'National Day', 'العيد الوطني', 'national', { until: 2021, days: 2, followingName: 'National Day Holiday', followingNameAr: 'عطلة العيد الوطني' }),
    fixed('national-day-nov-20', 11, 20, 'National Day', 'العيد الوطني', 'national', { since: 2022, days: 2, followingName: 'National Day Holiday', followingNameAr: 'عطلة العيد الوطني' }),
    ...commonIslamic(3, 3, { israMiraj: true }),
  ],
};

export const YE_HOLIDAYS: CountryHolidayTable = {
  rules: [
    labourDay(),
    fixed('unity-day', 5, 22, 'Unity Day', 'العيد الوطني للجمهورية اليمنية', 'national', { since: 1990 }),
    fixed('september-revolution', 9, 26, 'Revolution Day', 'عيد ثورة 26 سبتمبر', 'national'),
    fixed('october-revolution', 10, 14, 'Liberation Day', 'عيد ثورة 14 أكتوبر', 'national'),
    fixed('independence-day', 11, 30, 'Independence Day', 'عيد الاستقلال', 'national'),
    islamicNewYear(),
    prophetsBirthday(),
    eidAlFitr(4),
    arafah(),
    eidAlAdha(4),
  ],
};
