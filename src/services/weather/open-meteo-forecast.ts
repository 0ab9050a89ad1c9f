/**
 * The weather provider adapter: the next 72 hours of an Open-Meteo-compatible
 * forecast API (`WEATHER_URL`, e.g. https://api.open-meteo.com/v1/forecast)
 * for a point, hour by hour. SSRF-safe (the webhook URL policy: https to a
 * public host whose every address is public, the connection pinned to the
 * checked address; `WEATHER_ALLOWED_HOSTS` exempts a local test server), a
 * time budget, a size bound, no redirects, and a cache per 0.1° cell. Many
 * cells are read in one multi-location request (`latitude=a,b&longitude=c,d`,
 * answered as an array), at most `MAX_LOCATIONS_PER_REQUEST` per call and
 * `MAX_CONCURRENT_REQUESTS` calls at once. A failure answers undefined: callers
 * then say the weather is unknown, they never assume it.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup } from '../webhooks/webhook-http.js';
import { WebhookUrlPolicy, type HostResolver, type PinnedAddress } from '../webhooks/webhook-url-guard.js';
import type { WeatherHour } from './weather-conditions.js';

export const FORECAST_HORIZON_HOURS = 72;
export const WEATHER_TIMEOUT_MS = 4_000;
export const MAX_WEATHER_BYTES = 1024 * 1024;
/** How long one point's forecast is reused; the provider updates hourly. */
export const WEATHER_CACHE_MS = 30 * 60_000;
const CACHE_ENTRIES = 4_000;
/** Cells per provider call (Open-Meteo accepts comma-separated coordinates; the answer is an array). */
export const MAX_LOCATIONS_PER_REQUEST = 50;
/** Provider calls in flight at once from this process; more wait their turn. */
export const MAX_CONCURRENT_REQUESTS = 4;
/** Hours kept before the current one (the map's `time=-1h`). */
const PAST_HOURS_KEPT = 3;
/** The hourly variables asked for (metric: °C, mm, km/h, m). */
const HOURLY_VARIABLES = [
  'weather_code',
  'temperature_2m',
  'apparent_temperature',
  'relative_humidity_2m',
  'precipitation',
  'precipitation_probability',
  'cloud_cover',
  'wind_speed_10m',
  'wind_gusts_10m',
  'wind_direction_10m',
  'visibility',
  'is_day',
].join(',');
/** A failed fetch is not retried for this long (a provider outage must not cost every request the timeout). */
const FAILURE_BACKOFF_MS = 60_000;

export interface WeatherForecast {
  /** Provider host, for the answer's `weather.provider`. */
  provider: string;
  fetchedAtMs: number;
  hours: WeatherHour[];
}

export interface WeatherSource {
  readonly configured: boolean;
  /** The hourly forecast around a point, or undefined when unconfigured or the provider failed. */
  forecast(lat: number, lng: number): Promise<WeatherForecast | undefined>;
}

/** Forecasts for many points, in their order, and why some are missing. */
export interface WeatherBatch {
  forecasts: (WeatherForecast | undefined)[];
  /** Set when any point has no forecast: the provider's failure, or that none is configured. */
  error?: string;
}

export interface WeatherProviderStatus {
  configured: boolean;
  /** The provider's host (never the query or any credential in the URL). */
  provider: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
}

/** Whether the provider serves forecasts now, for /map/readiness. */
export interface WeatherReadiness {
  /** The last call succeeded within the cache lifetime (WEATHER_CACHE_MS), with no failure since. */
  data: boolean;
  /** Why not, when `data` is false. */
  reason?: string;
}

/** A forecast cell: the provider's point for a coordinate (0.1°, about 11 km; the provider's own grid is coarser). */
export function forecastCell(lat: number, lng: number): { lat: number; lng: number; key: string } {
  const cellLat = Math.round(lat * 10) / 10;
  const cellLng = Math.round(lng * 10) / 10;
  return { lat: cellLat, lng: cellLng, key: `${cellLat},${cellLng}` };
}

export interface OpenMeteoOptions {
  url?: string;
  allowedHosts?: readonly string[];
  resolveHost?: HostResolver;
  now?: () => number;
  timeoutMs?: number;
}

interface CellAnswer {
  value: WeatherForecast | undefined;
  /** Why there is no value (the failed call's reason). */
  error?: string;
}

interface CacheEntry extends CellAnswer {
  atMs: number;
  /** The call in flight for this cell. */
  pending?: Promise<CellAnswer>;
}

export class OpenMeteoForecast implements WeatherSource {
  readonly configured: boolean;
  private readonly policy: WebhookUrlPolicy;
  private readonly now: () => number;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly slots: (() => void)[] = [];
  private active = 0;
  private lastSuccessMs: number | undefined;
  private lastFailureMs: number | undefined;
  private lastError: string | undefined;
  private probing: Promise<unknown> | undefined;

  constructor(private readonly options: OpenMeteoOptions) {
    this.configured = Boolean(options.url);
    this.policy = new WebhookUrlPolicy({ allowedHosts: options.allowedHosts ?? [], ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}) });
    this.now = options.now ?? Date.now;
  }

  async forecast(lat: number, lng: number): Promise<WeatherForecast | undefined> {
    return (await this.forecastMany([{ lat, lng }])).forecasts[0];
  }

  /**
   * The forecasts of many points: cached cells at once, the rest in multi-location calls of at most
   * `MAX_LOCATIONS_PER_REQUEST` cells. A cell asked for while its call is in flight waits for that call.
   */
  async forecastMany(points: readonly { lat: number; lng: number }[]): Promise<WeatherBatch> {
    if (!this.options.url) return { forecasts: points.map(() => undefined), error: 'no weather provider is configured (WEATHER_URL)' };
    const cells = points.map((point) => forecastCell(point.lat, point.lng));
    const nowMs = this.now();
    const missing = new Map<string, { lat: number; lng: number; key: string }>();
    for (const cell of cells) {
      const cached = this.cache.get(cell.key);
      if (cached?.pending) continue;
      if (cached && nowMs - cached.atMs < (cached.value ? WEATHER_CACHE_MS : FAILURE_BACKOFF_MS)) continue;
      missing.set(cell.key, cell);
    }
    const batches: { lat: number; lng: number; key: string }[][] = [];
    for (const cell of missing.values()) {
      if (!batches.length || batches.at(-1)!.length >= MAX_LOCATIONS_PER_REQUEST) batches.push([]);
      batches.at(-1)!.push(cell);
    }
    for (const batch of batches) {
      const call = this.throttled(() => this.fetch(batch)).then(
        (result) => this.settle(batch, result),
        (error: unknown) => this.settle(batch, { error: messageOf(error) }),
      );
      for (const [index, cell] of batch.entries()) this.cache.set(cell.key, { atMs: nowMs, value: undefined, pending: call.then((settled) => settled[index]!) });
    }
    const answers = await Promise.all(cells.map((cell) => this.cache.get(cell.key)?.pending ?? this.cache.get(cell.key) ?? ({ value: undefined } as CellAnswer)));
    const forecasts = answers.map((answer) => answer.value);
    const missed = answers.find((answer) => !answer.value);
    return missed ? { forecasts, error: missed.error ? `the weather provider failed: ${missed.error}` : 'the weather provider gave no forecast here' } : { forecasts };
  }

  status(): WeatherProviderStatus {
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    let provider: string | null = null;
    if (this.options.url) provider = new URL(this.options.url).host;
    return { configured: this.configured, provider, lastSuccessAt: iso(this.lastSuccessMs), lastFailureAt: iso(this.lastFailureMs), lastError: this.lastError ?? null };
  }

  /** Configured, and the last call (if any) succeeded. */
  get healthy(): boolean {
    return this.configured && !this.failedLast;
  }

  /** A call has failed, and none succeeded after it. */
  private get failedLast(): boolean {
    return this.lastFailureMs !== undefined && (this.lastSuccessMs === undefined || this.lastFailureMs >= this.lastSuccessMs);
  }

  /**
   * Whether the provider serves forecasts now, from its last outcome: a success within the cache
   * lifetime and no failure since is data; a failure within the failure back-off is not, with its
   * reason. When neither is that recent (never asked, or long ago), the provider is asked once for
   * the cell of `probeAt` (the map's centre) and that outcome answers; concurrent callers share the
   * call, so readiness costs the provider at most a call per back-off or cache period.
   */
  async readiness(probeAt: { lat: number; lng: number } | undefined): Promise<WeatherReadiness> {
    if (!this.options.url) return { data: false, reason: 'no weather provider is configured (WEATHER_URL)' };
    const nowMs = this.now();
    const recent = this.failedLast ? nowMs - this.lastFailureMs! < FAILURE_BACKOFF_MS : this.lastSuccessMs !== undefined && nowMs - this.lastSuccessMs < WEATHER_CACHE_MS;
    if (!recent && probeAt) await this.probe(probeAt);
    return this.lastOutcome(this.now());
  }

  private lastOutcome(nowMs: number): WeatherReadiness {
    const iso = (ms: number) => new Date(ms).toISOString();
    if (this.failedLast) {
      return { data: false, reason: `the weather provider's last call failed at ${iso(this.lastFailureMs!)}: ${this.lastError ?? 'unknown error'}` };
    }
    if (this.lastSuccessMs === undefined) return { data: false, reason: 'the weather provider has not been asked yet' };
    if (nowMs - this.lastSuccessMs >= WEATHER_CACHE_MS) return { data: false, reason: `the weather provider's last success was at ${iso(this.lastSuccessMs)}, past the ${WEATHER_CACHE_MS / 60_000} min a forecast is kept` };
    return { data: true };
  }

  /** One call for a cell, past the cache (a cached forecast says nothing of the provider now); the outcome is filed as any call's. */
  private probe(point: { lat: number; lng: number }): Promise<unknown> {
    const cell = forecastCell(point.lat, point.lng);
    this.probing ??= this.throttled(() => this.fetch([cell]))
      .then(
        (result) => this.settle([cell], result),
        (error: unknown) => this.settle([cell], { error: messageOf(error) }),
      )
      .finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Files a call's answers (or its failure) per cell and keeps the provider's health. */
  private settle(batch: readonly { key: string }[], result: { forecasts: (WeatherForecast | undefined)[] } | { error: string }): CellAnswer[] {
    const atMs = this.now();
    if ('error' in result) {
      this.lastFailureMs = atMs;
      this.lastError = result.error;
    } else {
      this.lastSuccessMs = atMs;
    }
    return batch.map((cell, index) => {
      const answer: CellAnswer = 'error' in result ? { value: undefined, error: result.error } : { value: result.forecasts[index] };
      this.cache.delete(cell.key);
      while (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(cell.key, { atMs, ...answer });
      return answer;
    });
  }

  /** At most MAX_CONCURRENT_REQUESTS provider calls at once: one outage or burst must not open a connection per request. */
  private async throttled<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= MAX_CONCURRENT_REQUESTS) await new Promise<void>((resolve) => this.slots.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.slots.shift()?.();
    }
  }

  private async fetch(cells: readonly { lat: number; lng: number }[]): Promise<{ forecasts: (WeatherForecast | undefined)[] }> {
    const url = new URL(this.options.url!);
    url.searchParams.set('latitude', cells.map((cell) => cell.lat).join(','));
    url.searchParams.set('longitude', cells.map((cell) => cell.lng).join(','));
    url.searchParams.set('hourly', HOURLY_VARIABLES);
    url.searchParams.set('past_days', '1');
    url.searchParams.set('forecast_days', '4');
    url.searchParams.set('timezone', 'GMT');
    url.searchParams.set('timeformat', 'unixtime');
    url.searchParams.set('wind_speed_unit', 'kmh');
    const resolved = await this.policy.resolve(url.href);
    if (!resolved.ok) throw new Error(`the provider URL is refused: ${resolved.reason}`);
    const maxBytes = MAX_WEATHER_BYTES * Math.max(1, Math.ceil(cells.length / 4));
    const body = await getJson(resolved.target.url, resolved.target.hostname, resolved.target.port, resolved.target.addresses, this.options.timeoutMs ?? WEATHER_TIMEOUT_MS, maxBytes);
    // one location answers an object, several an array in the order asked
    const answers = Array.isArray(body) ? body : [body];
    if (answers.length !== cells.length) throw new Error(`the provider answered ${answers.length} locations for ${cells.length}`);
    const fetchedAtMs = this.now();
    const fromMs = Math.floor(fetchedAtMs / 3_600_000) * 3_600_000 - PAST_HOURS_KEPT * 3_600_000;
    const forecasts = answers.map((answer) => {
      const hours = parseHourly(answer)?.filter((hour) => hour.atMs >= fromMs);
      return hours?.length ? { provider: resolved.target.hostname, fetchedAtMs, hours } : undefined;
    });
    if (forecasts.every((forecast) => !forecast)) throw new Error('the provider answered no hourly forecast');
    return { forecasts };
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.name === 'TimeoutError' || error.name === 'AbortError' ? 'timed out' : error.message;
  return String(error);
}

/** The `hourly` block of an Open-Meteo answer (`timeformat=unixtime`, or ISO times read as UTC) as forecast hours. */
export function parseHourly(body: unknown): WeatherHour[] | undefined {
  const hourly = (body as { hourly?: Record<string, unknown> } | undefined)?.hourly;
  if (!hourly || !Array.isArray(hourly.time)) return undefined;
  const column = (name: string) => (Array.isArray(hourly[name]) ? (hourly[name] as unknown[]) : []);
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const fields: [keyof Omit<WeatherHour, 'atMs' | 'isDay'>, unknown[]][] = [
    ['weatherCode', column('weather_code')],
    ['precipitationMm', column('precipitation')],
    ['windGustsKph', column('wind_gusts_10m')],
    ['visibilityM', column('visibility')],
    ['temperatureC', column('temperature_2m')],
    ['apparentTemperatureC', column('apparent_temperature')],
    ['relativeHumidityPercent', column('relative_humidity_2m')],
    ['precipitationProbabilityPercent', column('precipitation_probability')],
    ['cloudCoverPercent', column('cloud_cover')],
    ['windSpeedKph', column('wind_speed_10m')],
    ['windDirectionDeg', column('wind_direction_10m')],
  ];
  const isDay = column('is_day');
  const hours: WeatherHour[] = [];
  hourly.time.forEach((time, index) => {
    const atMs = typeof time === 'number' ? time * 1000 : typeof time === 'string' ? Date.parse(/Z|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`) : Number.NaN;
    if (!Number.isFinite(atMs)) return;
    const hour: WeatherHour = { atMs };
    for (const [field, values] of fields) {
      const value = number(values[index]);
      if (value !== undefined) hour[field] = value;
    }
    const day = number(isDay[index]);
    if (day !== undefined) hour.isDay = day === 1;
    hours.push(hour);
  });
  return hours.length ? hours.sort((a, b) => a.atMs - b.atMs) : undefined;
}

/** One GET to the checked address: 200 and JSON within the budget and size bound, else a rejection. */
function getJson(url: URL, hostname: string, port: number, addresses: readonly PinnedAddress[], timeoutMs: number, maxBytes: number): Promise<unknown> {
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      { hostname, port, path: `${url.pathname}${url.search}`, method: 'GET', headers: { accept: 'application/json' }, lookup: pinnedLookup(addresses), agent: false, signal: AbortSignal.timeout(timeoutMs) },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`weather provider answered HTTP ${response.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) request.destroy(new Error('weather answer too large'));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new Error('weather answer is not JSON'));
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}
