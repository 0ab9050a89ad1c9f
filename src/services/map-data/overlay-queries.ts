/**
 * Overlay query parameters (part 2 §4.8). Nothing here throws: a bad value is reported as `error`
 * and the caller answers an empty FeatureCollection with `hasData: false`, or it is clamped.
 */
import type { Bbox } from './pack-overlays.js';

export const DEFAULT_OVERLAY_LIMIT = 500;
export const MAX_OVERLAY_LIMIT = 5_000;
export const DEFAULT_TILE_COVER_CAP = 64;
export const MAX_TILE_COVER_CAP = 256;
export const MAX_OVERLAY_ZOOM = 22;
/** Web Mercator's latitude limit: tiles end there. */
const MERCATOR_LAT = 85.0511;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseBbox(value: string | undefined): Parsed<Bbox | undefined> {
  if (value === undefined || value.trim() === '') return { ok: true, value: undefined };
  const parts = value.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) return { ok: false, error: 'bbox must be west,south,east,north (four numbers)' };
  const [west, south, east, north] = parts as Bbox;
  if (west < -180 || east > 180 || south < -90 || north > 90 || west >= east || south >= north) {
    return { ok: false, error: 'bbox must lie within ±180 / ±90 with west < east and south < north' };
  }
  return { ok: true, value: [west, south, east, north] };
}

/** An integer in [min, max]; a non-number takes the default, a number out of range is clamped. */
export function clampedInt(value: string | undefined, fallback: number, min: number, max: number): number {
  const number = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(number)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(number)));
}

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** A tile address from path segments (`y` may end in `.json`/`.pbf`/`.mvt`), or undefined when it is no tile. */
export function parseTileAddress(z: string, x: string, y: string): TileAddress | undefined {
  const [zoom, column, row] = [z, x, y.replace(/\.(json|geojson|pbf|mvt)$/, '')].map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : Number.NaN));
  if (!Number.isInteger(zoom) || !Number.isInteger(column) || !Number.isInteger(row)) return undefined;
  if (zoom! > MAX_OVERLAY_ZOOM || column! >= 2 ** zoom! || row! >= 2 ** zoom!) return undefined;
  return { z: zoom!, x: column!, y: row! };
}

export function tileBbox({ z, x, y }: TileAddress): Bbox {
  const n = 2 ** z;
  const lat = (row: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / n))) * 180) / Math.PI;
  return [(x / n) * 360 - 180, lat(y + 1), ((x + 1) / n) * 360 - 180, lat(y)];
}

/** The tile range covering a bbox at a zoom (Web Mercator, latitudes clipped to ±85.0511). */
export function tileRange(bbox: Bbox, z: number): { minX: number; maxX: number; minY: number; maxY: number; count: number } {
  const n = 2 ** z;
  const column = (lng: number) => Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
  const row = (lat: number) => {
    const clipped = (Math.max(-MERCATOR_LAT, Math.min(MERCATOR_LAT, lat)) * Math.PI) / 180;
    return Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(clipped) + 1 / Math.cos(clipped)) / Math.PI) / 2) * n)));
  };
  const [minX, maxX, minY, maxY] = [column(bbox[0]), column(bbox[2]), row(bbox[3]), row(bbox[1])];
  return { minX, maxX, minY, maxY, count: (maxX - minX + 1) * (maxY - minY + 1) };
}

/**
 * The tiles covering a bbox at a zoom, zoomed out until at most `maxTiles`: a client asks for one set
 * of whole tiles rather than a cut-off list (`capped` says the zoom was lowered or tiles left out).
 */
export function coverTiles(bbox: Bbox, requestedZoom: number, maxTiles: number): { zoom: number; capped: boolean; tiles: TileAddress[] } {
  let zoom = requestedZoom;
  let range = tileRange(bbox, zoom);
  while (range.count > maxTiles && zoom > 0) range = tileRange(bbox, --zoom);
  const tiles: TileAddress[] = [];
  for (let x = range.minX; x <= range.maxX && tiles.length < maxTiles; x++) {
    for (let y = range.minY; y <= range.maxY && tiles.length < maxTiles; y++) tiles.push({ z: zoom, x, y });
  }
  return { zoom, capped: zoom !== requestedZoom || range.count > tiles.length, tiles };
}
