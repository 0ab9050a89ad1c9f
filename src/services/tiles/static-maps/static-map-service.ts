/**
 * Static map images (`GET /static/map`): the camera from the request (centre and zoom, a box to fit,
 * or the markers and paths fitted), the style's layers with labels in the caller's languages, and the
 * drawing in the solver pool (task `staticMap`, solvers/static-map). Images are kept in an LRU bounded
 * in bytes, keyed by everything that changes the picture (the vector tile version included), and
 * concurrent requests for one image share one drawing.
 */
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../../shared/errors.js';
import { boundsOf, fitBounds, viewAt, type MapView } from '../../../solvers/static-map/map-view.js';
import { PIN_SHAPES, type StaticMarker, type StaticPath } from '../../../solvers/static-map/overlays.js';
import { abandonOnAbort, type SolverPool } from '../../../solvers/solver-pool.js';
import { unlessClientLeft } from '../../client-closed.js';
import type { MapStyleService } from '../map-styles/map-style-service.js';
import type { StyleName } from '../map-styles/style-catalogue.js';
import { WATERMARK_TEXT } from '../raster/raster-tiles.js';
import { TileAsset } from '../tile-asset.js';
import { MAX_MARKERS, MAX_PATH_POINTS, MAX_PATHS, MAX_ZOOM, type MarkerGroup, type PathSpec } from './static-map-params.js';

/** Bytes of PNG kept (a 600 × 400 map is about 100 KB, 1280 × 1280 at scale 2 a few MB). */
export const STATIC_MAP_CACHE_BYTES = 32 * 1024 * 1024;
/** Space kept around fitted boxes and overlays, CSS pixels. */
export const DEFAULT_PADDING_PX = 24;
/** Zoom of a fitted view of a single point (one marker). */
const SINGLE_POINT_ZOOM = 16;
/** The credit drawn on every image (ODbL). */
export const STATIC_MAP_ATTRIBUTION = '© OpenStreetMap contributors';

export interface StaticMapRequest {
  style: StyleName;
  languages: readonly string[];
  width: number;
  height: number;
  scale: 1 | 2;
  center: { lat: number; lng: number } | undefined;
  zoom: number | undefined;
  bbox: [number, number, number, number] | undefined;
  paddingPx: number;
  markers: readonly MarkerGroup[];
  paths: readonly PathSpec[];
  /** A key or signed-in user was presented: no watermark. */
  authenticated: boolean;
}

export class StaticMapService {
  private readonly cache = new LRUCache<string, TileAsset>({ maxSize: STATIC_MAP_CACHE_BYTES, sizeCalculation: (asset) => Math.max(1, asset.byteLength) });
  private readonly pending = new Map<string, Promise<TileAsset>>();

  constructor(
    private readonly solvers: Pick<SolverPool, 'run'>,
    private readonly styles: Pick<MapStyleService, 'layers'>,
    /** The vector tile version: a new pack or tile code draws new images. */
    private readonly tileVersion: () => string,
  ) {}

  /** Bytes held by the image cache. */
  get cachedBytes(): number {
    return this.cache.calculatedSize;
  }

  /** The image for a request; `signal` (the caller's) stops the wait, not a drawing others may share. */
  async render(request: StaticMapRequest, signal?: AbortSignal): Promise<TileAsset> {
    const markers = request.markers.flatMap((group) => group.points.map((point): StaticMarker => ({ lon: point.lng, lat: point.lat, color: group.color, label: group.label, size: group.size })));
    if (markers.length > MAX_MARKERS) throw invalid(`query.markers: too many markers (${markers.length}): at most ${MAX_MARKERS}`);
    if (request.paths.length > MAX_PATHS) throw invalid(`query.path: too many paths (${request.paths.length}): at most ${MAX_PATHS}`);
    const points = request.paths.reduce((sum, path) => sum + path.coordinates.length, 0);
    if (points > MAX_PATH_POINTS) throw invalid(`query.path: too many points (${points}): at most ${MAX_PATH_POINTS} over all paths`);
    const paths = request.paths.map((path): StaticPath => ({ coordinates: path.coordinates, color: path.color, widthPx: path.weightPx }));
    const view = this.view(request, markers, paths);
    const key = JSON.stringify([this.tileVersion(), request.style, request.languages, view, request.scale, markers, paths, request.authenticated]);
    const hit = this.cache.get(key);
    if (hit) return hit;
    let pending = this.pending.get(key);
    if (!pending) {
      const input = {
        styleKey: JSON.stringify([request.style, request.languages]),
        layers: this.styles.layers(request.style, request.languages),
        view,
        scale: request.scale,
        markers,
        paths,
        attribution: STATIC_MAP_ATTRIBUTION,
        watermark: request.authenticated ? undefined : WATERMARK_TEXT,
      };
      // the drawing is shared by every request for this image: the first caller leaving must not cancel it
      pending = unlessClientLeft(this.solvers.run('staticMap', input), undefined, 'static map')
        .then((result) => {
          if (!result.ok) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'No map data is loaded: static maps cannot be drawn' });
          const png = result.value.png;
          const asset = new TileAsset(Buffer.from(png.buffer, png.byteOffset, png.byteLength), 'image/png', false);
          this.cache.set(key, asset);
          return asset;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return signal ? unlessClientLeft(abandonOnAbort(pending, signal), signal, 'static map') : pending;
  }

  /** The camera: the box fitted, else the centre and zoom, else the overlays fitted. */
  private view(request: StaticMapRequest, markers: readonly StaticMarker[], paths: readonly StaticPath[]): MapView {
    const { width, height } = request;
    const fit = { width, height, paddingPx: request.paddingPx, maxZoom: MAX_ZOOM, minZoom: 0 };
    if (request.bbox) {
      const fitted = fitBounds(request.bbox, fit);
      return viewAt({ lon: fitted.center.lon, lat: fitted.center.lat }, fitted.zoom, width, height);
    }
    if (request.center && request.zoom !== undefined) return viewAt({ lon: request.center.lng, lat: request.center.lat }, request.zoom, width, height);
    const box = boundsOf([...markers.map((marker) => [marker.lon, marker.lat] as const), ...paths.flatMap((path) => path.coordinates)]);
    if (!box) throw invalid('query: give center and zoom, or bbox, or markers or a path to fit the map to');
    // a pin stands above its point: keep its height free on every side
    const paddingPx = Math.max(request.paddingPx, ...markers.map((marker) => PIN_SHAPES[marker.size].heightPx + 4));
    const fitted = fitBounds(box, { ...fit, paddingPx, maxZoom: SINGLE_POINT_ZOOM });
    return viewAt({ lon: fitted.center.lon, lat: fitted.center.lat }, fitted.zoom, width, height);
  }
}

function invalid(message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', { message: [message] });
}
