/**
 * The analysed-traffic model's pure rules (docs/traffic.md, "Analysed
 * traffic"): expected traffic is the learned speed ratio of an area at a
 * moment, its extra travel time (1/ratio − 1) then scaled by documented
 * multipliers for what the learned profiles cannot know or have not seen:
 * Eid and public holidays (only where no holiday profile was learned), school
 * breaks, the hour before and after iftar (only where no Ramadan profile was
 * learned), the month, and the weather. No I/O.
 */
import type { CountryCode } from '../calendars/country-profiles.js';
import type { WeatherCondition } from '../weather/weather-conditions.js';
import type { ProfileType } from '../../domain/traffic.js';
import { bandOf, type Congestion, type TrafficLabel } from './traffic-model.js';

export const ANALYSED_PROVIDER = 'svc-analysed-traffic';

/** Multipliers of the extra travel time (1.0: no change; below 1: lighter traffic). */
export const ANALYSED_MULTIPLIERS = Object.freeze({
  eid: 0.45,
  publicHoliday: 0.6,
  /** School-run hours (local 06–08 and 13–14) of a working day in a school break. */
  schoolBreakSchoolRun: 0.75,
  /** The other hours of a working day in a school break. */
  schoolBreakOther: 0.92,
  /** The hour before iftar: the rush home. */
  beforeIftar: 1.35,
  /** The hour after iftar: everyone is at the table. */
  afterIftar: 0.35,
});

export const WEATHER_MULTIPLIERS: Readonly<Record<WeatherCondition, number>> = Object.freeze({ clear: 1, rain: 1.25, fog: 1.3, dust: 1.35, heavy_rain: 1.6, snow: 2, storm: 1.8 });

const GULF: ReadonlySet<CountryCode> = new Set(['SA', 'AE', 'QA', 'KW', 'BH', 'OM']);
/** Month multipliers (1-based month): the Gulf's July–August summer departures; no other month effect is assumed. */
export function monthMultiplier(country: CountryCode, month: number): number {
  return GULF.has(country) && (month === 7 || month === 8) ? 0.85 : 1;
}

const SCHOOL_RUN_HOURS = new Set([6, 7, 8, 13, 14]);

export interface AnalysedContext {
  country: CountryCode;
  /** Local hour 0–23 and month 1–12. */
  hour: number;
  month: number;
  /** The profile type the learned ratio came from. */
  learnedType: ProfileType;
  isWeekend: boolean;
  holidayName: string | null;
  isEid: boolean;
  schoolBreak: string | null;
  isRamadan: boolean;
  /** Minutes from iftar to the moment (negative before); null when not a Ramadan day or unknown. */
  minutesFromIftar: number | null;
  weather: WeatherCondition | null;
}

export interface Adjustment {
  factor: 'eid' | 'public-holiday' | 'school-break' | 'before-iftar' | 'after-iftar' | 'month' | 'weather';
  multiplier: number;
  reason: string;
}

export interface ExpectedTraffic {
  speedRatio: number;
  /** Extra travel time over free flow, percent. */
  delayPct: number;
  congestion: Exclude<Congestion, 'unknown'>;
  label: TrafficLabel;
}

const EID = /\bEid al-(Fitr|Adha)\b/i;
export function isEidName(name: string | null | undefined): boolean {
  return Boolean(name && EID.test(name) && !/^Eve of/i.test(name));
}

/** The multipliers that apply in a context, each with its reason. */
export function adjustmentsFor(context: AnalysedContext): Adjustment[] {
  const out: Adjustment[] = [];
  if (context.holidayName && context.learnedType !== 'holiday') {
    out.push(
      context.isEid
        ? { factor: 'eid', multiplier: ANALYSED_MULTIPLIERS.eid, reason: `${context.holidayName}: no holiday profile learned here, working-day traffic scaled down` }
        : { factor: 'public-holiday', multiplier: ANALYSED_MULTIPLIERS.publicHoliday, reason: `${context.holidayName}: no holiday profile learned here, working-day traffic scaled down` },
    );
  }
  if (context.schoolBreak && !context.isWeekend && !context.holidayName) {
    const schoolRun = SCHOOL_RUN_HOURS.has(context.hour);
    out.push({
      factor: 'school-break',
      multiplier: schoolRun ? ANALYSED_MULTIPLIERS.schoolBreakSchoolRun : ANALYSED_MULTIPLIERS.schoolBreakOther,
      reason: `${context.schoolBreak}${schoolRun ? ': no school run' : ''}`,
    });
  }
  if (context.isRamadan && context.minutesFromIftar !== null && context.learnedType !== 'ramadan') {
    if (context.minutesFromIftar >= -60 && context.minutesFromIftar < 0) out.push({ factor: 'before-iftar', multiplier: ANALYSED_MULTIPLIERS.beforeIftar, reason: 'the hour before iftar: the rush home' });
    else if (context.minutesFromIftar >= 0 && context.minutesFromIftar < 60) out.push({ factor: 'after-iftar', multiplier: ANALYSED_MULTIPLIERS.afterIftar, reason: 'the hour after iftar: roads empty' });
  }
  const month = monthMultiplier(context.country, context.month);
  if (month !== 1) out.push({ factor: 'month', multiplier: month, reason: 'Gulf summer: many residents away' });
  if (context.weather && context.weather !== 'clear') out.push({ factor: 'weather', multiplier: WEATHER_MULTIPLIERS[context.weather], reason: context.weather.replace('_', ' ') });
  return out;
}

/** The learned ratio with the adjustments applied to its extra travel time (a ratio above 1 has none to scale). */
export function expectedTraffic(learnedRatio: number, adjustments: readonly Adjustment[]): ExpectedTraffic {
  const extra = Math.max(0, 1 / learnedRatio - 1);
  const scaled = adjustments.reduce((value, adjustment) => value * adjustment.multiplier, extra);
  const ratio = learnedRatio >= 1 && scaled === 0 ? learnedRatio : 1 / (1 + scaled);
  const band = bandOf(ratio);
  return { speedRatio: round(ratio, 1000), delayPct: round(scaled * 100, 10), congestion: band.congestion, label: band.label };
}

export interface HourValue {
  /** Index in the run of hours (consecutive). */
  index: number;
  speedRatio: number | null;
}

/** Best (highest mean ratio) and worst two-hour windows: two consecutive hours both with an expected value. */
export function twoHourWindows<T extends HourValue>(hours: readonly T[]): { best: [T, T] | null; worst: [T, T] | null } {
  let best: [T, T] | null = null;
  let worst: [T, T] | null = null;
  let bestMean = -1;
  let worstMean = Number.POSITIVE_INFINITY;
  for (let i = 0; i + 1 < hours.length; i++) {
    const a = hours[i]!;
    const b = hours[i + 1]!;
    if (a.speedRatio === null || b.speedRatio === null || b.index !== a.index + 1) continue;
    const mean = (a.speedRatio + b.speedRatio) / 2;
    if (mean > bestMean) [bestMean, best] = [mean, [a, b]];
    if (mean < worstMean) [worstMean, worst] = [mean, [a, b]];
  }
  return { best, worst };
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
