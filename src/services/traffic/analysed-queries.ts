/**
 * Query parameters of the analysed-traffic endpoints (docs/traffic.md,
 * "Analysed traffic"): the point and radius, the what-if weather, the local
 * date, the windows' hours and the outlook's language; 400 with a message
 * naming the parameter otherwise.
 */
import { ApiError } from '../../shared/errors.js';
import type { CountryCode } from '../calendars/country-profiles.js';
import { isWeatherCondition, WEATHER_CONDITIONS, type WeatherCondition } from '../weather/weather-conditions.js';
import type { OutlookLanguage } from './analysed-outlook.js';
import { countryOrJordan } from './traffic-model.js';
import { parseHour } from './traffic-queries.js';

export const DEFAULT_RADIUS_M = 750;
export const MAX_RADIUS_M = 5_000;

type Query = Record<string, string | undefined>;

export interface AreaQuery {
  lat: number;
  lng: number;
  radiusMeters: number;
  askedCountry: CountryCode | undefined;
  whatIf: WeatherCondition | undefined;
}

export function parseArea(query: Query): AreaQuery {
  const lat = parseNumber(query.lat);
  const lng = parseNumber(query.lng ?? query.lon);
  if (lat === undefined || lng === undefined) throw new ApiError('VALIDATION_ERROR', { message: 'lat and lng required' });
  if (!(lat >= -90 && lat <= 90) || !(lng >= -180 && lng <= 180)) throw new ApiError('VALIDATION_ERROR', { message: 'lat must be within -90..90 and lng within -180..180' });
  let radiusMeters = DEFAULT_RADIUS_M;
  if (query.radius !== undefined && query.radius.trim() !== '') {
    const radius = parseNumber(query.radius);
    if (radius === undefined || radius < 50 || radius > MAX_RADIUS_M) throw new ApiError('VALIDATION_ERROR', { message: `radius: metres from 50 to ${MAX_RADIUS_M}` });
    radiusMeters = Math.round(radius);
  }
  let whatIf: WeatherCondition | undefined;
  if (query.weather !== undefined && query.weather.trim() !== '') {
    const value = query.weather.trim().toLowerCase().replace(/[\s-]+/g, '_');
    if (!isWeatherCondition(value)) throw new ApiError('VALIDATION_ERROR', { message: `weather: one of ${WEATHER_CONDITIONS.join(', ')}` });
    whatIf = value;
  }
  return { lat, lng, radiusMeters, askedCountry: query.country === undefined || query.country.trim() === '' ? undefined : countryOrJordan(query.country), whatIf };
}

function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new ApiError('VALIDATION_ERROR', { message: `${value.slice(0, 40)} is not a number` });
  return number;
}

export function parseWindow(query: Query): { from: number; to: number } {
  const from = parseHour(query.from, 6, 'from');
  const to = parseHour(query.to, 22, 'to');
  if (from >= to) throw new ApiError('VALIDATION_ERROR', { message: 'from must be before to' });
  return { from, to };
}

export function parseDate(value: string | undefined, fallback: string): string {
  if (value === undefined || value.trim() === '') return fallback;
  const date = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new ApiError('VALIDATION_ERROR', { message: 'date: a local date YYYY-MM-DD' });
  }
  return date;
}

export function parseLanguage(value: string | undefined): OutlookLanguage {
  if (value === undefined || value.trim() === '') return 'en';
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'en' || primary === 'ar') return primary;
  throw new ApiError('VALIDATION_ERROR', { message: 'lang: en or ar' });
}

