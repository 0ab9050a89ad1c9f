/**
 * Calendar days as whole numbers (days since 1970-01-01 in the proleptic
 * Gregorian calendar): holiday arithmetic is adding days, and a day number is a
 * cheap map key. A day number names a date, not an instant; the instant a
 * country's day begins depends on its timezone (`localDayOf`).
 */

export type DayNumber = number;

const MS_PER_DAY = 86_400_000;
const HALF_HOUR_MS = 1_800_000;

export function dayOf(year: number, month: number, day: number): DayNumber {
  return Math.floor(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

export function civilDateOf(dayNumber: DayNumber): CivilDate {
  const date = new Date(dayNumber * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), weekday: date.getUTCDay() };
}

export function weekdayOf(dayNumber: DayNumber): number {
  // 1970-01-01 was a Thursday (4)
  return (((dayNumber + 4) % 7) + 7) % 7;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export function isoOfDay(dayNumber: DayNumber): string {
  const { year, month, day } = civilDateOf(dayNumber);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A strict `YYYY-MM-DD` (a real date: 2025-02-30 is refused), or undefined. */
export function parseIsoDay(text: string): DayNumber | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return undefined;
  const dayNumber = dayOf(year, month, day);
  return civilDateOf(dayNumber).day === day ? dayNumber : undefined;
}

/** Midnight UTC of a day, for libraries that take a Date. */
export function utcMidnightOf(dayNumber: DayNumber): Date {
  return new Date(dayNumber * MS_PER_DAY);
}

export function dayOfUtcInstant(instantMs: number): DayNumber {
  return Math.floor(instantMs / MS_PER_DAY);
}

/**
 * The date in `timeZone` at an instant. Intl's formatter is the dearest part (a
 * few microseconds a call, 10 µs of a `/holidays/upcoming` request), so
 * formatters are kept per zone and each zone's date is remembered for the half
 * hour last asked.
 */
export class LocalDays {
  private readonly formatters = new Map<string, Intl.DateTimeFormat>();
  /** The last half hour asked of each zone and its date: requests of the same half hour share one formatting. */
  private readonly lastHalfHour = new Map<string, { halfHour: number; day: DayNumber }>();

  localDayOf(timeZone: string, instantMs: number): DayNumber {
    const halfHour = Math.floor(instantMs / HALF_HOUR_MS);
    const last = this.lastHalfHour.get(timeZone);
    if (last !== undefined && last.halfHour === halfHour) return last.day;
    // Today's offsets of the supported zones, and their changes, fall on half hours, so a date
    // normally holds for a whole half hour; their local mean times before ~1950 do not. So the
    // half hour is remembered only when its first and last millisecond share a date (two
    // offset changes within 30 minutes do not happen, so the date holds in between).
    const first = this.formattedDayOf(timeZone, halfHour * HALF_HOUR_MS);
    const lastDay = this.formattedDayOf(timeZone, halfHour * HALF_HOUR_MS + HALF_HOUR_MS - 1);
    if (first !== lastDay) return this.formattedDayOf(timeZone, instantMs);
    this.lastHalfHour.set(timeZone, { halfHour, day: first });
    return first;
  }

  private formattedDayOf(timeZone: string, instantMs: number): DayNumber {
    let formatter = this.formatters.get(timeZone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', era: 'short' });
      this.formatters.set(timeZone, formatter);
    }
    let year = 0;
    let month = 0;
    let day = 0;
    let beforeCommonEra = false;
    for (const part of formatter.formatToParts(instantMs)) {
      if (part.type === 'year') year = Number(part.value);
      else if (part.type === 'month') month = Number(part.value);
      else if (part.type === 'day') day = Number(part.value);
      else if (part.type === 'era') beforeCommonEra = part.value.startsWith('B');
    }
    return dayOf(beforeCommonEra ? 1 - year : year, month, day);
  }
}
