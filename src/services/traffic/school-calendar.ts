/**
 * School breaks per country (docs/traffic.md, "School calendars"): the typical
 * breaks of each ministry of education's public-school year, as month-day
 * ranges that recur every year. Ministries publish each year's calendar a few
 * months ahead and move breaks by days from year to year, so these are the
 * usual pattern (±1 week), not a given year's decree; the table is data, to be
 * updated when a ministry changes its pattern. Religious breaks (the Eids,
 * Nowruz) come from the holiday calendar, not from here.
 */
import type { CountryCode } from '../calendars/country-profiles.js';

export interface SchoolBreak {
  /** `MM-DD`, inclusive; a break whose `to` is before its `from` runs over the new year. */
  from: string;
  to: string;
  name: string;
  nameAr: string;
}

export interface SchoolCalendar {
  source: string;
  breaks: readonly SchoolBreak[];
}

const summer = (from: string, to: string): SchoolBreak => ({ from, to, name: 'Summer school holiday', nameAr: 'العطلة الصيفية' });
const midYear = (from: string, to: string): SchoolBreak => ({ from, to, name: 'Mid-year school holiday', nameAr: 'عطلة منتصف العام الدراسي' });
const spring = (from: string, to: string): SchoolBreak => ({ from, to, name: 'Spring school holiday', nameAr: 'عطلة الربيع' });

export const SCHOOL_CALENDARS: Readonly<Record<CountryCode, SchoolCalendar>> = {
  JO: { source: 'Ministry of Education (moe.gov.jo), academic calendar', breaks: [midYear('12-28', '01-24'), summer('06-15', '08-23')] },
  PS: { source: 'Ministry of Education and Higher Education (moehe.gov.ps), academic calendar', breaks: [midYear('01-01', '01-14'), summer('06-01', '08-23')] },
  SA: { source: 'Ministry of Education (moe.gov.sa), three-term academic calendar', breaks: [midYear('01-09', '01-17'), spring('03-13', '03-21'), summer('06-26', '08-22')] },
  AE: { source: 'Ministry of Education (moe.gov.ae), unified academic calendar', breaks: [midYear('12-08', '01-04'), spring('03-16', '03-29'), summer('07-03', '08-24')] },
  QA: { source: 'Ministry of Education and Higher Education (edu.gov.qa), school calendar', breaks: [midYear('12-29', '01-08'), spring('03-09', '03-13'), summer('07-01', '08-24')] },
  KW: { source: 'Ministry of Education (moe.edu.kw), academic calendar', breaks: [midYear('01-23', '02-07'), summer('06-15', '09-14')] },
  BH: { source: 'Ministry of Education (moe.gov.bh), academic calendar', breaks: [midYear('01-09', '01-17'), summer('07-01', '09-01')] },
  OM: { source: 'Ministry of Education (moe.gov.om), academic calendar', breaks: [midYear('01-16', '01-24'), summer('06-15', '08-31')] },
  EG: { source: 'Ministry of Education and Technical Education (moe.gov.eg), academic calendar', breaks: [midYear('01-24', '02-05'), summer('06-15', '09-20')] },
  LB: { source: 'Ministry of Education and Higher Education (mehe.gov.lb), public-school calendar', breaks: [midYear('12-24', '01-06'), spring('04-01', '04-12'), summer('06-20', '09-14')] },
  IQ: { source: 'Ministry of Education (moedu.gov.iq), academic calendar', breaks: [midYear('01-20', '02-01'), summer('06-15', '09-30')] },
  SY: { source: 'Ministry of Education (moed.gov.sy), academic calendar', breaks: [midYear('01-10', '01-24'), summer('06-01', '09-01')] },
  YE: { source: 'Ministry of Education (Yemen), academic calendar', breaks: [midYear('01-10', '01-20'), summer('06-01', '08-31')] },
  TR: { source: 'Ministry of National Education (meb.gov.tr), çalışma takvimi', breaks: [midYear('01-19', '01-30'), spring('04-13', '04-17'), summer('06-20', '09-07')] },
  IR: { source: 'Ministry of Education (medu.gov.ir), school year 1 Mehr to 31 Khordad', breaks: [spring('03-20', '04-02'), summer('06-21', '09-22')] },
};

/** The school break a local date (`YYYY-MM-DD`) falls in, if any. */
export function schoolBreakOn(country: CountryCode, localDate: string): SchoolBreak | undefined {
  const monthDay = localDate.slice(5, 10);
  return SCHOOL_CALENDARS[country].breaks.find((entry) => (entry.from <= entry.to ? monthDay >= entry.from && monthDay <= entry.to : monthDay >= entry.from || monthDay <= entry.to));
}
