/**
 * The weather layer's features (part 2 §4.8, §2.11): one polygon per sampled grid cell and weather
 * type, carrying the provider's measured values, the icon slug (`weatherType`) and a colour from the
 * scales below. Pure; the layer service samples the forecast and calls these.
 */
import type { GridSample } from '../weather/weather-grid.js';
import { conditionOf, type WeatherHour } from '../weather/weather-conditions.js';
import { hourWarnings, type WeatherHazard } from '../weather/weather-risk.js';
import type { OverlayFeature } from './pack-overlays.js';
import type { WeatherIconSlug } from './weather-icons.js';

/** The `type` filter's values (part 2 §4.8). */
export const WEATHER_TYPES = ['precipitation', 'temperature', 'clouds', 'storms', 'alerts'] as const;
export type WeatherType = (typeof WEATHER_TYPES)[number];

/** The `time` filter's values and their offset from the current hour. */
export const WEATHER_TIMES = { '-1h': -1, now: 0, '+1h': 1, '+3h': 3 } as const;
export type WeatherTime = keyof typeof WEATHER_TIMES;

export function isWeatherType(value: string): value is WeatherType {
  return (WEATHER_TYPES as readonly string[]).includes(value);
}

export function isWeatherTime(value: string): value is WeatherTime {
  return Object.hasOwn(WEATHER_TIMES, value);
}

/** Precipitation shown from this rate (mm/h): below it the cell is dry. */
const PRECIPITATION_SHOWN_MM = 0.1;
/** Cloud cover shown from this share (%). */
const CLOUDS_SHOWN_PERCENT = 10;

/** Colour stops: the colour of the highest stop at or below the value. */
type Scale = readonly (readonly [number, string])[];
const TEMPERATURE_SCALE: Scale = [
  [-Infinity, '#2c7bb6'],
  [10, '#00a6ca'],
  [20, '#00ccbc'],
  [25, '#90eb9d'],
  [30, '#ffff8c'],
  [35, '#f9d057'],
  [40, '#f29e2e'],
  [45, '#e76818'],
  [50, '#d7191c'],
];
const PRECIPITATION_SCALE: Scale = [
  [-Infinity, '#a5d8ff'],
  [1, '#4dabf7'],
  [2.5, '#1c7ed6'],
  [4, '#1864ab'],
  [8, '#5f3dc4'],
  [16, '#862e9c'],
];
const CLOUD_SCALE: Scale = [
  [-Infinity, '#e9ecef'],
  [40, '#ced4da'],
  [70, '#adb5bd'],
  [90, '#868e96'],
];
export const SEVERITY_COLORS = { none: '#9e9e9e', low: '#fdd835', moderate: '#fb8c00', high: '#e53935', severe: '#8e24aa' } as const;
const STORM_COLOR = '#6a1b9a';

export function colorOn(scale: Scale, value: number): string {
  let color = scale[0]![1];
  for (const [from, stop] of scale) if (value >= from) color = stop;
  return color;
}

/** The icon an hour is drawn with (part 2 §2.11): the weather that matters most, else sky and day or night. */
export function weatherIconOf(hour: Omit<WeatherHour, 'atMs'>): WeatherIconSlug {
  const code = hour.weatherCode ?? -1;
  switch (conditionOf(hour)) {
    case 'storm':
      return 'storm';
    case 'snow':
      return 'snow';
    case 'heavy_rain':
    case 'rain':
      return 'rain';
    case 'dust':
      return 'wind';
    case 'fog':
      return 'fog';
    case 'clear':
      break;
  }
  if ((hour.precipitationMm ?? 0) >= PRECIPITATION_SHOWN_MM || (code >= 51 && code <= 67)) return 'rain';
  if ((hour.temperatureC ?? 0) >= 40) return 'heat';
  if (hour.temperatureC !== undefined && hour.temperatureC <= 0) return 'cold';
  if ((hour.windGustsKph ?? 0) >= 50) return 'wind';
  const clouds = hour.cloudCoverPercent ?? (code === 3 ? 100 : code === 1 || code === 2 ? 50 : 0);
  if (clouds >= 85) return 'cloud';
  if (clouds >= 30) return 'partly';
  return hour.isDay === false ? 'clear-night' : 'clear';
}

const HAZARD_ICONS: Record<WeatherHazard, WeatherIconSlug> = {
  storm: 'storm',
  heavy_rain: 'rain',
  rain: 'rain',
  snow: 'snow',
  fog: 'fog',
  visibility: 'fog',
  dust: 'wind',
  wind: 'wind',
  heat: 'heat',
};

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The features of one sampled cell at one hour, for the asked types (a type with nothing to show gives none). */
export function cellFeatures(sample: GridSample, hour: WeatherHour, types: readonly WeatherType[], stepDeg: number): OverlayFeature[] {
  const [west, south, east, north] = sample.cell;
  const geometry = { type: 'Polygon' as const, coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] };
  const time = new Date(hour.atMs).toISOString();
  const icon = weatherIconOf(hour);
  const measured = {
    time,
    lat: sample.lat,
    lng: sample.lng,
    cellSizeDeg: stepDeg,
    condition: conditionOf(hour),
    weatherCode: hour.weatherCode ?? null,
    temperatureC: hour.temperatureC ?? null,
    precipitationMm: hour.precipitationMm ?? null,
    cloudCoverPercent: hour.cloudCoverPercent ?? null,
    windSpeedKph: hour.windSpeedKph ?? null,
    windGustsKph: hour.windGustsKph ?? null,
    visibilityM: hour.visibilityM ?? null,
  };
  const feature = (type: WeatherType, weatherType: WeatherIconSlug, color: string, value: number | null, unit: string, name: string, extra: Record<string, string | number | null> = {}): OverlayFeature => ({
    type: 'Feature',
    geometry,
    properties: { id: `weather:${type}:${sample.lat},${sample.lng}:${hour.atMs / 1000}`, name, layerType: 'weather', type, weatherType, icon: weatherType, color, value, unit, ...measured, ...extra },
  });
  const out: OverlayFeature[] = [];
  for (const type of types) {
    switch (type) {
      case 'temperature':
        if (hour.temperatureC !== undefined) out.push(feature(type, icon, colorOn(TEMPERATURE_SCALE, hour.temperatureC), round1(hour.temperatureC), '°C', `${round1(hour.temperatureC)} °C`));
        break;
      case 'precipitation': {
        const mm = hour.precipitationMm ?? 0;
        if (mm >= PRECIPITATION_SHOWN_MM) out.push(feature(type, icon === 'storm' || icon === 'snow' ? icon : 'rain', colorOn(PRECIPITATION_SCALE, mm), round1(mm), 'mm/h', `${icon === 'snow' ? 'Snow' : 'Rain'} ${round1(mm)} mm/h`));
        break;
      }
      case 'clouds': {
        const clouds = hour.cloudCoverPercent;
        if (clouds !== undefined && clouds >= CLOUDS_SHOWN_PERCENT) out.push(feature(type, clouds >= 85 ? 'cloud' : 'partly', colorOn(CLOUD_SCALE, clouds), Math.round(clouds), '%', `Cloud cover ${Math.round(clouds)} %`));
        break;
      }
      case 'storms': {
        const storm = hourWarnings(hour).find((found) => found.kind === 'storm');
        if (storm) out.push(feature(type, 'storm', STORM_COLOR, storm.value, storm.unit, storm.reason, { severity: storm.severity, score: storm.score }));
        break;
      }
      case 'alerts': {
        const warnings = hourWarnings(hour).sort((a, b) => b.score - a.score);
        const worst = warnings[0];
        if (worst) {
          out.push(
            feature(type, HAZARD_ICONS[worst.kind], SEVERITY_COLORS[worst.severity], worst.value, worst.unit, worst.reason, {
              hazard: worst.kind,
              severity: worst.severity,
              score: worst.score,
              hazards: warnings.map((found) => found.kind).join(','),
            }),
          );
        }
        break;
      }
    }
  }
  return out;
}
