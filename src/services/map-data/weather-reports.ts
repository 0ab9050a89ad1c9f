/**
 * Weather at a point (GET /map/weather/point) and the weather risk of an area (GET /map/weather-risk),
 * read from the same provider and cache as the weather layer (docs/map-data.md, "Weather"). Without a
 * provider, or when it fails, both answer `hasData: false` with the reason; nothing is assumed.
 */
import { ApiError } from '../../shared/errors.js';
import type { WeatherHour } from '../weather/weather-conditions.js';
import { conditionOf } from '../weather/weather-conditions.js';
import { forecastCell } from '../weather/open-meteo-forecast.js';
import { sampleGrid } from '../weather/weather-grid.js';
import { areaRisk, hourWarnings } from '../weather/weather-risk.js';
import { clampedInt, parseBbox } from './overlay-queries.js';
import type { Bbox } from './pack-overlays.js';
import { isWeatherTime, WEATHER_TIMES, weatherIconOf } from './weather-features.js';
import { weatherIconFile } from './weather-icons.js';
import { NO_PROVIDER, type WeatherLayer } from './weather-layer.js';

const HOUR_MS = 3_600_000;
/** Hours of forecast the point answers by default, and at most. */
export const DEFAULT_POINT_HOURS = 12;
export const MAX_POINT_HOURS = 48;
/** The risk window (hours from `time`) by default and at most. */
export const DEFAULT_RISK_HOURS = 3;
export const MAX_RISK_HOURS = 12;
export const DEFAULT_RISK_RADIUS_KM = 10;
export const MAX_RISK_RADIUS_KM = 200;
/** The risk samples the grid at this zoom (0.1° cells), coarsened to at most 100 cells for a large area. */
const RISK_GRID_ZOOM = 9;
const KM_PER_DEGREE_LAT = 111.32;

type Query = Record<string, string | undefined>;
type Units = 'metric' | 'imperial';

const UNIT_LABELS: Record<Units, { temperature: string; precipitation: string; windSpeed: string; visibility: string }> = {
  metric: { temperature: '°C', precipitation: 'mm', windSpeed: 'km/h', visibility: 'km' },
  imperial: { temperature: '°F', precipitation: 'in', windSpeed: 'mph', visibility: 'mi' },
};

function coordinate(value: string | undefined, name: string, limit: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || Math.abs(number) > limit) throw new ApiError('VALIDATION_ERROR', { message: [`${name}: a number from -${limit} to ${limit}`] });
  return number;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** One hour as the point answers it, in the asked units, with its icon (part 2 §2.11). */
function hourReport(hour: WeatherHour, units: Units, origin: string) {
  const metric = units === 'metric';
  const optional = (value: number | undefined, convert: (value: number) => number, digits: number) => (value === undefined ? null : round(convert(value), digits));
  const temperature = (celsius: number) => (metric ? celsius : (celsius * 9) / 5 + 32);
  const speed = (kph: number) => (metric ? kph : kph / 1.609344);
  const icon = weatherIconOf(hour);
  return {
    time: new Date(hour.atMs).toISOString(),
    condition: conditionOf(hour),
    icon,
    iconLightUrl: `${origin}/uploads/weather-icons/${weatherIconFile(icon, 'light')}`,
    iconDarkUrl: `${origin}/uploads/weather-icons/${weatherIconFile(icon, 'dark')}`,
    weatherCode: hour.weatherCode ?? null,
    isDay: hour.isDay ?? null,
    temperature: optional(hour.temperatureC, temperature, 1),
    apparentTemperature: optional(hour.apparentTemperatureC, temperature, 1),
    relativeHumidityPercent: optional(hour.relativeHumidityPercent, (value) => value, 0),
    precipitation: optional(hour.precipitationMm, (mm) => (metric ? mm : mm / 25.4), metric ? 1 : 2),
    precipitationProbabilityPercent: optional(hour.precipitationProbabilityPercent, (value) => value, 0),
    cloudCoverPercent: optional(hour.cloudCoverPercent, (value) => value, 0),
    windSpeed: optional(hour.windSpeedKph, speed, 1),
    windGusts: optional(hour.windGustsKph, speed, 1),
    windDirectionDeg: optional(hour.windDirectionDeg, (value) => value, 0),
    visibility: optional(hour.visibilityM, (m) => (metric ? m / 1_000 : m / 1_609.344), 1),
  };
}

export class WeatherReports {
  constructor(
    private readonly layer: WeatherLayer,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /map/weather/point: `lat` and `lng` (or `lon`) required, `units` metric|imperial, `hours` 1–48 (default 12). */
  async point(query: Query, origin: string) {
    const lat = coordinate(query.lat, 'lat', 90);
    const lng = coordinate(query.lng ?? query.lon, query.lng !== undefined ? 'lng' : 'lon', 180);
    if (lat === undefined || lng === undefined) throw new ApiError('VALIDATION_ERROR', { message: ['lat and lng (or lon) are required numbers'] });
    const unitsValue = query.units?.trim() || 'metric';
    if (unitsValue !== 'metric' && unitsValue !== 'imperial') throw new ApiError('VALIDATION_ERROR', { message: ['units: metric or imperial'] });
    const units: Units = unitsValue;
    const hours = clampedInt(query.hours, DEFAULT_POINT_HOURS, 1, MAX_POINT_HOURS);
    const cell = forecastCell(lat, lng);
    const base = { location: { lat, lng }, cell: { lat: cell.lat, lng: cell.lng }, units, unitLabels: UNIT_LABELS[units], provider: this.layer.provider.status().provider };
    if (!this.layer.provider.configured) return { hasData: false, reason: NO_PROVIDER, ...base, current: null, hourly: [], warnings: [] };
    const batch = await this.layer.forecasts([{ lat, lng }]);
    const forecast = batch.forecasts[0];
    const currentMs = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    const ahead = forecast?.hours.filter((hour) => hour.atMs >= currentMs).slice(0, hours) ?? [];
    const current = ahead[0]?.atMs === currentMs ? ahead[0] : undefined;
    if (!forecast || !current) return { hasData: false, reason: batch.error ?? 'the weather provider gave no forecast for this hour', ...base, current: null, hourly: [], warnings: [] };
    const warnings = areaRisk([{ lat: cell.lat, lng: cell.lng, hours: ahead.slice(0, 4) }]).warnings.map(({ lat: _lat, lng: _lng, affectedSamples: _samples, ...warning }) => warning);
    return {
      hasData: true,
      ...base,
      fetchedAt: new Date(forecast.fetchedAtMs).toISOString(),
      current: { ...hourReport(current, units, origin), warnings: hourWarnings(current) },
      hourly: ahead.map((hour) => hourReport(hour, units, origin)),
      warnings,
    };
  }

  /**
   * GET /map/weather-risk: the area is `bbox`, or `lat`/`lng` (`lon`) with `radiusKm` (0.5–200, default 10);
   * `time` -1h|now|+1h|+3h (default now) starts a window of `hours` (1–12, default 3). Bad input degrades
   * to `hasData: false` with `error` (part 2 §4.8).
   */
  async risk(query: Query) {
    const time = query.time?.trim() || 'now';
    const hours = clampedInt(query.hours, DEFAULT_RISK_HOURS, 1, MAX_RISK_HOURS);
    let area: { bbox: Bbox; center?: { lat: number; lng: number }; radiusKm?: number } | undefined;
    let error: string | undefined;
    if (!isWeatherTime(time)) error = `time: one of ${Object.keys(WEATHER_TIMES).join(', ')}`;
    else if (query.bbox !== undefined) {
      const bbox = parseBbox(query.bbox);
      if (!bbox.ok) error = bbox.error;
      else if (bbox.value) area = { bbox: bbox.value };
    } else {
      const lat = Number(query.lat);
      const lng = Number(query.lng ?? query.lon);
      const radiusKm = Math.min(MAX_RISK_RADIUS_KM, Math.max(0.5, Number(query.radiusKm ?? DEFAULT_RISK_RADIUS_KM) || DEFAULT_RISK_RADIUS_KM));
      if (query.lat === undefined || (query.lng ?? query.lon) === undefined || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 85 || Math.abs(lng) > 180) {
        error = 'an area is required: bbox=west,south,east,north, or lat and lng (within ±85 / ±180) with radiusKm';
      } else {
        const dLat = radiusKm / KM_PER_DEGREE_LAT;
        const dLng = radiusKm / (KM_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180));
        area = { bbox: [Math.max(-180, lng - dLng), lat - dLat, Math.min(180, lng + dLng), lat + dLat].map((value) => round(value, 6)) as Bbox, center: { lat, lng }, radiusKm };
      }
    }
    if (!area && !error) error = 'an area is required: bbox=west,south,east,north, or lat and lng with radiusKm';
    const offset = isWeatherTime(time) ? WEATHER_TIMES[time] : 0;
    const fromMs = Math.floor(this.now() / HOUR_MS) * HOUR_MS + offset * HOUR_MS;
    const window = { from: new Date(fromMs).toISOString(), to: new Date(fromMs + hours * HOUR_MS).toISOString(), hours };
    const unknown = (why: { error?: string; reason?: string }, extra: object = {}) => ({
      hasData: false,
      score: null,
      severity: null,
      warnings: [],
      area: area ?? null,
      time: isWeatherTime(time) ? time : 'now',
      window,
      samples: 0,
      provider: this.layer.provider.status().provider,
      ...extra,
      ...why,
    });
    if (error || !area) return unknown({ error: error! });
    if (!this.layer.provider.configured) return unknown({ reason: NO_PROVIDER });
    const grid = sampleGrid(area.bbox, RISK_GRID_ZOOM);
    const batch = await this.layer.forecasts(grid.samples);
    const samples = grid.samples.flatMap((sample, index) => {
      const inWindow = batch.forecasts[index]?.hours.filter((hour) => hour.atMs >= fromMs && hour.atMs < fromMs + hours * HOUR_MS) ?? [];
      return inWindow.length ? [{ lat: sample.lat, lng: sample.lng, hours: inWindow }] : [];
    });
    if (!samples.length) return unknown({ reason: batch.error ?? 'the weather provider gave no forecast for this window' }, { gridStepDeg: grid.stepDeg });
    const risk = areaRisk(samples);
    return {
      hasData: true,
      score: risk.score,
      severity: risk.severity,
      warnings: risk.warnings,
      area,
      time,
      window,
      samples: samples.length,
      gridStepDeg: grid.stepDeg,
      provider: this.layer.provider.status().provider,
      ...(batch.error ? { partial: true, reason: batch.error } : {}),
      note: 'derived from the forecast with fixed thresholds (docs/map-data.md), not warnings issued by a weather service',
    };
  }
}
