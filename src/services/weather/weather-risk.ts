/**
 * Weather risk for driving and deliveries (GET /map/weather-risk, the weather layer's `alerts`, the
 * point's `warnings`): each forecast hour gives warnings with a score 0–100 and a reason; an area
 * and a window take the worst of each kind. Derived from the forecast's own numbers with the
 * thresholds below (docs/map-data.md, "Weather risk"); they are not warnings issued by a weather
 * service. Pure.
 */
import { DUST_GUST_KPH, DUST_VISIBILITY_M, FOG_VISIBILITY_M, HEAVY_RAIN_MM_PER_HOUR, RAIN_MM_PER_HOUR, STORM_GUST_KPH, type WeatherHour } from './weather-conditions.js';

export const WEATHER_HAZARDS = ['storm', 'heavy_rain', 'rain', 'snow', 'fog', 'visibility', 'dust', 'wind', 'heat'] as const;
export type WeatherHazard = (typeof WEATHER_HAZARDS)[number];
export type RiskSeverity = 'none' | 'low' | 'moderate' | 'high' | 'severe';

/** Gusts from which wind alone is a warning (high-sided vehicles, motorcycles), km/h. */
export const WIND_GUST_KPH = 50;
/** Air temperature from which heat is a warning (vehicle and driver strain, tyre blow-outs), °C. */
export const HEAT_C = 40;
/** Reduced visibility (haze, light dust) below this, metres. */
export const LOW_VISIBILITY_M = 5_000;

export interface WeatherWarning {
  kind: WeatherHazard;
  score: number;
  severity: RiskSeverity;
  /** Why, in words, with the number. */
  reason: string;
  /** The measured value the warning rests on, in `unit` (null when only the weather code said so). */
  value: number | null;
  unit: string;
  /** Where the warning starts, in `unit`. */
  threshold: number;
}

/** low < 25 ≤ moderate < 50 ≤ high < 75 ≤ severe. */
export function severityOf(score: number): RiskSeverity {
  if (score <= 0) return 'none';
  if (score < 25) return 'low';
  if (score < 50) return 'moderate';
  if (score < 75) return 'high';
  return 'severe';
}

const clampScore = (score: number) => Math.max(0, Math.min(100, Math.round(score)));

function warning(kind: WeatherHazard, score: number, reason: string, value: number | null, unit: string, threshold: number): WeatherWarning {
  const clamped = clampScore(score);
  return { kind, score: clamped, severity: severityOf(clamped), reason, value, unit, threshold };
}

/**
 * The warnings of one hour (none for a calm hour). Scores: thunderstorm 75 (85 with hail), gusts from
 * 75 km/h 80 + 0.5 per km/h more; heavy rain from 4 mm/h 55 + 4 per mm more (at most 90); rain from
 * 0.5 mm/h 20 + 6 per mm; snow 60; fog under 1 km 50 rising to 90 at 0 m; visibility under 5 km 20
 * rising to 45 at 1 km; dust 60 (+1 per km/h of gust over 45, at most 85); wind from 50 km/h gusts
 * 30 + 1.5 per km/h (at most 70); heat from 40 °C 40 + 6 per °C (at most 95).
 */
export function hourWarnings(hour: Omit<WeatherHour, 'atMs'>): WeatherWarning[] {
  const code = hour.weatherCode ?? -1;
  const rain = hour.precipitationMm ?? 0;
  const gusts = hour.windGustsKph ?? 0;
  const visibility = hour.visibilityM;
  const out: WeatherWarning[] = [];
  if (code >= 95 && code <= 99) {
    const hail = code === 96 || code === 99;
    out.push(warning('storm', hail ? 85 : 75, hail ? 'thunderstorm with hail' : 'thunderstorm', null, 'wmo-code', 95));
  } else if (gusts >= STORM_GUST_KPH) {
    out.push(warning('storm', 80 + (gusts - STORM_GUST_KPH) * 0.5, `storm-force gusts of ${Math.round(gusts)} km/h`, gusts, 'km/h', STORM_GUST_KPH));
  }
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) out.push(warning('snow', 60, 'snow', hour.precipitationMm ?? null, 'mm/h', 0));
  if (rain >= HEAVY_RAIN_MM_PER_HOUR || code === 65 || code === 67 || code === 82) {
    const measured = rain >= HEAVY_RAIN_MM_PER_HOUR;
    out.push(
      warning('heavy_rain', measured ? Math.min(90, 55 + (rain - HEAVY_RAIN_MM_PER_HOUR) * 4) : 55, measured ? `heavy rain, ${rain.toFixed(1)} mm/h: flooding and aquaplaning` : 'heavy rain forecast', hour.precipitationMm ?? null, 'mm/h', HEAVY_RAIN_MM_PER_HOUR),
    );
  } else if (rain >= RAIN_MM_PER_HOUR) {
    out.push(warning('rain', 20 + (rain - RAIN_MM_PER_HOUR) * 6, `rain, ${rain.toFixed(1)} mm/h: slippery roads`, rain, 'mm/h', RAIN_MM_PER_HOUR));
  }
  const dustCode = (code >= 6 && code <= 9) || (code >= 30 && code <= 35);
  const dust = dustCode || (gusts >= DUST_GUST_KPH && visibility !== undefined && visibility < DUST_VISIBILITY_M && rain < RAIN_MM_PER_HOUR);
  if (dust) {
    out.push(warning('dust', Math.min(85, 60 + Math.max(0, gusts - DUST_GUST_KPH)), `dust or sand${visibility !== undefined ? `, visibility ${formatDistance(visibility)}` : ''}`, visibility ?? null, 'm', DUST_VISIBILITY_M));
  } else if ((visibility !== undefined && visibility < FOG_VISIBILITY_M) || code === 45 || code === 48) {
    const score = visibility !== undefined && visibility < FOG_VISIBILITY_M ? 50 + ((FOG_VISIBILITY_M - visibility) / FOG_VISIBILITY_M) * 40 : 50;
    out.push(warning('fog', score, `fog${visibility !== undefined ? `, visibility ${formatDistance(visibility)}` : ''}`, visibility ?? null, 'm', FOG_VISIBILITY_M));
  } else if (visibility !== undefined && visibility < LOW_VISIBILITY_M) {
    const score = 20 + ((LOW_VISIBILITY_M - visibility) / (LOW_VISIBILITY_M - FOG_VISIBILITY_M)) * 25;
    out.push(warning('visibility', score, `reduced visibility, ${formatDistance(visibility)}`, visibility, 'm', LOW_VISIBILITY_M));
  }
  if (gusts >= WIND_GUST_KPH && gusts < STORM_GUST_KPH && !dust) {
    out.push(warning('wind', Math.min(70, 30 + (gusts - WIND_GUST_KPH) * 1.5), `strong gusts of ${Math.round(gusts)} km/h`, gusts, 'km/h', WIND_GUST_KPH));
  }
  const temperature = hour.temperatureC;
  if (temperature !== undefined && temperature >= HEAT_C) {
    out.push(warning('heat', Math.min(95, 40 + (temperature - HEAT_C) * 6), `extreme heat, ${temperature.toFixed(0)} °C`, temperature, '°C', HEAT_C));
  }
  return out;
}

function formatDistance(meters: number): string {
  return meters >= 1_000 ? `${(meters / 1_000).toFixed(1)} km` : `${Math.round(meters)} m`;
}

/** One warning kind over an area and window: its worst hour and sample, and how many samples had it. */
export interface AreaWarning extends WeatherWarning {
  /** Start of the worst hour (ISO 8601). */
  at: string;
  lat: number;
  lng: number;
  /** Samples (grid cells) with this kind of warning in the window. */
  affectedSamples: number;
}

export interface AreaRisk {
  score: number;
  severity: RiskSeverity;
  /** Worst first. */
  warnings: AreaWarning[];
}

/** Score per extra kind of hazard on top of the worst one (rain and wind together are worse than either). */
const EXTRA_HAZARD_SCORE = 5;

/**
 * The risk of an area over a window: per kind the worst warning of any sample and hour; the score is
 * the worst warning's plus 5 per further kind (at most 100); no warnings is score 0, severity none.
 */
export function areaRisk(samples: readonly { lat: number; lng: number; hours: readonly WeatherHour[] }[]): AreaRisk {
  const worst = new Map<WeatherHazard, AreaWarning>();
  const affected = new Map<WeatherHazard, number>();
  for (const sample of samples) {
    const kinds = new Set<WeatherHazard>();
    for (const hour of sample.hours) {
      for (const found of hourWarnings(hour)) {
        kinds.add(found.kind);
        const current = worst.get(found.kind);
        if (!current || found.score > current.score) worst.set(found.kind, { ...found, at: new Date(hour.atMs).toISOString(), lat: sample.lat, lng: sample.lng, affectedSamples: 0 });
      }
    }
    for (const kind of kinds) affected.set(kind, (affected.get(kind) ?? 0) + 1);
  }
  const warnings = [...worst.values()].map((found) => ({ ...found, affectedSamples: affected.get(found.kind) ?? 0 })).sort((a, b) => b.score - a.score || a.kind.localeCompare(b.kind));
  const score = warnings.length ? clampScore(warnings[0]!.score + EXTRA_HAZARD_SCORE * (warnings.length - 1)) : 0;
  return { score, severity: severityOf(score), warnings };
}
