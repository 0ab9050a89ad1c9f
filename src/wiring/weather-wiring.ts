/**
 * The weather provider adapter (WEATHER_URL, docs/map-data.md "Weather"): one per process, so the
 * weather layer, route risk and analysed traffic share its 0.1° cell cache, its in-flight calls, its
 * concurrency bound and its health. Outbound only to WEATHER_ALLOWED_HOSTS.
 */
import { OpenMeteoForecast } from '../services/weather/open-meteo-forecast.js';
import type { Config } from '../shared/config.js';

export function wireWeatherProvider(config: Config): OpenMeteoForecast {
  return new OpenMeteoForecast({ ...(config.WEATHER_URL ? { url: config.WEATHER_URL } : {}), allowedHosts: config.WEATHER_ALLOWED_HOSTS });
}
