/**
 * Map overlays (part 2 §4.8; docs/map-data.md, Overlays): one GeoJSON FeatureCollection per layer
 * type with `metadata { layerType, name, hasData }`, the tiles covering a bbox, one tile as GeoJSON
 * and as a vector tile (layer `svc`, encoded in the solver pool). Bad input never errors: it answers
 * an empty collection with `hasData: false` and says why in `metadata.error`.
 */
import type { Feature, Polygon } from 'geojson';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { TransitRoute, TransitStation } from '../transit/transit-network.js';
import type { IncidentService } from '../incidents/incident-service.js';
import { WHOLE_WORLD } from '../incidents/voice.js';
import type { TrafficService } from '../traffic/traffic-service.js';
import type { WeatherLayer } from './weather-layer.js';
import { OVERLAY_LAYERS, OVERLAY_LAYER_TYPES, isOverlayLayerType, type OverlayLayerType } from './overlay-layers.js';
import {
  DEFAULT_OVERLAY_LIMIT,
  DEFAULT_TILE_COVER_CAP,
  MAX_OVERLAY_LIMIT,
  MAX_OVERLAY_ZOOM,
  MAX_TILE_COVER_CAP,
  clampedInt,
  coverTiles,
  parseBbox,
  parseTileAddress,
  tileBbox,
  type TileAddress,
} from './overlay-queries.js';
import { boundsOf, intersects, type Bbox, type IndexedFeature, type OverlayFeature, type PackOverlays } from './pack-overlays.js';

export const OSM_ATTRIBUTION = '© OpenStreetMap contributors, ODbL';
/** Traffic congestion colours, light to severe. */
const CONGESTION_COLORS: Record<string, string> = { light: '#43a047', moderate: '#fdd835', heavy: '#fb8c00', severe: '#e53935', unknown: '#9e9e9e' };
const TRANSIT_MODES: Record<string, string> = { bus: 'bus', metro: 'metro', tram: 'tram', rail: 'rail' };
/** Incidents routing goes around (closures, accidents) are red; the rest take the layer's orange. */
const BLOCKING_INCIDENT_COLOR = '#c62828';
/** Share of a tile's width added on each side when selecting its features (lines crossing the edge). */
const TILE_MARGIN = 1 / 16;

export interface OverlaySources {
  pack: PackOverlays;
  transit?: { mapNetwork(): Promise<{ routes: readonly TransitRoute[]; stations: readonly TransitStation[] }> };
  traffic?: Pick<TrafficService, 'labels' | 'status'>;
  zones?: { activeZones(): Promise<LogisticsZone[]> };
  incidents?: Pick<IncidentService, 'live'>;
  weather?: Pick<WeatherLayer, 'overlayFeatures' | 'hasData' | 'source'>;
  solvers: Pick<SolverPool, 'run'>;
}

export interface OverlayMetadata {
  layerType: string;
  name: string;
  hasData: boolean;
  source: string;
  count: number;
  truncated: boolean;
  zoom: number;
  bbox: Bbox | null;
  attribution?: string;
  simulated?: boolean;
  /** Why a layer that could have data has none now (the weather provider unset or failing). */
  reason?: string;
  error?: string;
}

export interface OverlayCollection {
  type: 'FeatureCollection';
  features: OverlayFeature[];
  metadata: OverlayMetadata;
}

type Query = Record<string, string | undefined>;

export class MapOverlays {
  constructor(private readonly sources: OverlaySources) {}

  /** Whether each layer type has features to show now (for /map/config and /map/layers). */
  async hasData(): Promise<Record<OverlayLayerType, boolean>> {
    const entries = await Promise.all(OVERLAY_LAYER_TYPES.map(async (layerType) => [layerType, await this.layerHasData(layerType)] as const));
    return Object.fromEntries(entries) as Record<OverlayLayerType, boolean>;
  }

  private async layerHasData(layerType: OverlayLayerType): Promise<boolean> {
    switch (layerType) {
      case 'biking':
      case 'speed_cameras':
      case 'traffic_cameras':
      case 'traffic_lights':
        return (this.sources.pack.features(layerType)?.length ?? 0) > 0;
      case 'transit': {
        const network = await this.sources.transit?.mapNetwork();
        return !!network && network.routes.length + network.stations.length > 0;
      }
      case 'traffic':
        return ((await this.sources.traffic?.status())?.profiles.rows ?? 0) > 0;
      case 'logistics_zones':
        return ((await this.sources.zones?.activeZones())?.length ?? 0) > 0;
      case 'incidents':
        return ((await this.sources.incidents?.live(WHOLE_WORLD, undefined, 1))?.length ?? 0) > 0;
      case 'weather':
        return this.sources.weather?.hasData() ?? false;
      default:
        return false;
    }
  }

  /** GET /map/overlays/{layerType}: `bbox` (optional), `limit` (1–5000, default 500), `zoom` (0–22, default 14). */
  async collection(layerType: string, query: Query): Promise<OverlayCollection> {
    const zoom = clampedInt(query.zoom, 14, 0, MAX_OVERLAY_ZOOM);
    const limit = clampedInt(query.limit, DEFAULT_OVERLAY_LIMIT, 1, MAX_OVERLAY_LIMIT);
    const bbox = parseBbox(query.bbox);
    if (!bbox.ok) return empty(layerType, zoom, null, bbox.error);
    return this.select(layerType, bbox.value, limit, zoom);
  }

  /** GET /map/overlays/{layerType}/tiles/{z}/{x}/{y}: the features of one tile (unclipped) as GeoJSON. */
  async tile(layerType: string, z: string, x: string, y: string, query: Query): Promise<OverlayCollection> {
    const address = parseTileAddress(z, x, y);
    if (!address) return empty(layerType, 0, null, `${z}/${x}/${y} is no tile: z runs 0–${MAX_OVERLAY_ZOOM}, x and y 0 to 2^z − 1`);
    return this.select(layerType, withMargin(tileBbox(address)), clampedInt(query.limit, MAX_OVERLAY_LIMIT, 1, MAX_OVERLAY_LIMIT), address.z);
  }

  /** GET /map/overlays/{layerType}/vector/{z}/{x}/{y}: an MVT (layer `svc`); empty bytes for no features or a bad address. */
  async vectorTile(layerType: string, z: string, x: string, y: string): Promise<{ bytes: Uint8Array; count: number; hasData: boolean }> {
    const address = parseTileAddress(z, x, y);
    if (!address) return { bytes: new Uint8Array(0), count: 0, hasData: false };
    const selected = await this.select(layerType, withMargin(tileBbox(address)), MAX_OVERLAY_LIMIT, address.z);
    if (selected.features.length === 0) return { bytes: new Uint8Array(0), count: 0, hasData: selected.metadata.hasData };
    const result = await this.sources.solvers.run('overlayVectorTile', { ...address, features: selected.features as Feature[] });
    if (!result.ok) return { bytes: new Uint8Array(0), count: 0, hasData: false };
    return { bytes: result.value.raw, count: result.value.count, hasData: true };
  }

  /** GET /map/overlays/{layerType}/tile-cover: the tiles covering `bbox` at `zoom`, zoomed out until at most `maxTiles` (default 64, at most 256). */
  tileCover(layerType: string, query: Query, apiBase: string) {
    const requestedZoom = clampedInt(query.zoom, 14, 0, MAX_OVERLAY_ZOOM);
    const maxTiles = clampedInt(query.maxTiles, DEFAULT_TILE_COVER_CAP, 1, MAX_TILE_COVER_CAP);
    const bbox = parseBbox(query.bbox);
    const known = isOverlayLayerType(layerType);
    const base = {
      layerType: known ? layerType : layerType.slice(0, 64),
      name: known ? OVERLAY_LAYERS[layerType].name : 'Unknown layer',
      requestedZoom,
      maxTiles,
    };
    const error = !known ? unknownLayer(layerType) : !bbox.ok ? bbox.error : bbox.value === undefined ? 'bbox is required: west,south,east,north' : undefined;
    if (error || !bbox.ok || !bbox.value) return { ...base, zoom: requestedZoom, count: 0, capped: false, tiles: [], hasData: false, error };
    const cover = coverTiles(bbox.value, requestedZoom, maxTiles);
    const path = `${apiBase}/map/overlays/${layerType}`;
    const tiles = cover.tiles.map(({ z, x, y }) => ({ z, x, y, url: `${path}/tiles/${z}/${x}/${y}`, vectorUrl: `${path}/vector/${z}/${x}/${y}` }));
    return { ...base, zoom: cover.zoom, count: tiles.length, capped: cover.capped, bbox: bbox.value, tiles };
  }

  private async select(layerType: string, bbox: Bbox | undefined, limit: number, zoom: number): Promise<OverlayCollection> {
    if (!isOverlayLayerType(layerType)) return empty(layerType, zoom, bbox ?? null, unknownLayer(layerType));
    const extra: Partial<OverlayMetadata> = {};
    let candidates: IndexedFeature[];
    switch (layerType) {
      case 'biking':
      case 'speed_cameras':
      case 'traffic_cameras':
      case 'traffic_lights':
        candidates = this.sources.pack.features(layerType) ?? [];
        extra.attribution = OSM_ATTRIBUTION;
        break;
      case 'transit':
        candidates = await this.transitFeatures();
        if (candidates.some((candidate) => candidate.feature.properties.source === 'osm')) extra.attribution = OSM_ATTRIBUTION;
        break;
      case 'traffic': {
        if (!bbox) return empty(layerType, zoom, null, 'traffic needs a bbox: west,south,east,north');
        const traffic = await this.trafficFeatures(bbox);
        candidates = traffic.features;
        extra.simulated = traffic.simulated;
        extra.attribution = OSM_ATTRIBUTION;
        break;
      }
      case 'logistics_zones':
        candidates = await this.zoneFeatures();
        break;
      case 'incidents':
        candidates = await this.incidentFeatures(bbox, limit);
        break;
      case 'weather': {
        if (!bbox) return empty(layerType, zoom, null, 'weather needs a bbox: west,south,east,north');
        const weather = await this.sources.weather?.overlayFeatures(bbox, zoom, limit);
        candidates = (weather?.features ?? []).map((feature) => ({ feature, bounds: boundsOf((feature.geometry as Polygon).coordinates[0]!) }));
        extra.source = this.sources.weather?.source() ?? OVERLAY_LAYERS.weather.source;
        if (weather?.reason) extra.reason = weather.reason;
        break;
      }
      default:
        // terrain: no data here (overlay-layers.ts says why)
        candidates = [];
    }
    const inBox = bbox ? candidates.filter((candidate) => intersects(candidate.bounds, bbox)) : candidates;
    const features = inBox.slice(0, limit).map((candidate) => candidate.feature);
    return {
      type: 'FeatureCollection',
      features,
      metadata: {
        layerType,
        name: OVERLAY_LAYERS[layerType].name,
        hasData: candidates.length > 0,
        source: OVERLAY_LAYERS[layerType].source,
        count: features.length,
        truncated: inBox.length > limit,
        zoom,
        bbox: bbox ?? null,
        ...extra,
      },
    };
  }

  private async transitFeatures(): Promise<IndexedFeature[]> {
    const network = await this.sources.transit?.mapNetwork();
    if (!network) return [];
    // keyed as stations name their routes: the feed (or osm) and the route's own id
    const routeById = new Map(network.routes.map((route) => [`${networkOf(route.id)}:${route.routeId}`, route]));
    const color = (value: string | null) => (value ? `#${value.replace(/^#/, '')}` : OVERLAY_LAYERS.transit.color);
    const lines: IndexedFeature[] = network.routes
      .filter((route) => route.points.length >= 2)
      .map((route) => {
        const coordinates = route.points.map(([lat, lng]) => [lng, lat]);
        // an OSM line with gaps is drawn as its pieces, not with straight jumps across the gaps
        const pieces = route.parts?.map((part) => part.map(([lat, lng]) => [lng, lat]));
        return {
          feature: {
            type: 'Feature',
            geometry: pieces ? { type: 'MultiLineString', coordinates: pieces } : { type: 'LineString', coordinates },
            properties: {
              id: route.id,
              name: route.longName ?? route.shortName,
              layerType: 'transit',
              color: color(route.color),
              kind: 'line',
              mode: TRANSIT_MODES[route.type] ?? route.type,
              routeRef: route.shortName ?? route.routeId,
              lineName: route.longName ?? route.shortName,
              network: networkOf(route.id),
              source: route.source,
            },
          },
          bounds: boundsOf(coordinates),
        };
      });
    const stops: IndexedFeature[] = network.stations.map((station) => {
      const network = networkOf(station.id);
      const served = station.routeIds.map((routeId) => routeById.get(`${network}:${routeId}`)).filter((route) => route !== undefined);
      const first = served[0];
      return {
        feature: {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [station.lng, station.lat] },
          properties: {
            id: station.id,
            name: station.name,
            layerType: 'transit',
            color: first ? color(first.color) : OVERLAY_LAYERS.transit.color,
            kind: 'stop',
            mode: first ? (TRANSIT_MODES[first.type] ?? first.type) : null,
            network,
            routeRefs: served.map((route) => route.shortName ?? route.routeId).join(','),
            source: station.source,
          },
        },
        bounds: [station.lng, station.lat, station.lng, station.lat],
      };
    });
    return [...lines, ...stops];
  }

  private async trafficFeatures(bbox: Bbox): Promise<{ features: IndexedFeature[]; simulated: boolean }> {
    if (!this.sources.traffic) return { features: [], simulated: false };
    const [west, south, east, north] = bbox;
    const clamped = [Math.max(-180, west), Math.max(-90, south), Math.min(180, east), Math.min(90, north)];
    const { labels } = await this.sources.traffic.labels({ bbox: clamped.join(',') });
    let simulated = false;
    const features: IndexedFeature[] = [];
    for (const label of labels) {
      simulated ||= label.simulated;
      const shape = this.sources.pack.segmentShape(label.segmentKey);
      const coordinates = shape && shape.length >= 2 ? shape : undefined;
      features.push({
        feature: {
          type: 'Feature',
          geometry: coordinates ? { type: 'LineString', coordinates } : { type: 'Point', coordinates: [label.lng, label.lat] },
          properties: {
            id: label.segmentKey,
            name: label.label,
            layerType: 'traffic',
            color: CONGESTION_COLORS[label.congestion] ?? CONGESTION_COLORS.unknown!,
            congestion: label.congestion,
            speedRatio: label.speedRatio,
            sampleCount: label.sampleCount,
            simulated: label.simulated,
          },
        },
        bounds: coordinates ? boundsOf(coordinates) : [label.lng, label.lat, label.lng, label.lat],
      });
    }
    return { features, simulated };
  }

  /** Live incidents in the box (the incident store filters and caps them), newest first. */
  private async incidentFeatures(bbox: Bbox | undefined, limit: number): Promise<IndexedFeature[]> {
    if (!this.sources.incidents) return [];
    const [west, south, east, north] = bbox ?? [WHOLE_WORLD.west, WHOLE_WORLD.south, WHOLE_WORLD.east, WHOLE_WORLD.north];
    const box = { west: Math.max(-180, west), south: Math.max(-90, south), east: Math.min(180, east), north: Math.min(90, north) };
    // one more than asked, so `truncated` can say more met the box
    const incidents = await this.sources.incidents.live(box, undefined, Math.min(limit + 1, MAX_OVERLAY_LIMIT));
    return incidents.map((incident) => ({
      feature: {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [incident.lng, incident.lat] },
        properties: {
          id: incident.id,
          name: incident.description || incident.incidentType,
          layerType: 'incidents',
          color: incident.blocking ? BLOCKING_INCIDENT_COLOR : OVERLAY_LAYERS.incidents.color,
          incidentType: incident.incidentType,
          blocking: incident.blocking,
          confidence: incident.confidence,
          reports: incident.reports,
          reportedAt: incident.reportedAt,
          expiresAt: incident.expiresAt,
        },
      },
      bounds: [incident.lng, incident.lat, incident.lng, incident.lat],
    }));
  }

  private async zoneFeatures(): Promise<IndexedFeature[]> {
    const zones = (await this.sources.zones?.activeZones()) ?? [];
    return zones.map((zone) => ({ feature: zoneFeature(zone, OVERLAY_LAYERS.logistics_zones.layerType), bounds: zone.bbox }));
  }
}

/** Zone colours by routing policy: avoid red, penalize orange, allow green. */
const POLICY_COLORS = { avoid: '#c62828', penalize: '#ef6c00', allow: '#2e7d32' } as const;

export function zoneFeature(zone: LogisticsZone, layerType = 'logistics_zones'): OverlayFeature {
  return {
    type: 'Feature',
    id: zone.id,
    geometry: zone.geometry,
    properties: {
      id: zone.id,
      name: zone.name,
      layerType,
      color: POLICY_COLORS[zone.routingPolicy],
      zoneType: zone.zoneType,
      riskScore: zone.riskScore,
      costMultiplier: zone.costMultiplier,
      routingPolicy: zone.routingPolicy,
    },
  };
}

/** The feed a transit id belongs to (`<feed>:<id>`), or `osm` for the map pack's stops and lines (`osm-…`). */
function networkOf(id: string): string {
  const colon = id.indexOf(':');
  return colon < 0 ? (id.startsWith('osm-') ? 'osm' : id) : id.slice(0, colon);
}

function withMargin([west, south, east, north]: Bbox): Bbox {
  const dx = (east - west) * TILE_MARGIN;
  const dy = (north - south) * TILE_MARGIN;
  return [west - dx, south - dy, east + dx, north + dy];
}

function unknownLayer(layerType: string): string {
  return `Unknown overlay layer type ${JSON.stringify(layerType.slice(0, 64))}: one of ${OVERLAY_LAYER_TYPES.join(', ')}`;
}

function empty(layerType: string, zoom: number, bbox: Bbox | null, error: string): OverlayCollection {
  const known = isOverlayLayerType(layerType);
  return {
    type: 'FeatureCollection',
    features: [],
    metadata: {
      layerType: known ? layerType : layerType.slice(0, 64),
      name: known ? OVERLAY_LAYERS[layerType].name : 'Unknown layer',
      hasData: false,
      source: known ? OVERLAY_LAYERS[layerType].source : 'none',
      count: 0,
      truncated: false,
      zoom,
      bbox,
      error,
    },
  };
}

export type { TileAddress };
