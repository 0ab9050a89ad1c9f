/**
 * Opening hours (spec part 2 §2.4 `openingHours`, §3 open state): OSM `opening_hours` values parsed by
 * the `opening_hours` package (the reference parser of the OSM community) into the spec's weekly shape,
 * the week's open intervals as minutes of the week (what the catalogue stores so `openNow` runs in
 * SQL), and the open state at an instant in the place's own timezone.
 *
 * The package evaluates rules on JavaScript `Date`s in the process's local time. A place's wall clock
 * is handed to it as a local `Date` with the same fields (year … minute), so the answer does not
 * depend on the server's timezone (except inside the server zone's own DST gap, an hour a year).
 */
import OpeningHours from 'opening_hours';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
const MINUTES_PER_DAY = 1_440;
export const MINUTES_PER_WEEK = 10_080;
/** "Closing soon" (state `closing`): the place closes within this many minutes. */
export const CLOSING_SOON_MINUTES = 60;

/** The spec's weekly shape, plus what a client needs to show the source. */
export interface WeeklyHours {
  /** Each weekday's open ranges `HH:MM-HH:MM` (comma-separated; an end past midnight belongs to the day it started), or `closed`. */
  weekly: Record<Weekday, string>;
  /** The OSM value as tagged. */
  raw: string;
  /** Whether every week is the same (no dates, holidays or month ranges in the rule). */
  weekStable: boolean;
  /** Open all the time. */
  alwaysOpen: boolean;
}

export interface ParsedHours extends WeeklyHours {
  /** Open intervals of a week as [start, end) minutes from Monday 00:00 local time, merged; an interval over Sunday midnight is split. */
  weekIntervals: [number, number][];
}

export type OpenState = 'open' | 'closing' | 'closed';

export interface OpenStatus {
  state: OpenState;
  /** The next change in the place's local time (`HH:MM`) and its weekday; null when none within a week. */
  next: { time: string; weekday: Weekday; inMinutes: number } | null;
}

type Evaluator = InstanceType<typeof OpeningHours>;

/** A week with no public holiday anywhere in the region: Monday 12 February 2024. */
const REFERENCE_MONDAY = [2024, 1, 12] as const;
const evaluators = new Map<string, Evaluator | null>();
const EVALUATOR_CACHE = 4_096;

/** The parsed rule of a value, cached; null when the value does not parse. */
function evaluatorOf(raw: string): Evaluator | null {
  let evaluator = evaluators.get(raw);
  if (evaluator !== undefined) return evaluator;
  try {
    // mode 0: time ranges only (points in time are not opening hours); no country data: PH rules stay unknown
    evaluator = new OpeningHours(raw, null, 0);
  } catch {
    evaluator = null;
  }
  if (evaluators.size >= EVALUATOR_CACHE) evaluators.delete(evaluators.keys().next().value!);
  evaluators.set(raw, evaluator);
  return evaluator;
}

const pad = (value: number) => String(value).padStart(2, '0');
const clock = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;

function minuteOfWeek(date: Date): number {
  return ((date.getDay() + 6) % 7) * MINUTES_PER_DAY + date.getHours() * 60 + date.getMinutes();
}

/** Parses an OSM `opening_hours` value; undefined when blank or not parseable (the place then has no hours). */
export function parseOpeningHours(value: string | undefined | null): ParsedHours | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  const evaluator = evaluatorOf(raw);
  if (!evaluator) return undefined;
  const [year, month, day] = REFERENCE_MONDAY;
  const from = new Date(year, month, day);
  const to = new Date(year, month, day + 7);
  // one day before, so an interval running over Sunday midnight into Monday is seen whole
  const intervals = evaluator.getOpenIntervals(new Date(year, month, day - 1), to);
  const minutes: [number, number][] = [];
  for (const [start, end, unknown] of intervals) {
    if (unknown) continue;
    const clippedStart = start < from ? from : start;
    if (end <= clippedStart) continue;
    const startMinute = Math.round((clippedStart.getTime() - from.getTime()) / 60_000);
    const endMinute = Math.min(MINUTES_PER_WEEK, Math.round((end.getTime() - from.getTime()) / 60_000));
    if (endMinute > startMinute) minutes.push([startMinute, endMinute]);
  }
  const merged = mergeIntervals(minutes);
  const alwaysOpen = merged.length === 1 && merged[0]![0] === 0 && merged[0]![1] === MINUTES_PER_WEEK;
  return { raw, weekly: weeklyOf(merged, alwaysOpen), weekStable: evaluator.isWeekStable(), alwaysOpen, weekIntervals: merged };
}

function mergeIntervals(intervals: [number, number][]): [number, number][] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Each day's ranges; a range that runs past midnight is written on the day it starts (`08:00-02:00`). */
function weeklyOf(intervals: [number, number][], alwaysOpen: boolean): Record<Weekday, string> {
  const days = WEEKDAYS.map(() => [] as string[]);
  if (alwaysOpen) return Object.fromEntries(WEEKDAYS.map((weekday) => [weekday, '00:00-24:00'])) as Record<Weekday, string>;
  // join an interval ending at the week's end with one starting Monday 00:00 (Sunday 20:00 → Monday 02:00)
  const cyclic = intervals.map(([start, end]) => [start, end] as [number, number]);
  if (cyclic.length > 1 && cyclic[0]![0] === 0 && cyclic[cyclic.length - 1]![1] === MINUTES_PER_WEEK) {
    const first = cyclic.shift()!;
    cyclic[cyclic.length - 1]![1] = MINUTES_PER_WEEK + first[1];
  }
  for (const [start, end] of cyclic) {
    const day = Math.floor(start / MINUTES_PER_DAY);
    const startOfDay = day * MINUTES_PER_DAY;
    const endInDay = end - startOfDay;
    const endText = endInDay === MINUTES_PER_DAY ? '24:00' : clock(endInDay % MINUTES_PER_DAY);
    // a range longer than a day (open from Monday 08:00 to Wednesday 02:00) is still written on its first day
    days[day]!.push(`${clock(start - startOfDay)}-${endText}`);
  }
  return Object.fromEntries(WEEKDAYS.map((weekday, index) => [weekday, days[index]!.length ? days[index]!.join(',') : 'closed'])) as Record<Weekday, string>;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a timezone, as a local `Date` with the same fields. */
export function wallClockOf(instantMs: number, timeZone: string): Date {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    zoneFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instantMs)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return new Date(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** Minutes from Monday 00:00 of an instant in a timezone. */
export function localMinuteOfWeek(instantMs: number, timeZone: string): number {
  return minuteOfWeek(wallClockOf(instantMs, timeZone));
}

/**
 * The open state of a value at an instant in a timezone (spec part 2 §3): `open`, `closing` (open and
 * closing within {@link CLOSING_SOON_MINUTES}), `closed`; undefined when the value does not parse. A
 * holiday never changes it: the caller only annotates the text.
 */
export function openStatusAt(raw: string, instantMs: number, timeZone: string): OpenStatus | undefined {
  // the local wall clock has whole seconds: so has the answer
  const second = Math.floor(instantMs / 1000);
  const key = `${timeZone}\u0000${raw}`;
  const recent = recentStatus.get(key);
  if (recent && recent.second === second) return recent.status;
  const status = evaluateStatus(raw, instantMs, timeZone);
  if (recentStatus.size >= RECENT_STATUS_LIMIT) recentStatus.clear();
  recentStatus.set(key, { second, status });
  return status;
}

/**
 * The last status of each hours text in each zone, with the second it holds for: a page's places share a few
 * hours texts (most places keep common hours), and requests within a second share their answers. The
 * evaluator's getState and getNextChange with the zone's clock (Intl formatToParts) cost ~286 µs a 50-place page
 * of five hours texts otherwise (8 µs with the memo, in process). Frozen: callers share them.
 */
const recentStatus = new Map<string, { second: number; status: OpenStatus | undefined }>();
const RECENT_STATUS_LIMIT = 10_000;

/** openStatusAt without the memo (exported for the test that holds the memo's key to the answer's). */
export function evaluateStatus(raw: string, instantMs: number, timeZone: string): OpenStatus | undefined {
  const evaluator = evaluatorOf(raw.trim());
  if (!evaluator) return undefined;
  const now = wallClockOf(instantMs, timeZone);
  const open = evaluator.getState(now);
  const horizon = new Date(now.getTime() + 7 * 86_400_000);
  const change = evaluator.getNextChange(now, horizon);
  const next = change
    ? { time: clock(change.getHours() * 60 + change.getMinutes()), weekday: WEEKDAYS[(change.getDay() + 6) % 7]!, inMinutes: Math.round((change.getTime() - now.getTime()) / 60_000) }
    : null;
  const state: OpenState = !open ? 'closed' : next && next.inMinutes <= CLOSING_SOON_MINUTES ? 'closing' : 'open';
  return Object.freeze({ state, next: next && Object.freeze(next) });
}

export type TextLanguage = 'en' | 'ar';

const WEEKDAY_NAMES: Record<TextLanguage, Record<Weekday, string>> = {
  en: { monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat', sunday: 'Sun' },
  ar: { monday: 'الإثنين', tuesday: 'الثلاثاء', wednesday: 'الأربعاء', thursday: 'الخميس', friday: 'الجمعة', saturday: 'السبت', sunday: 'الأحد' },
};

/**
 * The open state as a line of text in the caller's language (`Open · Closes 23:00`, `مفتوح · يغلق 23:00`),
 * with the holiday suffix of spec part 2 §4.4 (`· <holiday name> · hours may vary`) when a holiday that
 * affects business hours is active.
 */
export function openTextOf(status: OpenStatus, language: TextLanguage, holidayName?: string): string {
  const { state, next } = status;
  // within a day the time alone is clear; further away the weekday is named
  const day = (names: Record<Weekday, string>) => (next && next.inMinutes >= MINUTES_PER_DAY ? `${names[next.weekday]} ` : '');
  let text: string;
  if (language === 'ar') {
    if (state === 'closed') text = next ? `مغلق · يفتح ${day(WEEKDAY_NAMES.ar)}${next.time}` : 'مغلق';
    else if (!next) text = 'مفتوح ٢٤ ساعة';
    else text = `${state === 'closing' ? 'يغلق قريبًا' : 'مفتوح'} · يغلق ${next.time}`;
  } else {
    if (state === 'closed') text = next ? `Closed · Opens ${day(WEEKDAY_NAMES.en)}${next.time}` : 'Closed';
    else if (!next) text = 'Open 24 hours';
    else text = `${state === 'closing' ? 'Closing soon' : 'Open'} · Closes ${next.time}`;
  }
  if (holidayName) text += language === 'ar' ? ` · ${holidayName} · قد تختلف المواعيد` : ` · ${holidayName} · hours may vary`;
  return text;
}
