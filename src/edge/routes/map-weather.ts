import { z } from 'zod';
import type { WeatherLayer } from '../../services/map-data/weather-layer.js';
import type { WeatherReports } from '../../services/map-data/weather-reports.js';
import { publicOrigin } from '../public-origin.js';
import { HttpReply, defineRoute, type RequestContext, type RouteDefinition } from '../route.js';

const route = { tags: ['map'] };
/** The provider updates hourly and the adapter caches 30 minutes: five minutes fresh, ten more stale. */
const WEATHER_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=600';
/** An answer without weather (no provider, provider down, bad input) is kept briefly: the provider may come back. */
const NO_WEATHER_CACHE_CONTROL = 'public, max-age=60';
const filterFields = { type: z.string().max(200).optional(), time: z.string().max(16).optional() };
const collectionQuery = z.object({ ...filterFields, bbox: z.string().max(200).optional(), limit: z.string().max(32).optional(), zoom: z.string().max(32).optional() });
const tileParams = z.object({ z: z.string().max(16), x: z.string().max(16), y: z.string().max(24) });
const tileQuery = z.object({ ...filterFields, limit: z.string().max(32).optional() });
const tileCoverQuery = z.object({ ...filterFields, bbox: z.string().max(200).optional(), zoom: z.string().max(32).optional(), maxTiles: z.string().max(32).optional() });
const coordinateFields = { lat: z.string().max(32).optional(), lng: z.string().max(32).optional(), lon: z.string().max(32).optional(), hours: z.string().max(16).optional() };
const pointQuery = z.object({ ...coordinateFields, units: z.string().max(16).optional() });
const riskQuery = z.object({ ...coordinateFields, bbox: z.string().max(200).optional(), radiusKm: z.string().max(32).optional(), time: z.string().max(16).optional() });

export interface MapWeatherRoutesDeps {
  weather: WeatherLayer;
  reports: WeatherReports;
  publicBaseUrl: string | undefined;
}

const cacheFor = (hasData: boolean) => ({ 'cache-control': hasData ? WEATHER_CACHE_CONTROL : NO_WEATHER_CACHE_CONTROL });

/** The weather layer, point weather and weather risk (part 2 §4.8, §2.11; docs/map-data.md, "Weather"). */
export function mapWeatherRoutes(deps: MapWeatherRoutesDeps): RouteDefinition[] {
  const { weather, reports } = deps;
  const origin = (context: Pick<RequestContext, 'headers'>) => publicOrigin(deps.publicBaseUrl, context.headers);
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/geojson',
      summary:
        'Forecast weather sampled on a grid over bbox as GeoJSON cells (type precipitation|temperature|clouds|storms|alerts, time -1h|now|+1h|+3h, limit, zoom), icons once in metadata.icons; no provider or bad input answers an empty collection with hasData:false',
      query: collectionQuery,
      handler: async (context) => {
        const collection = await weather.collection(context.query, origin(context));
        return HttpReply.json(collection, 200, cacheFor(collection.metadata.hasData));
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/geojson/tiles/{z}/{x}/{y}',
      summary: 'The weather cells meeting one tile as GeoJSON (type, time, limit); a bad address answers an empty collection with hasData:false',
      params: tileParams,
      query: tileQuery,
      handler: async (context) => {
        const { params } = context;
        const collection = await weather.tile(params.z, params.x, params.y, context.query, origin(context));
        return HttpReply.json(collection, 200, cacheFor(collection.metadata.hasData));
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/vector/{z}/{x}/{y}',
      summary: 'One weather tile as a Mapbox Vector Tile (application/x-protobuf), layer `svc_weather` (type, time); an empty body when it holds nothing',
      params: tileParams,
      query: tileQuery,
      responseContentType: 'application/x-protobuf',
      handler: async ({ params, query }) => {
        const tile = await weather.vectorTile(params.z, params.x, params.y, query);
        return HttpReply.content(Buffer.from(tile.bytes), 'application/x-protobuf', 200, {
          ...cacheFor(tile.hasData),
          'x-overlay-features': String(tile.count),
          'x-overlay-has-data': String(tile.hasData),
        });
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/tiles/{z}/{x}/{y}',
      summary: 'One weather type (default precipitation; time) drawn as a 256-pixel SVG tile (image/svg+xml); a transparent tile when there is nothing to draw',
      params: tileParams,
      query: tileQuery,
      responseContentType: 'image/svg+xml',
      handler: async ({ params, query }) => {
        const tile = await weather.svgTile(params.z, params.x, params.y, query);
        return HttpReply.content(tile.svg, 'image/svg+xml', 200, { ...cacheFor(tile.hasData), 'x-overlay-features': String(tile.count), 'x-overlay-has-data': String(tile.hasData) });
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/tile-cover',
      summary: 'Weather tile URLs (GeoJSON, vector and SVG) covering a bbox at a zoom (default 8), zoomed out until at most maxTiles (default 64, at most 256)',
      query: tileCoverQuery,
      handler: (context) => weather.tileCover(context.query, `${origin(context)}/api/v1`),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather/point',
      summary:
        'Weather at a point: current conditions and the next hours (lat, lng or lon required; units metric|imperial; hours 1–48, default 12) with icon slugs and light/dark icon URLs, and warnings; hasData:false without a provider',
      query: pointQuery,
      errors: ['VALIDATION_ERROR'],
      handler: async (context) => {
        const answer = await reports.point(context.query, origin(context));
        return HttpReply.json(answer, 200, cacheFor(answer.hasData));
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/map/weather-risk',
      summary:
        'Weather risk of an area (bbox, or lat/lng with radiusKm) over a window (time -1h|now|+1h|+3h, hours 1–12): score 0–100, severity, warnings with reasons (storm, heavy rain, fog, dust, wind, heat…); bad input degrades to hasData:false',
      query: riskQuery,
      handler: async ({ query }) => {
        const answer = await reports.risk(query);
        return HttpReply.json(answer, 200, cacheFor(answer.hasData));
      },
    }),
  ];
}
