import { createRequire } from 'node:module';
import { ApiError } from '../../shared/errors.js';

// A TypeScript port of the Open Location Code reference (CommonJS). The older
// `open-location-code` package mis-encodes the 11th digit; this one is exact.
const require = createRequire(import.meta.url);
interface CodeArea {
  latitudeLo: number;
  longitudeLo: number;
  latitudeHi: number;
  longitudeHi: number;
  latitudeCenter: number;
  longitudeCenter: number;
}
const olc = (
  require('open-location-code-typescript') as {
    default: {
      encode(lat: number, lng: number, length: number): string;
      decode(code: string): CodeArea;
      isValid(code: string): boolean;
      isShort(code: string): boolean;
      isFull(code: string): boolean;
      recoverNearest(shortCode: string, referenceLat: number, referenceLng: number): string;
    };
  }
).default;

/** Code lengths the API offers (spec part 2 §2.3): 8 to 11, default 10 (about a 14 m cell). */
export const MIN_CODE_LENGTH = 8;
export const MAX_CODE_LENGTH = 11;
export const DEFAULT_CODE_LENGTH = 10;

export interface DecodedPlusCode {
  code: string;
  lat: number;
  lng: number;
  bounds: { south: number; west: number; north: number; east: number };
}

const round = (value: number) => Math.round(value * 1e7) / 1e7;

/**
 * The Open Location Code reference's input rule: latitude clipped to [-90, 90],
 * longitude wrapped into [-180, 180) (728.0000625 → 8.0000625). For the code
 * itself the library applies the same rule (and, at latitude 90, drops one
 * precision unit so the cell lies below the pole); this is for looking up what
 * lies at the point (the locality of an address).
 */
export function normalizeCoordinates(lat: number, lng: number): { lat: number; lng: number } {
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return { lat: Math.min(90, Math.max(-90, lat)), lng: wrapped };
}

/**
 * Any finite coordinates (normalised as above). Plus codes have no 9-digit form (below 10 digits they grow in pairs), so a
 * requested length of 9 gives the next finer valid code, 10 digits.
 */
export function encodePlusCode(lat: number, lng: number, length: number = DEFAULT_CODE_LENGTH): string {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) throw new ApiError('VALIDATION_ERROR', { message: ['lat, lng: must be finite numbers'] });
  const point = normalizeCoordinates(lat, lng);
  return olc.encode(point.lat, point.lng, length === 9 ? 10 : length);
}

/** Decodes a full code, or a short one recovered against a reference point. */
export function decodePlusCode(input: string, reference?: { lat: number; lng: number }): DecodedPlusCode {
  const code = input.trim().toUpperCase();
  if (!olc.isValid(code)) throw new ApiError('VALIDATION_ERROR', { message: [`code: "${input}" is not a valid plus code`] });
  let full = code;
  if (olc.isShort(code)) {
    if (!reference) throw new ApiError('VALIDATION_ERROR', { message: ['code: a short code needs a reference lat and lng'] });
    full = olc.recoverNearest(code, reference.lat, reference.lng);
  } else if (!olc.isFull(code)) {
    throw new ApiError('VALIDATION_ERROR', { message: [`code: "${input}" is not a full or short plus code`] });
  }
  const area = olc.decode(full);
  return {
    code: full,
    lat: round(area.latitudeCenter),
    lng: round(area.longitudeCenter),
    // Unrounded: the cell's edges as the reference computes them (11-digit cells are 1/32000° wide, which 7
    // decimals cannot hold); the centre is rounded to 7 decimals (≤ 1 cm, still well inside the cell).
    bounds: { south: area.latitudeLo, west: area.longitudeLo, north: area.latitudeHi, east: area.longitudeHi },
  };
}

/** Characters of the area prefix a short code drops (spec part 2 §2.3): the first two pairs, a ~1° cell. */
const AREA_PREFIX = 4;

/** The code without its area prefix ("8G2H387C+2Q" → "387C+2Q"). */
export function dropAreaPrefix(code: string): string {
  return code.slice(AREA_PREFIX);
}

/** Whether a short code recovers to `code` from this reference point (the locality must lie within about half a degree). */
export function recoversTo(shortCode: string, code: string, reference: { lat: number; lng: number }): boolean {
  return olc.recoverNearest(shortCode, reference.lat, reference.lng) === code;
}
