import { z } from 'zod';
import { DEFAULT_CODE_LENGTH, decodePlusCode, encodePlusCode, MAX_CODE_LENGTH, MIN_CODE_LENGTH } from '../../services/addressing/plus-codes.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../schemas/geo.js';

const PROVIDER = 'svc-addressing';
const route = { tags: ['addressing'], access: 'open' as const, scopes: ['geo'] };
const queryLatitude = z.coerce.number({ error: 'must be a number' }).pipe(latitude);
const queryLongitude = z.coerce.number({ error: 'must be a number' }).pipe(longitude);

/** Plus Code addressing (spec part 2 §4.1, scope `geo`). */
export function addressingRoutes(): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/pluscode',
      summary: 'Encode a point as a plus code (length 8 to 11, default 10; 9 gives 10 digits, plus codes have no 9-digit form)',
      query: z.object({
        lat: queryLatitude,
        lng: queryLongitude,
        length: z.coerce.number().int().min(MIN_CODE_LENGTH).max(MAX_CODE_LENGTH).default(DEFAULT_CODE_LENGTH),
      }),
      handler: ({ query }) => ({ provider: PROVIDER, code: encodePlusCode(query.lat, query.lng, query.length), lat: query.lat, lng: query.lng }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/geo/pluscode/decode',
      summary: 'Decode a full plus code, or a short one near a reference point (`+` URL-encoded as %2B)',
      query: z.object({ code: z.string().min(2).max(20), lat: queryLatitude.optional(), lng: queryLongitude.optional() }),
      handler: ({ query }) => ({
        provider: PROVIDER,
        ...decodePlusCode(query.code, query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined),
      }),
    }),
  ];
}
