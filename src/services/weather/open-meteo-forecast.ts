/**
 * The weather provider adapter: the next 72 hours of an Open-Meteo-compatible
 * forecast API (`WEATHER_URL`, e.g. https://api.open-meteo.com/v1/forecast)
 * for a point, hour by hour. SSRF-safe (the webhook URL policy: https to a
 * public host whose every address is public, the connection pinned to the
 * checked address; `WEATHER_ALLOWED_HOSTS` exempts a local test server), a
 * time budget, a size bound, no redirects, and a cache per 0.1° cell. A
 * failure answers undefined: callers then say the weather is unknown, they
 * never assume it.
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
const CACHE_ENTRIES = 2_000;
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

export interface OpenMeteoOptions {
  url?: string;
  allowedHosts?: readonly string[];
  resolveHost?: HostResolver;
  now?: () => number;
  timeoutMs?: number;
}

export class OpenMeteoForecast implements WeatherSource {
  readonly configured: boolean;
  private readonly policy: WebhookUrlPolicy;
  private readonly now: () => number;
  private readonly cache = new Map<string, { atMs: number; value: WeatherForecast | undefined; pending?: Promise<WeatherForecast | undefined> }>();

  constructor(private readonly options: OpenMeteoOptions) {
    this.configured = Boolean(options.url);
    this.policy = new WebhookUrlPolicy({ allowedHosts: options.allowedHosts ?? [], ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}) });
    this.now = options.now ?? Date.now;
  }

  async forecast(lat: number, lng: number): Promise<WeatherForecast | undefined> {
    if (!this.options.url) return undefined;
    // 0.1° (about 11 km): the provider's own grid is coarser than that
    const cellLat = Math.round(lat * 10) / 10;
    const cellLng = Math.round(lng * 10) / 10;
    const key = `${cellLat},${cellLng}`;
    const nowMs = this.now();
    const cached = this.cache.get(key);
    if (cached?.pending) return cached.pending;
    if (cached && nowMs - cached.atMs < (cached.value ? WEATHER_CACHE_MS : FAILURE_BACKOFF_MS)) return cached.value;
    const pending = this.fetch(cellLat, cellLng).catch(() => undefined);
    this.cache.set(key, { atMs: nowMs, value: undefined, pending });
    const value = await pending;
    this.cache.delete(key);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { atMs: this.now(), value });
    return value;
  }

  private async fetch(lat: number, lng: number): Promise<WeatherForecast | undefined> {
    const url = new URL(this.options.url!);
    url.searchParams.set('latitude', String(lat));
    url.searchParams.set('longitude', String(lng));
    url.searchParams.set('hourly', 'weather_code,precipitation,wind_gusts_10m,visibility');
    url.searchParams.set('forecast_days', '4');
    url.searchParams.set('timezone', 'GMT');
    url.searchParams.set('timeformat', 'unixtime');
    url.searchParams.set('wind_speed_unit', 'kmh');
    const resolved = await this.policy.resolve(url.href);
    if (!resolved.ok) return undefined;
    const body = await getJson(resolved.target.url, resolved.target.hostname, resolved.target.port, resolved.target.addresses, this.options.timeoutMs ?? WEATHER_TIMEOUT_MS);
    const hours = parseHourly(body);
    return hours ? { provider: resolved.target.hostname, fetchedAtMs: this.now(), hours } : undefined;
  }
}

/** The `hourly` block of an Open-Meteo answer (`timeformat=unixtime`, or ISO times read as UTC) as forecast hours. */
export function parseHourly(body: unknown): WeatherHour[] | undefined {
  const hourly = (body as { hourly?: Record<string, unknown> } | undefined)?.hourly;
  if (!hourly || !Array.isArray(hourly.time)) return undefined;
  const column = (name: string) => (Array.isArray(hourly[name]) ? (hourly[name] as unknown[]) : []);
  const codes = column('weather_code');
  const rain = column('precipitation');
  const gusts = column('wind_gusts_10m');
  const visibility = column('visibility');
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const hours: WeatherHour[] = [];
  hourly.time.forEach((time, index) => {
    const atMs = typeof time === 'number' ? time * 1000 : typeof time === 'string' ? Date.parse(/Z|[+-]\d\d:?\d\d$/.test(time) ? time : `${time}Z`) : Number.NaN;
    if (!Number.isFinite(atMs)) return;
    const hour: WeatherHour = { atMs };
    const code = number(codes[index]);
    const mm = number(rain[index]);
    const gust = number(gusts[index]);
    const seen = number(visibility[index]);
    if (code !== undefined) hour.weatherCode = code;
    if (mm !== undefined) hour.precipitationMm = mm;
    if (gust !== undefined) hour.windGustsKph = gust;
    if (seen !== undefined) hour.visibilityM = seen;
    hours.push(hour);
  });
  return hours.length ? hours.sort((a, b) => a.atMs - b.atMs) : undefined;
}

/** One GET to the checked address: 200 and JSON within the budget and size bound, else a rejection. */
function getJson(url: URL, hostname: string, port: number, addresses: readonly PinnedAddress[], timeoutMs: number): Promise<unknown> {
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
          if (size > MAX_WEATHER_BYTES) request.destroy(new Error('weather answer too large'));
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
