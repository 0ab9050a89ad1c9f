/**
 * The traffic model's pure rules (docs/traffic.md "Model"): how an observation
 * is filed (country-local weekday and hour, profile type from the country's
 * calendar), which profiles a moment falls back through, congestion words and
 * labels from the speed ratio, trust, and the differential-privacy mechanism
 * of popularity. No I/O.
 */
import { randomInt } from 'node:crypto';
import { COUNTRY_PROFILES } from '../calendars/country-profiles.js';
import { COUNTRY_CODES, isCountryCode, type CountryCode } from '../calendars/country-profiles.js';
import type { CalendarFlags } from '../calendars/calendar-service.js';

import { PROFILE_TYPES, type ProfileRow, type ProfileSums, type ProfileType } from '../../domain/traffic.js';

export { PROFILE_TYPES, type ProfileRow, type ProfileSums, type ProfileType };
export type Congestion = 'light' | 'moderate' | 'heavy' | 'severe' | 'unknown';
export type TrafficLabel = 'Heavy' | 'High' | 'Normal' | 'Low';

/** A profile with at least this many samples is trustworthy (validation counts it; labels say so in `reason`). */
export const TRUST_MIN_SAMPLES = 5;
/** Ramadan and holiday profiles are kept per hour over all weekdays (too few such days to split them): stored with this weekday. */
export const ANY_DOW = -1;

/** Speed-ratio thresholds (observed / free flow), highest first, with their word and label. */
export const CONGESTION_BANDS: readonly { minRatio: number; congestion: Exclude<Congestion, 'unknown'>; label: TrafficLabel }[] = [
  { minRatio: 0.8, congestion: 'light', label: 'Low' },
  { minRatio: 0.6, congestion: 'moderate', label: 'Normal' },
  { minRatio: 0.4, congestion: 'heavy', label: 'High' },
  { minRatio: 0, congestion: 'severe', label: 'Heavy' },
];

export function bandOf(speedRatio: number): (typeof CONGESTION_BANDS)[number] {
  return CONGESTION_BANDS.find((band) => speedRatio >= band.minRatio) ?? CONGESTION_BANDS[CONGESTION_BANDS.length - 1]!;
}

/** Any code outside the fifteen countries (or none) is read as JO (spec part 3 §4.4). */
export function countryOrJordan(value: string | undefined): CountryCode {
  const code = value?.trim().toUpperCase();
  return code && isCountryCode(code) ? code : 'JO';
}

export { COUNTRY_CODES };

export interface LocalClock {
  /** 0 = Sunday … 6 = Saturday, in the country's own timezone. */
  dow: number;
  hour: number;
  /** Local date `YYYY-MM-DD`. */
  date: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
/**
 * Every UTC offset and every offset change falls on a quarter hour, so the local weekday, hour and date are the
 * same for every instant of one UTC quarter hour. The quarters read are kept per zone (the newest
 * QUARTERS_KEPT of them, about five days): a trip's traversals fall in one or two quarters, and formatToParts
 * (about 20 µs) was the costliest step of filing them. Keeping only the last quarter of each zone missed on
 * every trip whenever trips of different times were filed in turn (trips uploaded late, or several
 * contributors at once; the intake bench's trips are 32 different hours).
 */
const QUARTER_HOUR_MS = 900_000;
const QUARTERS_KEPT = 512;
const quarters = new Map<string, Map<number, LocalClock>>();

/** The weekday, hour and date at an instant in a country's timezone. */
export function localClock(country: CountryCode, atMs: number): LocalClock {
  const timeZone = COUNTRY_PROFILES[country].timeZone;
  const quarter = Math.floor(atMs / QUARTER_HOUR_MS);
  let kept = quarters.get(timeZone);
  if (!kept) quarters.set(timeZone, (kept = new Map()));
  const known = kept.get(quarter);
  if (known) return { dow: known.dow, hour: known.hour, date: known.date };
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(atMs)) parts[part.type] = part.value;
  const clock = { dow: WEEKDAYS[parts.weekday!]!, hour: Number(parts.hour) % 24, date: `${parts.year}-${parts.month}-${parts.day}` };
  // the oldest read goes first (a Map iterates in insertion order)
  if (kept.size >= QUARTERS_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(quarter, clock);
  return { dow: clock.dow, hour: clock.hour, date: clock.date };
}

/** The type an observation is filed under: the most specific of the day's calendar flags. */
export function profileTypeOf(flags: Pick<CalendarFlags, 'isRamadan' | 'isHoliday' | 'isWeekend'>): ProfileType {
  if (flags.isRamadan) return 'ramadan';
  if (flags.isHoliday) return 'holiday';
  if (flags.isWeekend) return 'weekend';
  return 'typical';
}

/** Where an observation is filed: type, the weekday key (ANY_DOW for ramadan and holiday) and hour. */
export interface FilingKey {
  profileType: ProfileType;
  dow: number;
  hour: number;
}

export function filingKey(country: CountryCode, atMs: number, flags: Pick<CalendarFlags, 'isRamadan' | 'isHoliday' | 'isWeekend'>): FilingKey & { localDate: string; localDow: number } {
  const clock = localClock(country, atMs);
  const profileType = profileTypeOf(flags);
  return { profileType, dow: profileType === 'ramadan' || profileType === 'holiday' ? ANY_DOW : clock.dow, hour: clock.hour, localDate: clock.date, localDow: clock.dow };
}

/**
 * The keys a moment is looked up under, in order: ramadan (on a Ramadan day), holiday (on a holiday), weekend
 * (on a weekend day: that weekday, then any weekend weekday), typical (that weekday, then any typical weekday).
 * `dow: undefined` means "pooled over the weekdays stored under that type".
 */
export function fallbackKeys(clock: LocalClock, flags: Pick<CalendarFlags, 'isRamadan' | 'isHoliday' | 'isWeekend'>): { profileType: ProfileType; dow: number | undefined }[] {
  const keys: { profileType: ProfileType; dow: number | undefined }[] = [];
  if (flags.isRamadan) keys.push({ profileType: 'ramadan', dow: ANY_DOW });
  if (flags.isHoliday) keys.push({ profileType: 'holiday', dow: ANY_DOW });
  if (flags.isWeekend) keys.push({ profileType: 'weekend', dow: clock.dow }, { profileType: 'weekend', dow: undefined });
  keys.push({ profileType: 'typical', dow: clock.dow }, { profileType: 'typical', dow: undefined });
  return keys;
}

export function pool(rows: readonly ProfileSums[]): ProfileSums | undefined {
  if (!rows.length) return undefined;
  const sums = { sampleCount: 0, simulatedCount: 0, speedSum: 0, speedSqSum: 0, ratioSum: 0, freeFlowKph: rows[0]!.freeFlowKph };
  for (const row of rows) {
    sums.sampleCount += row.sampleCount;
    sums.simulatedCount += row.simulatedCount;
    sums.speedSum += row.speedSum;
    sums.speedSqSum += row.speedSqSum;
    sums.ratioSum += row.ratioSum;
  }
  return sums;
}

/** Profile rows by segment key. */
export function groupBySegment(rows: readonly ProfileRow[]): Map<string, ProfileRow[]> {
  const map = new Map<string, ProfileRow[]>();
  for (const row of rows) {
    const list = map.get(row.segmentKey);
    if (list) list.push(row);
    else map.set(row.segmentKey, [row]);
  }
  return map;
}

export interface ResolvedProfile {
  profileType: ProfileType;
  /** The weekday key used; null when pooled over weekdays. */
  pooledDow: boolean;
  sums: ProfileSums;
}

/** The first fallback key with rows among `rows` (one segment's rows at the hour). */
export function resolveProfile(rows: readonly ProfileRow[], clock: LocalClock, flags: Pick<CalendarFlags, 'isRamadan' | 'isHoliday' | 'isWeekend'>): ResolvedProfile | undefined {
  for (const key of fallbackKeys(clock, flags)) {
    const matching = rows.filter((row) => row.hour === clock.hour && row.profileType === key.profileType && (key.dow === undefined || row.dow === key.dow));
    const sums = pool(matching);
    if (sums) return { profileType: key.profileType, pooledDow: key.dow === undefined, sums };
  }
  return undefined;
}

export function describeSums(sums: ProfileSums): { speedRatio: number; meanSpeedKph: number; congestion: Congestion; label: TrafficLabel; trustworthy: boolean; simulated: boolean } {
  const speedRatio = sums.ratioSum / sums.sampleCount;
  const band = bandOf(speedRatio);
  return {
    speedRatio: Math.round(speedRatio * 1000) / 1000,
    meanSpeedKph: Math.round((sums.speedSum / sums.sampleCount) * 10) / 10,
    congestion: band.congestion,
    label: band.label,
    trustworthy: sums.sampleCount >= TRUST_MIN_SAMPLES,
    simulated: sums.simulatedCount > 0,
  };
}

// ── popularity: differential privacy ──

export const POPULARITY = Object.freeze({ epsilon: 1, sensitivity: 1, kAnonymity: 3, defaultZoom: 14, minZoom: 8, maxZoom: 16 });

/** One draw of Laplace(0, scale), by inverse transform of a uniform from the CSPRNG. */
export function laplaceNoise(scale: number, uniform: () => number = secureUniform): number {
  const u = uniform() - 0.5;
  return -scale * Math.sign(u) * Math.log(1 - 2 * Math.abs(u));
}

function secureUniform(): number {
  // (0, 1) exclusive: 2^48 steps
  return (randomInt(1, 2 ** 47) * 2 + 1) / 2 ** 48;
}

export interface GridCell {
  key: string;
  /** Centre of the cell (the grid snap: no contributor position is shown). */
  lat: number;
  lng: number;
}

export function gridCellOf(lat: number, lng: number, zoom: number): GridCell {
  const n = 2 ** zoom;
  const x = Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
  const rad = (lat * Math.PI) / 180;
  const y = Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)));
  const centreLng = ((x + 0.5) / n) * 360 - 180;
  const centreLat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / n))) * 180) / Math.PI;
  return { key: `${zoom}/${x}/${y}`, lat: Math.round(centreLat * 1e5) / 1e5, lng: Math.round(centreLng * 1e5) / 1e5 };
}

/**
 * Popularity cells: each contributor counts at most once per cell (sensitivity 1); cells with fewer than k
 * distinct contributors are suppressed; the rest get Laplace noise of scale sensitivity/ε, rounded, floored at 0.
 */
export function popularityCells(visits: readonly { lat: number; lng: number; contributor: string }[], zoom: number, noise: () => number = () => laplaceNoise(POPULARITY.sensitivity / POPULARITY.epsilon)) {
  const cells = new Map<string, { cell: GridCell; contributors: Set<string> }>();
  for (const visit of visits) {
    const cell = gridCellOf(visit.lat, visit.lng, zoom);
    let entry = cells.get(cell.key);
    if (!entry) cells.set(cell.key, (entry = { cell, contributors: new Set() }));
    entry.contributors.add(visit.contributor);
  }
  const out: { key: string; count: number; lat: number; lng: number }[] = [];
  for (const { cell, contributors } of cells.values()) {
    if (contributors.size < POPULARITY.kAnonymity) continue;
    out.push({ key: cell.key, count: Math.max(0, Math.round(contributors.size + noise())), lat: cell.lat, lng: cell.lng });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}
