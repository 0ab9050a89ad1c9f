/**
 * Service days of a GTFS feed in its agency's timezone: which services run on
 * a date (calendar.txt weekdays and range, calendar_dates.txt exceptions) and
 * the instant a service day starts (GTFS: noon minus 12 h, local time).
 */
import type { GtfsRows } from '../../domain/transit.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Local calendar fields of an instant in a timezone. */
export function localParts(epochMs: number, timeZone: string): { y: number; m: number; d: number; seconds: number } {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), seconds: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second) };
}

/** YYYYMMDD of an instant in a timezone. */
export function localDate(epochMs: number, timeZone: string): number {
  const { y, m, d } = localParts(epochMs, timeZone);
  return y * 10_000 + m * 100 + d;
}

/** The date `days` after YYYYMMDD `date`. */
export function addDays(date: number, days: number): number {
  const t = new Date(Date.UTC(Math.floor(date / 10_000), Math.floor(date / 100) % 100 - 1, date % 100 + days));
  return t.getUTCFullYear() * 10_000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}

/** Epoch ms when service day `date` starts in `timeZone`: local noon minus 12 hours. */
export function serviceDayStart(date: number, timeZone: string): number {
  const y = Math.floor(date / 10_000);
  const m = Math.floor(date / 100) % 100;
  const d = date % 100;
  const guess = Date.UTC(y, m - 1, d, 12);
  const local = localParts(guess, timeZone);
  const offset = Date.UTC(local.y, local.m - 1, local.d) + local.seconds * 1000 - guess;
  return guess - offset - 12 * 3_600_000;
}

/** Monday 0 … Sunday 6 of a YYYYMMDD date. */
export function weekdayOf(date: number): number {
  const day = new Date(Date.UTC(Math.floor(date / 10_000), Math.floor(date / 100) % 100 - 1, date % 100)).getUTCDay();
  return (day + 6) % 7;
}

/** The service ids running on `date`. */
export function activeServices(date: number, calendar: Array<GtfsRows['calendar']>, exceptions: Array<GtfsRows['calendarDates']>): Set<string> {
  const weekday = 1 << weekdayOf(date);
  const active = new Set<string>();
  for (const row of calendar) if (row.startDate <= date && date <= row.endDate && row.weekdays & weekday) active.add(row.serviceId);
  for (const row of exceptions) {
    if (row.date !== date) continue;
    if (row.exceptionType === 1) active.add(row.serviceId);
    else active.delete(row.serviceId);
  }
  return active;
}
