import { z } from 'zod';
import type { PlusCodeAddresses } from '../../services/addressing/plus-code-addresses.js';
import { DEFAULT_CODE_LENGTH, encodePlusCode, MAX_CODE_LENGTH, MIN_CODE_LENGTH } from '../../services/addressing/plus-codes.js';
import { parseLocales } from '../../services/geocoding/result-format.js';
import { defineRoute, type RequestContext, type RouteDefinition } from '../route.js';
import { queryLatitude, queryLocale, queryLongitude, queryNumber } from '../schemas/geo-query.js';
import { batchPoint, batchPoints } from './geocoding.js';

const PROVIDER = 'svc-addressing';
const route = { tags: ['addressing'] };
const lengthRule = z.number().int('must be a whole number').min(MIN_CODE_LENGTH, `must be ${MIN_CODE_LENGTH} to ${MAX_CODE_LENGTH}`).max(MAX_CODE_LENGTH, `must be ${MIN_CODE_LENGTH} to ${MAX_CODE_LENGTH}`);
// Plus codes take any finite coordinates, as the Open Location Code reference does (latitude clipped, longitude
// wrapped); the response echoes them as given. Non-numeric and non-finite values are still refused (400).
const anyLatitude = queryNumber();
const anyLongitude = queryNumber();
const queryCodeLength = queryNumber().pipe(lengthRule).optional().transform((value) => value ?? DEFAULT_CODE_LENGTH);

/** The caller's language preference: `locale`, else Accept-Language, else Arabic then English. */
function locales(context: RequestContext<unknown, { locale?: string }>): string[] {
  return parseLocales(context.query.locale ?? context.headers['accept-language']);
}

/** Plus Code addressing (spec part 2 §4.1, scope `geo`). */
export function addressingRoutes(addresses: PlusCodeAddresses): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/pluscode',
      summary: 'Encode a point as a plus code (length 8 to 11, default 10; 9 gives 10 digits, plus codes have no 9-digit form)',
      query: z.object({ lat: anyLatitude, lng: anyLongitude, length: queryCodeLength }),
      handler: ({ query }) => ({ provider: PROVIDER, code: encodePlusCode(query.lat, query.lng, query.length), lat: query.lat, lng: query.lng }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/pluscode/decode',
      summary: 'Decode a full plus code, or a short one near a reference point or a named locality (`+` URL-encoded as %2B)',
      query: z.object({
        code: z.string({ error: 'is required' }).trim().min(2, 'is required').max(120),
        lat: queryLatitude.optional(),
        lng: queryLongitude.optional(),
        locality: z.string().trim().max(100).optional(),
        locale: queryLocale,
      }),
      handler: (context) => ({
        provider: PROVIDER,
        ...addresses.decode(
          context.query.code,
          context.query.lat !== undefined && context.query.lng !== undefined ? { lat: context.query.lat, lng: context.query.lng } : undefined,
          context.query.locality,
          locales(context),
        ),
      }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/address',
      summary: 'Plus Code address of a point: full and short code, nearest locality, local address and share link',
      query: z.object({ lat: anyLatitude, lng: anyLongitude, length: queryCodeLength, locale: queryLocale }),
      handler: (context) => ({ provider: PROVIDER, lat: context.query.lat, lng: context.query.lng, ...addresses.address(context.query.lat, context.query.lng, context.query.length, locales(context)) }),
    }),
    defineRoute({
      ...route,
      readOnly: true,
      method: 'POST',
      path: '/geo/address/batch',
      summary: 'Plus Code addresses of up to 50 points; a bad point gives ok:false with error "invalid coordinates"',
      body: z.object({ points: batchPoints, length: lengthRule.optional(), locale: z.string().trim().max(100).optional() }),
      handler: ({ body, headers }) => {
        const preference = parseLocales(body.locale ?? headers['accept-language']);
        const results = body.points.map((raw) => {
          const point = batchPoint(raw, true);
          if (!point) {
            const given = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
            const echo = (value: unknown) => (typeof value === 'number' ? value : null);
            return { lat: echo(given.lat), lng: echo(given.lng ?? given.lon), ok: false, error: 'invalid coordinates' };
          }
          const { plusCode, shortCode, locality, localAddress } = addresses.address(point.lat, point.lon, body.length ?? DEFAULT_CODE_LENGTH, preference);
          return { lat: point.lat, lng: point.lon, ok: true, plusCode, shortCode, locality, localAddress };
        });
        return { provider: PROVIDER, count: results.length, resolved: results.filter((result) => result.ok).length, results };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/addressing/config',
      summary: 'Addressing settings: plus codes on, default code length, share URL base, national-address integration status',
      handler: () => ({ provider: PROVIDER, ...addresses.config() }),
    }),
  ];
}
