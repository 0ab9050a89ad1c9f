/**
 * Analysed traffic (spec part 3 §4.4; docs/traffic.md "Analysed traffic"):
 * expected traffic for a point and a moment, from the learned profiles of the
 * road segments around the point, adjusted for what the profiles cannot know
 * (Eid and public holidays not yet learned, school breaks, the hours around
 * iftar, the month, the weather). Labelled `svc-analysed-traffic`, `live:
 * false`: this is what is usual or expected, never what is happening now.
 * Without learned data every endpoint answers `basis: "none"`, never an error.
 */
import type { ProfileRow } from '../../domain/traffic.js';
import type { BoundingBox, TrafficRepository } from '../../store/pg/traffic.js';
import type { CalendarService } from '../calendars/calendar-service.js';
import { COUNTRY_CODES, type CountryCode } from '../calendars/country-profiles.js';
import { conditionOf, WEATHER_CONDITIONS, type WeatherCondition } from '../weather/weather-conditions.js';
import { FORECAST_HORIZON_HOURS, type WeatherForecast, type WeatherSource } from '../weather/open-meteo-forecast.js';
import { adjustmentsFor, ANALYSED_MULTIPLIERS, ANALYSED_PROVIDER, expectedTraffic, isEidName, twoHourWindows, WEATHER_MULTIPLIERS, type Adjustment, type ExpectedTraffic } from './analysed-model.js';
import { outlookText } from './analysed-outlook.js';
import { sunsetOn } from './iftar.js';
import { SCHOOL_CALENDARS, schoolBreakOn } from './school-calendar.js';
import { countryOrJordan, localClock, resolveProfile, TRUST_MIN_SAMPLES, type LocalClock } from './traffic-model.js';
import { parseAt } from './traffic-queries.js';
import { DEFAULT_RADIUS_M, MAX_RADIUS_M, parseArea, parseDate, parseLanguage, parseWindow, type AreaQuery } from './analysed-queries.js';

export { ANALYSED_PROVIDER };
const ATTRIBUTION = '© OpenStreetMap contributors, ODbL';
/** Most profile rows one area reads. */
const MAX_AREA_ROWS = 50_000;
const HOUR_MS = 3_600_000;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Query = Record<string, string | undefined>;


interface Area extends AreaQuery {
  rows: ProfileRow[];
  /** The rows by local hour: a moment's lookup reads only its hour's. */
  byHour: Map<number, ProfileRow[]>;
  country: CountryCode;
  segments: number;
  simulated: boolean;
  truncated: boolean;
}

/** What the weather is taken to be at a moment, and from where. */
interface WeatherAt {
  source: 'what-if' | 'forecast' | 'none';
  condition: WeatherCondition | null;
  reason?: string;
}

/** One local day's calendar as the model reads it. */
interface DayContext {
  date: string;
  dow: number;
  month: number;
  isWeekend: boolean;
  isRamadan: boolean;
  isHoliday: boolean;
  holidayName: string | null;
  holidayNameAr: string | null;
  isEid: boolean;
  schoolBreak: { name: string; nameAr: string } | null;
  iftarMs: number | undefined;
}

export interface HourEstimate {
  atMs: number;
  hour: number;
  expected: ExpectedTraffic | null;
  learned: { profileType: string; speedRatio: number; sampleCount: number; pooledWeekdays: boolean } | null;
  adjustments: Adjustment[];
  weather: WeatherAt;
}

export class AnalysedTrafficService {
  constructor(
    private readonly repository: Pick<TrafficRepository, 'profilesInBox' | 'profileStats'>,
    private readonly calendars: Pick<CalendarService, 'flags'>,
    private readonly weather: WeatherSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /traffic/analysed: expected traffic around a point at `at` (default now). */
  async analysed(query: Query) {
    const asked = parseArea(query);
    const atMs = parseAt(query.at, this.now());
    // the rows of the local hour in every country the area's roads may be filed under (its country decides)
    const countries = asked.askedCountry ? [asked.askedCountry] : COUNTRY_CODES;
    const area = await this.area(asked, [...new Set(countries.map((country) => localClock(country, atMs).hour))]);
    const rows = area;
    const forecast = await this.forecastFor(area, [atMs]);
    const day = this.dayContext(area, atMs);
    const estimate = this.estimate(rows, day, atMs, forecast);
    const clock = localClock(area.country, atMs);
    return {
      provider: ANALYSED_PROVIDER,
      live: false,
      kind: 'expected',
      basis: estimate.expected ? 'learned' : 'none',
      at: new Date(atMs).toISOString(),
      country: area.country,
      local: { date: clock.date, hour: clock.hour, weekday: WEEKDAY_NAMES[clock.dow] },
      point: { lat: area.lat, lng: area.lng },
      radiusMeters: area.radiusMeters,
      truncated: area.truncated,
      expected: estimate.expected,
      learned: estimate.learned ? { ...estimate.learned, segments: rows.segments, trustworthy: estimate.learned.sampleCount >= TRUST_MIN_SAMPLES } : null,
      adjustments: estimate.adjustments,
      calendar: this.calendarView(day, atMs),
      weather: estimate.weather,
      simulated: rows.simulated,
      ...(estimate.expected ? {} : { message: rows.rows.length ? 'No traffic has been learned around this point at this hour.' : 'No traffic has been learned around this point.' }),
      attribution: ATTRIBUTION,
    };
  }

  /** GET /traffic/analysed/week: seven local days from `date` (default today) by hour, best and worst two-hour windows. */
  async week(query: Query) {
    const asked = parseArea(query);
    const { from, to } = parseWindow(query);
    const area = await this.area(asked, undefined);
    const startDate = parseDate(query.date, localClock(area.country, this.now()).date);
    const hours = this.hoursFrom(area, startDate, 7 * 24);
    const forecast = await this.forecastFor(area, hours);
    const days = [];
    const all: (HourEstimate & { index: number; date: string; speedRatio: number | null })[] = [];
    for (let d = 0; d < 7; d++) {
      const dayHours = hours.slice(d * 24, d * 24 + 24);
      const day = this.dayContext(area, dayHours[12]!);
      const estimates = dayHours.map((atMs) => this.estimate(area, day, atMs, forecast));
      estimates.forEach((estimate) => all.push({ ...estimate, index: all.length, date: day.date, speedRatio: estimate.expected?.speedRatio ?? null }));
      const inWindow = all.slice(-24).filter((estimate) => estimate.hour >= from && estimate.hour <= to);
      const windows = twoHourWindows(inWindow);
      days.push({
        date: day.date,
        weekday: WEEKDAY_NAMES[day.dow],
        dayType: dayTypeOf(day),
        holiday: day.isHoliday ? day.holidayName : null,
        schoolBreak: day.schoolBreak?.name ?? null,
        iftarAt: day.isRamadan && day.iftarMs !== undefined ? new Date(day.iftarMs).toISOString() : null,
        best: windowView(windows.best),
        worst: windowView(windows.worst),
        hours: estimates.map((estimate) => ({
          hour: estimate.hour,
          speedRatio: estimate.expected?.speedRatio ?? null,
          congestion: estimate.expected?.congestion ?? 'unknown',
          label: estimate.expected?.label ?? null,
          delayPct: estimate.expected?.delayPct ?? null,
          sampleCount: estimate.learned?.sampleCount ?? 0,
          adjustments: estimate.adjustments.map((adjustment) => adjustment.factor),
          weather: estimate.weather.condition,
        })),
      });
    }
    const overall = twoHourWindows(all.filter((estimate) => estimate.hour >= from && estimate.hour <= to));
    const known = all.some((estimate) => estimate.expected);
    return {
      ...answerHead(known, area),
      from: days[0]!.date,
      to: days[6]!.date,
      window: { from, to },
      weather: weatherSummary(this.weather.configured, asked.whatIf, forecast),
      bestWindow: windowView(overall.best, true),
      worstWindow: windowView(overall.worst, true),
      days,
      simulated: area.simulated,
      ...(known ? {} : { message: 'No traffic has been learned around this point.' }),
      attribution: ATTRIBUTION,
    };
  }

  /** GET /traffic/analysed/outlook: a short outlook of one local day (default today) in English or Arabic. */
  async outlook(query: Query) {
    const asked = parseArea(query);
    const language = parseLanguage(query.lang);
    const area = await this.area(asked, undefined);
    const date = parseDate(query.date, localClock(area.country, this.now()).date);
    const hours = this.hoursFrom(area, date, 24);
    const forecast = await this.forecastFor(area, hours);
    const day = this.dayContext(area, hours[12]!);
    const estimates = hours.map((atMs, index) => ({ ...this.estimate(area, day, atMs, forecast), index }));
    const daytime = estimates.filter((estimate) => estimate.hour >= 6 && estimate.hour <= 22).map((estimate) => ({ ...estimate, speedRatio: estimate.expected?.speedRatio ?? null }));
    const windows = twoHourWindows(daytime);
    const known = estimates.some((estimate) => estimate.expected);
    const weatherHours = estimates.filter((estimate) => estimate.weather.condition && estimate.weather.condition !== 'clear');
    const text = outlookText(language, {
      known,
      date,
      dow: day.dow,
      dayType: dayTypeOf(day),
      holiday: day.isHoliday ? (language === 'ar' ? day.holidayNameAr : day.holidayName) : null,
      schoolBreak: day.schoolBreak ? (language === 'ar' ? day.schoolBreak.nameAr : day.schoolBreak.name) : null,
      worst: windows.worst ? { startHour: windows.worst[0].hour, congestion: worstCongestion(windows.worst), speedRatio: meanRatio(windows.worst) } : null,
      best: windows.best ? { startHour: windows.best[0].hour, speedRatio: meanRatio(windows.best) } : null,
      iftarHour: day.isRamadan && day.iftarMs !== undefined ? localClock(area.country, day.iftarMs).hour : null,
      weather: weatherHours.length ? { condition: mostSevere(weatherHours.map((estimate) => estimate.weather.condition!)), fromHour: weatherHours[0]!.hour, whatIf: asked.whatIf !== undefined } : null,
    });
    return {
      ...answerHead(known, area),
      date,
      language,
      headline: text.headline,
      text: text.body,
      bestWindow: windowView(windows.best),
      worstWindow: windowView(windows.worst),
      weather: weatherSummary(this.weather.configured, asked.whatIf, forecast),
      simulated: area.simulated,
      attribution: ATTRIBUTION,
    };
  }

  /** GET /traffic/analysed/model: what the model reads, its multipliers, its sources and how much it has learned. */
  async model() {
    const stats = await this.repository.profileStats(TRUST_MIN_SAMPLES);
    return {
      provider: ANALYSED_PROVIDER,
      live: false,
      kind: 'expected',
      basis: stats.samples > 0 ? 'learned' : 'none',
      base: {
        source: 'learned segment profiles (svc-traffic-model) within radiusMeters of the point',
        fallback: ['ramadan', 'holiday', 'weekend', 'typical'],
        profiles: stats.profiles,
        segments: stats.segments,
        samples: stats.samples,
        simulatedSamples: stats.simulatedSamples,
        trustMinSamples: TRUST_MIN_SAMPLES,
        lastUpdateAt: stats.lastUpdateAt,
      },
      combination: 'expected speed ratio = 1 / (1 + (1/learned ratio - 1) x product of the multipliers that apply)',
      multipliers: { ...ANALYSED_MULTIPLIERS, gulfSummerMonths: 0.85, weather: WEATHER_MULTIPLIERS },
      rules: [
        'eid and public-holiday multipliers apply only where no holiday profile was learned',
        'school-break multipliers apply on working days of a school break (school run: local 06-08 and 13-14)',
        'iftar multipliers apply on Ramadan days where no Ramadan profile was learned; iftar is sunset at the point',
        'month: July and August in SA, AE, QA, KW, BH, OM',
        `weather: the forecast's hour within the next ${FORECAST_HORIZON_HOURS} hours, or the what-if weather parameter`,
      ],
      weather: { configured: this.weather.configured, horizonHours: FORECAST_HORIZON_HOURS, conditions: WEATHER_CONDITIONS },
      schoolCalendars: SCHOOL_CALENDARS,
      defaults: { radiusMeters: DEFAULT_RADIUS_M, maxRadiusMeters: MAX_RADIUS_M },
    };
  }

  // ── the area, its days and its hours ──

  private async area(asked: AreaQuery, hours: readonly number[] | undefined): Promise<Area> {
    const rows = await this.repository.profilesInBox(boxAround(asked.lat, asked.lng, asked.radiusMeters), hours, MAX_AREA_ROWS + 1);
    const used = rows.slice(0, MAX_AREA_ROWS);
    const country = asked.askedCountry ?? countryOrJordan(mostCommon(used.map((row) => row.country)));
    const byHour = new Map<number, ProfileRow[]>();
    for (const row of used) {
      const list = byHour.get(row.hour);
      if (list) list.push(row);
      else byHour.set(row.hour, [row]);
    }
    return { ...asked, rows: used, byHour, country, segments: new Set(used.map((row) => row.segmentKey)).size, simulated: used.some((row) => row.simulatedCount > 0), truncated: rows.length > MAX_AREA_ROWS };
  }

  /** `count` consecutive local hour starts from local midnight of `date` in the area's country. */
  private hoursFrom(area: Area, date: string, count: number): number[] {
    // local midnight: the UTC midnight of the date moved by the zone's offset (found by probing the clock)
    let midnight = Date.parse(`${date}T00:00:00Z`);
    for (let offset = -14; offset <= 14; offset++) {
      const candidate = Date.parse(`${date}T00:00:00Z`) - offset * HOUR_MS;
      const clock = localClock(area.country, candidate);
      if (clock.hour === 0 && clock.date === date) {
        midnight = candidate;
        break;
      }
    }
    return Array.from({ length: count }, (_, i) => midnight + i * HOUR_MS);
  }

  private dayContext(area: Area, atMs: number): DayContext {
    const clock = localClock(area.country, atMs);
    const flags = this.calendars.flags(area.country, atMs);
    const school = schoolBreakOn(area.country, clock.date);
    const holidayName = flags.isHoliday ? (flags.holiday?.name ?? null) : null;
    return {
      date: clock.date,
      dow: clock.dow,
      month: Number(clock.date.slice(5, 7)),
      isWeekend: flags.isWeekend,
      isRamadan: flags.isRamadan,
      isHoliday: flags.isHoliday,
      holidayName,
      holidayNameAr: flags.isHoliday ? (flags.holiday?.nameAr ?? null) : null,
      isEid: isEidName(holidayName),
      schoolBreak: school ? { name: school.name, nameAr: school.nameAr } : null,
      iftarMs: flags.isRamadan ? sunsetOn(area.lat, area.lng, area.country, clock.date) : undefined,
    };
  }

  private async forecastFor(area: AreaQuery, moments: readonly number[]): Promise<WeatherForecast | undefined> {
    if (area.whatIf !== undefined || !this.weather.configured) return undefined;
    const nowMs = this.now();
    if (!moments.some((atMs) => atMs >= nowMs - HOUR_MS && atMs <= nowMs + FORECAST_HORIZON_HOURS * HOUR_MS)) return undefined;
    return this.weather.forecast(area.lat, area.lng);
  }

  private weatherAt(area: AreaQuery, atMs: number, forecast: WeatherForecast | undefined): WeatherAt {
    if (area.whatIf !== undefined) return { source: 'what-if', condition: area.whatIf };
    if (!this.weather.configured) return { source: 'none', condition: null, reason: 'no weather provider is configured' };
    const nowMs = this.now();
    if (atMs > nowMs + FORECAST_HORIZON_HOURS * HOUR_MS || atMs < nowMs - HOUR_MS) return { source: 'none', condition: null, reason: `outside the next ${FORECAST_HORIZON_HOURS} hours` };
    const hour = forecast?.hours.find((entry) => atMs >= entry.atMs && atMs < entry.atMs + HOUR_MS);
    if (!hour) return { source: 'none', condition: null, reason: 'the weather provider gave no forecast for this hour' };
    return { source: 'forecast', condition: conditionOf(hour) };
  }

  private estimate(area: Area, day: DayContext, atMs: number, forecast: WeatherForecast | undefined): HourEstimate {
    const clock: LocalClock = localClock(area.country, atMs);
    const weather = this.weatherAt(area, atMs, forecast);
    const resolved = resolveProfile(area.byHour.get(clock.hour) ?? [], clock, { isRamadan: day.isRamadan, isHoliday: day.isHoliday, isWeekend: day.isWeekend });
    if (!resolved) return { atMs, hour: clock.hour, expected: null, learned: null, adjustments: [], weather };
    const learnedRatio = resolved.sums.ratioSum / resolved.sums.sampleCount;
    // the middle of the hour judges "the hour before/after iftar" for an hour bucket
    const minutesFromIftar = day.iftarMs === undefined ? null : (atMs - day.iftarMs) / 60_000;
    const adjustments = adjustmentsFor({
      country: area.country,
      hour: clock.hour,
      month: day.month,
      learnedType: resolved.profileType,
      isWeekend: day.isWeekend,
      holidayName: day.holidayName,
      isEid: day.isEid,
      schoolBreak: day.schoolBreak?.name ?? null,
      isRamadan: day.isRamadan,
      minutesFromIftar,
      weather: weather.condition,
    });
    return {
      atMs,
      hour: clock.hour,
      expected: expectedTraffic(learnedRatio, adjustments),
      learned: { profileType: resolved.profileType, speedRatio: Math.round(learnedRatio * 1000) / 1000, sampleCount: resolved.sums.sampleCount, pooledWeekdays: resolved.pooledDow },
      adjustments,
      weather,
    };
  }

  private calendarView(day: DayContext, atMs: number) {
    const afterIftar = day.iftarMs !== undefined && atMs >= day.iftarMs && atMs < day.iftarMs + HOUR_MS;
    return {
      isWeekend: day.isWeekend,
      isHoliday: day.isHoliday,
      holiday: day.holidayName,
      isEid: day.isEid,
      isRamadan: day.isRamadan,
      iftarAt: day.isRamadan && day.iftarMs !== undefined ? new Date(day.iftarMs).toISOString() : null,
      afterIftar,
      schoolBreak: day.schoolBreak?.name ?? null,
    };
  }
}

// ── helpers ──

/** What every area answer starts with: the provider, never live, the basis, where. */
function answerHead(known: boolean, area: Area) {
  return {
    provider: ANALYSED_PROVIDER,
    live: false,
    kind: 'expected',
    basis: known ? 'learned' : 'none',
    country: area.country,
    point: { lat: area.lat, lng: area.lng },
    radiusMeters: area.radiusMeters,
    /** More than 50 000 profile rows in the area: the first 50 000 (by segment) were read. */
    truncated: area.truncated,
  };
}

function boxAround(lat: number, lng: number, radiusMeters: number): BoundingBox {
  const dLat = radiusMeters / 111_320;
  const dLng = radiusMeters / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return { minLat: Math.max(-90, lat - dLat), maxLat: Math.min(90, lat + dLat), minLng: Math.max(-180, lng - dLng), maxLng: Math.min(180, lng + dLng) };
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function dayTypeOf(day: DayContext): 'ramadan' | 'holiday' | 'weekend' | 'working' {
  if (day.isHoliday) return 'holiday';
  if (day.isRamadan) return 'ramadan';
  if (day.isWeekend) return 'weekend';
  return 'working';
}

function windowView(window: [HourEstimate & { date?: string }, HourEstimate & { date?: string }] | null, withDate = false) {
  if (!window) return null;
  const [a, b] = window;
  const ratio = (a.expected!.speedRatio + b.expected!.speedRatio) / 2;
  const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  return {
    ...(withDate ? { date: a.date } : {}),
    startHour: a.hour,
    from: hh(a.hour),
    to: hh((b.hour + 1) % 24),
    speedRatio: Math.round(ratio * 1000) / 1000,
    delayPct: Math.round(((a.expected!.delayPct + b.expected!.delayPct) / 2) * 10) / 10,
    congestion: expectedTraffic(ratio, []).congestion,
  };
}

function meanRatio(window: [HourEstimate, HourEstimate]): number {
  return (window[0].expected!.speedRatio + window[1].expected!.speedRatio) / 2;
}

function worstCongestion(window: [HourEstimate, HourEstimate]) {
  return expectedTraffic(meanRatio(window), []).congestion;
}

function mostSevere(conditions: readonly WeatherCondition[]): WeatherCondition {
  return conditions.reduce((a, b) => (WEATHER_MULTIPLIERS[b] > WEATHER_MULTIPLIERS[a] ? b : a));
}

function weatherSummary(configured: boolean, whatIf: WeatherCondition | undefined, forecast: WeatherForecast | undefined) {
  if (whatIf !== undefined) return { source: 'what-if', condition: whatIf };
  if (!configured) return { source: 'none', reason: 'no weather provider is configured' };
  if (!forecast) return { source: 'none', reason: `no forecast for these days (the next ${FORECAST_HORIZON_HOURS} hours only) or the provider did not answer` };
  return { source: 'forecast', provider: forecast.provider, fetchedAt: new Date(forecast.fetchedAtMs).toISOString(), horizonHours: FORECAST_HORIZON_HOURS };
}
