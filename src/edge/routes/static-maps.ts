/**
 * `GET /static/map` (scope `tiles`): a PNG map drawn on the server from our vector tiles and styles,
 * with markers and paths, like Google Static Maps and Mapbox Static Images (docs/static-maps.md).
 * The parameters are parsed here once (services/tiles/static-maps/static-map-params.ts says how);
 * the picture is the service's.
 */
import { z } from 'zod';
import { parseLocales } from '../../services/geocoding/result-format.js';
import { DEFAULT_PADDING_PX, type StaticMapService } from '../../services/tiles/static-maps/static-map-service.js';
import { MAX_MARKERS, MAX_PATHS, MAX_SIZE_PX, MAX_ZOOM, parseBbox, parseLatLng, parseMarkers, parsePath, parseSize, type Parsed } from '../../services/tiles/static-maps/static-map-params.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { styleField } from '../schemas/map-style.js';
import { assetReply } from '../tile-transfer.js';

export interface StaticMapRoutesDeps {
  staticMaps: StaticMapService;
}

/** An image depends only on its URL, the data version and the key: a day in caches, a week stale while revalidating. */
export const STATIC_MAP_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';
const MAX_LABEL_LANGUAGES = 3;

const single = z.string({ error: 'must be given once' });
/** A parameter that may be repeated (`markers=…&markers=…`). */
const repeatable = z.union([z.string(), z.array(z.string())]).transform((value) => (Array.isArray(value) ? value : [value]));

function parsed<T>(parse: (value: string) => Parsed<T>) {
  return (value: string, context: z.RefinementCtx): T => {
    const result = parse(value);
    if (result.ok) return result.value;
    context.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  };
}

function parsedList<T>(parse: (value: string) => Parsed<T>, max: number, what: string) {
  return (values: string[], context: z.RefinementCtx): T[] => {
    if (values.length > max) {
      context.addIssue({ code: 'custom', message: `too many ${what} parameters (${values.length}): at most ${max}` });
      return z.NEVER;
    }
    const out: T[] = [];
    for (const value of values) {
      const result = parse(value);
      if (!result.ok) {
        context.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      out.push(result.value);
    }
    return out;
  };
}

const staticMapQuery = z
  .object({
    style: styleField({ refuse: { satellite: "is not drawn as a static image (its imagery is a third party's, fetched by browsers)" } }),
    center: single.transform(parsed(parseLatLng)).optional(),
    zoom: z.coerce.number({ error: 'must be a number' }).min(0, 'must be 0 or more').max(MAX_ZOOM, `must be at most ${MAX_ZOOM}`).optional(),
    bbox: single.transform(parsed(parseBbox)).optional(),
    padding: z.coerce.number({ error: 'must be a number' }).int('must be a whole number of pixels').min(0).max(200, 'must be at most 200 pixels').optional(),
    size: single.transform(parsed(parseSize)).optional(),
    scale: z.enum(['1', '2'], { error: 'must be 1 or 2' }).optional(),
    markers: repeatable.transform(parsedList(parseMarkers, MAX_MARKERS, 'markers')).optional(),
    path: repeatable.transform(parsedList(parsePath, MAX_PATHS, 'path')).optional(),
    locale: single.trim().max(100, 'must be at most 100 characters').optional(),
  })
  .superRefine((query, context) => {
    if (query.bbox && (query.center || query.zoom !== undefined)) context.addIssue({ code: 'custom', path: ['bbox'], message: 'give either bbox or center and zoom, not both' });
    else if (query.center && query.zoom === undefined) context.addIssue({ code: 'custom', path: ['zoom'], message: 'is required with center' });
    else if (!query.center && query.zoom !== undefined) context.addIssue({ code: 'custom', path: ['center'], message: 'is required with zoom (lat,lng)' });
  });

export function staticMapRoutes(deps: StaticMapRoutesDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/static/map',
      tags: ['tiles'],
      summary: `A static map image (PNG) drawn from our vector tiles and styles: center=lat,lng&zoom or bbox (fitted) or the overlays fitted; size=WIDTHxHEIGHT (≤ ${MAX_SIZE_PX}), scale 1|2, style, markers, path (encoded polyline), locale`,
      description: [
        '`markers=color:red|label:A|size:small|30.06,31.33|30.07,31.34` (repeatable; up to 50 markers in all), ',
        '`path=color:0x0000ffcc|weight:5|enc:<polyline>` (`enc:` precision 5, `enc6:` precision 6, or `lat,lng|lat,lng…`; repeatable, up to 5). ',
        'Zoom is MapLibre\'s (the world is 512·2^zoom pixels wide, as Mapbox Static Images). Every image carries "© OpenStreetMap contributors"; ',
        'without an API key it carries the API key notice as the styles do. Cache-Control: public, max-age=86400, stale-while-revalidate=604800; strong ETag and 304.',
      ].join(''),
      query: staticMapQuery,
      responseContentType: 'image/png',
      errors: ['SERVER_BUSY', 'SERVICE_UNAVAILABLE'],
      handler: async (context) => {
        const { query, headers } = context;
        const size = query.size ?? { width: 600, height: 400 };
        const asset = await deps.staticMaps.render(
          {
            style: query.style,
            languages: parseLocales(query.locale ?? headers['accept-language']).slice(0, MAX_LABEL_LANGUAGES),
            width: size.width,
            height: size.height,
            scale: query.scale === '2' ? 2 : 1,
            center: query.center,
            zoom: query.zoom,
            bbox: query.bbox,
            paddingPx: query.padding ?? DEFAULT_PADDING_PX,
            markers: query.markers ?? [],
            paths: query.path ?? [],
            authenticated: context.principal !== undefined,
          },
          context.signal,
        );
        return assetReply(headers, asset, STATIC_MAP_CACHE_CONTROL, ['Accept-Language', 'X-Api-Key', 'Authorization']);
      },
    }),
  ];
}
