/**
 * Wall-clock times in a time zone (commute times are `HH:MM` in Jordan time, spec part 3 §4.4):
 * the instant a local date and time names, and the local date, weekday and `HH:MM` of an instant.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export interface WallClock {
  /** `YYYY-MM-DD`. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  dow: number;
  /** Minutes since local midnight. */
  minuteOfDay: number;
}

export function wallClock(timeZone: string, atMs: number): WallClock {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(atMs)) parts[part.type] = part.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, dow: WEEKDAYS[parts.weekday!]!, minuteOfDay: (Number(parts.hour) % 24) * 60 + Number(parts.minute) };
}

/** The instant at which the zone's clock reads `date` `minuteOfDay` (the first one, across a DST change). */
export function instantOf(timeZone: string, date: string, minuteOfDay: number): number {
  const asUtc = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * 60_000;
  // Offsets of the zones served are within ±14 h: try each quarter hour's guess and keep the one that reads back.
  let guess = asUtc;
  let previous = asUtc;
  for (let pass = 0; pass < 3; pass++) {
    const seen = wallClock(timeZone, guess);
    const seenUtc = Date.parse(`${seen.date}T00:00:00Z`) + seen.minuteOfDay * 60_000;
    if (seenUtc === asUtc) return guess;
    previous = guess;
    guess += asUtc - seenUtc;
  }
  // No instant reads this wall time: a spring-forward gap skipped it (Cairo's 00:00 on the last Friday of April).
  // The guesses swing between the instants either side of the gap; the later one reads the time shifted forward
  // by the gap, as a clock does (and as Temporal's "compatible" disambiguation answers).
  return Math.max(guess, previous);
}

/** `HH:MM` → minutes since midnight; undefined when not a valid 24-hour time. */
export function parseHhMm(value: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

export function hhMm(timeZone: string, atMs: number): string {
  const minute = wallClock(timeZone, atMs).minuteOfDay;
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** The local date after `date`. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
