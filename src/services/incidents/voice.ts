import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';

/** Who speaks in a report or vote, counted once per incident: a user, or a key (never shown). */
export function voiceOf(principal: Principal | undefined): string {
  if (principal?.kind === 'user') return `user:${principal.userId}`;
  if (principal?.kind === 'key') return `key:${principal.keyId}`;
  throw new ApiError('UNAUTHENTICATED', { message: 'Reporting needs an API key or a bearer token' });
}

export interface LatLngBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Every incident's box: the whole-map reads (the copy of blocking ones, whether any is live at all). */
export const WHOLE_WORLD: LatLngBox = { west: -180, south: -90, east: 180, north: 90 };

const METERS_PER_DEGREE_LAT = 111_320;

/** The box of points within `meters` of a point (a little larger than the circle). */
export function boxAround(lat: number, lng: number, meters: number): LatLngBox {
  const dLat = meters / METERS_PER_DEGREE_LAT;
  const dLng = meters / (METERS_PER_DEGREE_LAT * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}
