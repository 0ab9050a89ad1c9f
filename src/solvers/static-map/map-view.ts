/**
 * The camera of a static map: Web Mercator with MapLibre's zoom (the world is 512 · 2^zoom CSS pixels
 * wide, as in Mapbox Static Images; Google's zoom is one less), a centre, and an image size in CSS
 * pixels. Pure math, unit-tested in map-view.test.ts.
 */
import { mercatorX, mercatorY } from '../tiles/tile-source.js';

export { mercatorX, mercatorY };

/** World width in CSS pixels at zoom 0 (MapLibre's and Mapbox's 512-pixel tiles). */
export const WORLD_TILE_PX = 512;

export interface MapView {
  /** Centre in unit Web Mercator (0..1, north at y = 0). */
  centerX: number;
  centerY: number;
  zoom: number;
  /** Image size in CSS pixels (the PNG is `scale` times larger). */
  width: number;
  height: number;
}

export function longitudeOf(x: number): number {
  return (x - 0.5) * 360;
}

export function latitudeOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}

export function worldPixels(zoom: number): number {
  return WORLD_TILE_PX * 2 ** zoom;
}

export function viewAt(center: { lon: number; lat: number }, zoom: number, width: number, height: number): MapView {
  return { centerX: mercatorX(center.lon), centerY: mercatorY(center.lat), zoom, width, height };
}

/** The CSS pixel of a position, (0, 0) at the image's top left. */
export function pixelOf(view: MapView, lon: number, lat: number): [x: number, y: number] {
  const world = worldPixels(view.zoom);
  return [(mercatorX(lon) - view.centerX) * world + view.width / 2, (mercatorY(lat) - view.centerY) * world + view.height / 2];
}

/** The position under a CSS pixel. */
export function positionOf(view: MapView, x: number, y: number): [lon: number, lat: number] {
  const world = worldPixels(view.zoom);
  return [longitudeOf(view.centerX + (x - view.width / 2) / world), latitudeOf(view.centerY + (y - view.height / 2) / world)];
}

/** [west, south, east, north] of what the image shows, grown by `marginPx` on every side. */
export function viewBounds(view: MapView, marginPx = 0): [west: number, south: number, east: number, north: number] {
  const [west, north] = positionOf(view, -marginPx, -marginPx);
  const [east, south] = positionOf(view, view.width + marginPx, view.height + marginPx);
  return [west, south, east, north];
}

export interface FitOptions {
  width: number;
  height: number;
  /** Free space kept on every side, CSS pixels. */
  paddingPx: number;
  /** Zoom of a box that is a single point (or smaller than the image would show at it), and the highest zoom. */
  maxZoom: number;
  minZoom: number;
}

/**
 * The centre and zoom that show `[west, south, east, north]` whole inside the image less its padding
 * (the largest such zoom, capped at `maxZoom`). West must not be east of east (no antimeridian crossing).
 */
export function fitBounds(bbox: readonly [number, number, number, number], options: FitOptions): { center: { lon: number; lat: number }; zoom: number } {
  const [west, south, east, north] = bbox;
  const left = mercatorX(west);
  const right = mercatorX(east);
  const top = mercatorY(north);
  const bottom = mercatorY(south);
  const center = { lon: longitudeOf((left + right) / 2), lat: latitudeOf((top + bottom) / 2) };
  const innerWidth = Math.max(1, options.width - 2 * options.paddingPx);
  const innerHeight = Math.max(1, options.height - 2 * options.paddingPx);
  const spanX = right - left;
  const spanY = bottom - top;
  if (spanX <= 0 && spanY <= 0) return { center, zoom: options.maxZoom };
  const zoomX = spanX > 0 ? Math.log2(innerWidth / (spanX * WORLD_TILE_PX)) : Infinity;
  const zoomY = spanY > 0 ? Math.log2(innerHeight / (spanY * WORLD_TILE_PX)) : Infinity;
  const zoom = Math.max(options.minZoom, Math.min(options.maxZoom, zoomX, zoomY));
  return { center, zoom };
}

/** The box of a list of positions, or undefined for none. */
export function boundsOf(positions: Iterable<readonly [number, number]>): [number, number, number, number] | undefined {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const [lon, lat] of positions) {
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return west === Infinity ? undefined : [west, south, east, north];
}
