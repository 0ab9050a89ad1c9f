/**
 * The map: MapLibre GL with this server's styles (switcher), Arabic labels shaped by the RTL text plugin we
 * serve (/app/mapbox-gl-rtl-text.js), full attribution, and the app's overlays (pins, routes, the navigating
 * driver, the fleet), which are put back after every style change.
 */
import * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, LayerSpecification, Map as MapLibreMap } from 'maplibre-gl';
import { currentApiKey } from './app-state.js';
import { language } from './i18n.js';

export const STYLES = ['standard', 'positron', 'dark', '3d', 'terrain'] as const;
export type StyleName = (typeof STYLES)[number];

/** Nasr City, Cairo: the shipped data pack. */
export const HOME: [number, number] = [31.342, 30.063];

type Collection = GeoJSON.FeatureCollection;
const EMPTY: Collection = { type: 'FeatureCollection', features: [] };

/** The overlays and their layers, drawn above the style. */
const OVERLAYS: Record<string, Omit<LayerSpecification, 'id' | 'source'>[]> = {
  'route-alternatives': [{ type: 'line', paint: { 'line-color': '#7a8ca5', 'line-width': 5, 'line-opacity': 0.8 }, layout: { 'line-cap': 'round', 'line-join': 'round' } } as never],
  route: [
    { type: 'line', paint: { 'line-color': '#ffffff', 'line-width': 9 }, layout: { 'line-cap': 'round', 'line-join': 'round' } } as never,
    { type: 'line', paint: { 'line-color': '#1565c0', 'line-width': 6 }, layout: { 'line-cap': 'round', 'line-join': 'round' } } as never,
  ],
  'fleet-routes': [{ type: 'line', paint: { 'line-color': ['get', 'color'], 'line-width': 4, 'line-dasharray': [2, 1] } } as never],
  'fleet-stops': [
    { type: 'circle', paint: { 'circle-radius': 7, 'circle-color': ['get', 'color'], 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 } } as never,
    { type: 'symbol', layout: { 'text-field': ['get', 'label'], 'text-size': 10, 'text-font': ['Noto Sans Bold', 'Noto Sans Arabic Bold'], 'text-allow-overlap': true }, paint: { 'text-color': '#fff' } } as never,
  ],
  'fleet-vehicles': [{ type: 'circle', paint: { 'circle-radius': 10, 'circle-color': ['get', 'color'], 'circle-stroke-color': '#111', 'circle-stroke-width': 3 } } as never],
  trail: [{ type: 'circle', paint: { 'circle-radius': 3, 'circle-color': ['case', ['get', 'offRoute'], '#d32f2f', '#2e7d32'] } } as never],
  driver: [{ type: 'circle', paint: { 'circle-radius': 9, 'circle-color': '#ff6f00', 'circle-stroke-color': '#fff', 'circle-stroke-width': 3 } } as never],
  pins: [
    {
      type: 'symbol',
      layout: {
        'icon-image': ['coalesce', ['image', ['get', 'icon']], ['image', 'marker']],
        'icon-size': 1.4,
        'icon-allow-overlap': true,
        'text-field': ['get', 'name'],
        'text-font': ['Noto Sans Bold', 'Noto Sans Arabic Bold'],
        'text-size': 12,
        'text-offset': [0, 1.3],
        'text-anchor': 'top',
        'text-optional': true,
      },
      paint: { 'text-color': '#b71c1c', 'text-halo-color': '#fff', 'text-halo-width': 1.5 },
    } as never,
  ],
};

export class MapView {
  readonly map: MapLibreMap;
  private style: StyleName = 'standard';
  private readonly data = new Map<string, Collection>();
  private readonly clickHandlers = new Set<(lngLat: [number, number]) => void>();

  constructor(container: HTMLElement) {
    maplibregl.setWorkerUrl('/app/maplibre-gl-worker.mjs');
    maplibregl.setRTLTextPlugin('/app/mapbox-gl-rtl-text.js', true).catch(() => {});
    this.map = new maplibregl.Map({
      container,
      style: this.styleUrl(),
      center: HOME,
      zoom: 13.5,
      attributionControl: { compact: false },
      // style requests carry the key (no watermark); tiles, glyphs and sprites go as anonymous map traffic
      transformRequest: (url, resourceType) => {
        const key = currentApiKey();
        return resourceType === 'Style' && key && url.startsWith(location.origin) ? { url, headers: { 'x-api-key': key } } : { url };
      },
      canvasContextAttributes: { preserveDrawingBuffer: true },
    });
    this.map.addControl(new maplibregl.NavigationControl({ visualizePitch: true }), 'top-right');
    this.map.addControl(new maplibregl.ScaleControl({}), 'bottom-left');
    this.map.on('style.load', () => this.restoreOverlays());
    this.map.on('click', (event) => {
      for (const handler of this.clickHandlers) handler([event.lngLat.lng, event.lngLat.lat]);
    });
    this.map.getCanvas().setAttribute('aria-label', 'Map');
  }

  /** `loaded` once the RTL text plugin (served at /app/mapbox-gl-rtl-text.js) shaped Arabic labels. */
  get rtlPluginStatus(): string {
    return maplibregl.getRTLTextPluginStatus();
  }

  get styleName(): StyleName {
    return this.style;
  }

  styleUrl(): string {
    // absolute: transformRequest adds the key to requests for this origin only
    return `${location.origin}/api/v1/tiles/style?style=${this.style}&locale=${language()}`;
  }

  setStyle(style: StyleName): void {
    this.style = style;
    this.reloadStyle();
    if (style === '3d' && this.map.getPitch() < 30) this.map.easeTo({ pitch: 55, zoom: Math.max(this.map.getZoom(), 15.5) });
    if (style !== '3d' && this.map.getPitch() > 0) this.map.easeTo({ pitch: 0 });
  }

  /** After a language change (labels) or a new key. */
  reloadStyle(): void {
    this.map.setStyle(this.styleUrl());
  }

  setOverlay(name: keyof typeof OVERLAYS, collection: Collection | undefined): void {
    this.data.set(name, collection ?? EMPTY);
    const source = this.map.getSource(name) as GeoJSONSource | undefined;
    if (source) source.setData(collection ?? EMPTY);
    else if (this.map.isStyleLoaded()) this.restoreOverlays();
  }

  onClick(handler: (lngLat: [number, number]) => void): () => void {
    this.clickHandlers.add(handler);
    return () => this.clickHandlers.delete(handler);
  }

  fitTo(points: [number, number][], maxZoom = 16): void {
    if (!points.length) return;
    const bounds = new maplibregl.LngLatBounds(points[0], points[0]);
    for (const point of points) bounds.extend(point);
    this.map.fitBounds(bounds, { padding: 60, maxZoom, duration: 600 });
  }

  private restoreOverlays(): void {
    for (const [name, layers] of Object.entries(OVERLAYS)) {
      if (!this.map.getSource(name)) this.map.addSource(name, { type: 'geojson', data: this.data.get(name) ?? EMPTY });
      layers.forEach((layer, index) => {
        const id = `${name}-${index}`;
        if (!this.map.getLayer(id)) this.map.addLayer({ ...layer, id, source: name } as LayerSpecification);
      });
    }
  }
}

export function point(lngLat: [number, number], properties: Record<string, unknown> = {}): GeoJSON.Feature {
  return { type: 'Feature', geometry: { type: 'Point', coordinates: lngLat }, properties };
}

export function line(coordinates: [number, number][], properties: Record<string, unknown> = {}): GeoJSON.Feature {
  return { type: 'Feature', geometry: { type: 'LineString', coordinates }, properties };
}

export function collection(features: GeoJSON.Feature[]): GeoJSON.FeatureCollection {
  return { type: 'FeatureCollection', features };
}
