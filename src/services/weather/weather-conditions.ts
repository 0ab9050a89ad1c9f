/**
 * Weather as traffic sees it: one condition word per hour, read from an
 * Open-Meteo-style hourly forecast (WMO weather code, precipitation, gusts,
 * visibility). The thresholds are documented in docs/traffic.md ("Weather").
 * Pure; no I/O, so the map-data weather layer can share the words.
 */

/** Conditions, mildest first. `clear` also stands for cloudy and drizzle-free overcast hours. */
export const WEATHER_CONDITIONS = ['clear', 'rain', 'fog', 'dust', 'heavy_rain', 'snow', 'storm'] as const;
export type WeatherCondition = (typeof WEATHER_CONDITIONS)[number];

export function isWeatherCondition(value: string): value is WeatherCondition {
  return (WEATHER_CONDITIONS as readonly string[]).includes(value);
}

/** One forecast hour (fields absent when the provider did not give them). */
export interface WeatherHour {
  /** Start of the hour, epoch ms (UTC). */
  atMs: number;
  weatherCode?: number;
  precipitationMm?: number;
  windGustsKph?: number;
  visibilityM?: number;
  /** Air temperature at 2 m, °C. */
  temperatureC?: number;
  /** Felt temperature (heat and wind chill), °C. */
  apparentTemperatureC?: number;
  relativeHumidityPercent?: number;
  precipitationProbabilityPercent?: number;
  cloudCoverPercent?: number;
  /** Mean wind at 10 m, km/h. */
  windSpeedKph?: number;
  /** Where the wind comes from, degrees clockwise from north. */
  windDirectionDeg?: number;
  /** Daylight at the start of the hour. */
  isDay?: boolean;
}

export const HEAVY_RAIN_MM_PER_HOUR = 4;
export const RAIN_MM_PER_HOUR = 0.5;
export const STORM_GUST_KPH = 75;
export const DUST_GUST_KPH = 45;
export const DUST_VISIBILITY_M = 5_000;
export const FOG_VISIBILITY_M = 1_000;

/**
 * The condition of one hour, most severe first: thunderstorm codes (95–99) or gusts ≥ 75 km/h are a storm; snow
 * codes (71–77, 85–86) snow; ≥ 4 mm/h or heavy-rain codes (65, 67, 82) heavy rain; gusts ≥ 45 km/h with visibility
 * under 5 km and no rain dust (WMO codes 6–9 and 30–35 are dust too); fog codes (45, 48) or visibility under 1 km
 * fog; ≥ 0.5 mm/h or rain and shower codes (61–64, 66, 80, 81) rain; else clear.
 */
export function conditionOf(hour: Omit<WeatherHour, 'atMs'>): WeatherCondition {
  const code = hour.weatherCode ?? -1;
  const rain = hour.precipitationMm ?? 0;
  const gusts = hour.windGustsKph ?? 0;
  const visibility = hour.visibilityM ?? Number.POSITIVE_INFINITY;
  if ((code >= 95 && code <= 99) || gusts >= STORM_GUST_KPH) return 'storm';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (rain >= HEAVY_RAIN_MM_PER_HOUR || code === 65 || code === 67 || code === 82) return 'heavy_rain';
  if ((code >= 6 && code <= 9) || (code >= 30 && code <= 35) || (gusts >= DUST_GUST_KPH && visibility < DUST_VISIBILITY_M && rain < RAIN_MM_PER_HOUR)) return 'dust';
  if (code === 45 || code === 48 || visibility < FOG_VISIBILITY_M) return 'fog';
  if (rain >= RAIN_MM_PER_HOUR || (code >= 61 && code <= 64) || code === 66 || code === 80 || code === 81) return 'rain';
  return 'clear';
}
