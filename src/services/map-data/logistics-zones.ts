/**
 * Logistics zones (issue #29; docs/map-data.md, Logistics zones): operators create, edit and delete
 * zones; the map reads the active ones as GeoJSON and as the `logistics_zones` overlay. Geometry is
 * checked here (closed rings of at least four positions, coordinates in range, a bounded vertex
 * count), so a stored zone always draws.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ZONE_ROUTING_POLICIES, ZONE_TYPES, type LogisticsZone } from '../../domain/logistics-zone.js';
import { ApiError } from '../../shared/errors.js';
import type { LogisticsZoneFields, LogisticsZoneRepository } from '../../store/pg/logistics-zones.js';
import { boundsOf, type OverlayFeature } from './pack-overlays.js';
import { zoneFeature } from './map-overlays.js';
import { clampedInt, parseBbox } from './overlay-queries.js';

/** Most vertices of one zone (all rings): a city district drawn by hand has a few hundred. */
export const MAX_ZONE_VERTICES = 10_000;
/** Most zones one GeoJSON answer holds. */
export const MAX_ZONES_LISTED = 1_000;
/** How long the overlay keeps its read of the active zones (edits in this process clear it at once). */
const ACTIVE_ZONES_TTL_MS = 5_000;

const position = z.array(z.number().finite()).min(2).max(3);
const ring = z.array(position).min(4);
const polygonGeometry = z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1).max(100) });
const multiPolygonGeometry = z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1).max(100)).min(1).max(100) });

export const zoneBody = z.object({
  name: z.string().trim().min(1).max(200),
  zoneType: z.enum(ZONE_TYPES),
  riskScore: z.number().min(0).max(1),
  costMultiplier: z.number().min(1).max(10).default(1),
  routingPolicy: z.enum(ZONE_ROUTING_POLICIES),
  geometry: z.discriminatedUnion('type', [polygonGeometry, multiPolygonGeometry]),
  active: z.boolean().default(true),
  notes: z.string().max(2_000).nullable().default(null),
});
export const zonePatchBody = z.object({
  name: zoneBody.shape.name.optional(),
  zoneType: zoneBody.shape.zoneType.optional(),
  riskScore: zoneBody.shape.riskScore.optional(),
  costMultiplier: z.number().min(1).max(10).optional(),
  routingPolicy: zoneBody.shape.routingPolicy.optional(),
  geometry: zoneBody.shape.geometry.optional(),
  active: z.boolean().optional(),
  notes: z.string().max(2_000).nullable().optional(),
});
export type ZoneBody = z.infer<typeof zoneBody>;
export type ZonePatchBody = z.infer<typeof zonePatchBody>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class LogisticsZones {
  private active: { zones: LogisticsZone[]; readAt: number } | undefined;

  constructor(
    private readonly repository: LogisticsZoneRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async create(body: ZoneBody, userId: string): Promise<LogisticsZone> {
    const zone = await this.repository.create(randomUUID(), checkedFields(body), userId);
    this.active = undefined;
    return zone;
  }

  async update(id: string, patch: ZonePatchBody): Promise<LogisticsZone> {
    const current = await this.get(id);
    const merged = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) } as LogisticsZone;
    const zone = await this.repository.update(id, checkedFields(merged));
    if (!zone) throw notFound(id);
    this.active = undefined;
    return zone;
  }

  async get(id: string): Promise<LogisticsZone> {
    const zone = UUID.test(id) ? await this.repository.get(id) : undefined;
    if (!zone) throw notFound(id);
    return zone;
  }

  async delete(id: string): Promise<void> {
    if (!UUID.test(id) || !(await this.repository.delete(id))) throw notFound(id);
    this.active = undefined;
  }

  /** GET /admin/logistics-zones: every zone (inactive too), newest first. */
  async list(query: { bbox?: string; limit?: string }) {
    const bbox = parseBbox(query.bbox);
    if (!bbox.ok) throw new ApiError('VALIDATION_ERROR', { message: bbox.error });
    const limit = clampedInt(query.limit, 100, 1, MAX_ZONES_LISTED);
    const zones = await this.repository.list({ bbox: bbox.value, activeOnly: false, limit });
    return { count: zones.length, zones };
  }

  /** The active zones, read at most every few seconds (the overlay asks per tile). */
  async activeZones(): Promise<LogisticsZone[]> {
    if (!this.active || this.now() - this.active.readAt > ACTIVE_ZONES_TTL_MS) {
      this.active = { zones: await this.repository.list({ activeOnly: true, limit: MAX_ZONES_LISTED }), readAt: this.now() };
    }
    return this.active.zones;
  }

  async activeCount(): Promise<number> {
    return (await this.activeZones()).length;
  }

  /** GET /map/logistics-zones.geojson: active zones meeting `bbox` (optional); a bad bbox answers empty with hasData:false. */
  async geojson(query: { bbox?: string; limit?: string }): Promise<{ type: 'FeatureCollection'; features: OverlayFeature[]; metadata: Record<string, unknown> }> {
    const bbox = parseBbox(query.bbox);
    const limit = clampedInt(query.limit, MAX_ZONES_LISTED, 1, MAX_ZONES_LISTED);
    const metadata = { layerType: 'logistics_zones', name: 'Logistics zones' };
    if (!bbox.ok) return { type: 'FeatureCollection', features: [], metadata: { ...metadata, hasData: false, count: 0, error: bbox.error } };
    const zones = await this.repository.list({ bbox: bbox.value, activeOnly: true, limit });
    const features = zones.map((zone) => zoneFeature(zone));
    return { type: 'FeatureCollection', features, metadata: { ...metadata, hasData: features.length > 0, count: features.length, bbox: bbox.value ?? null } };
  }
}

function notFound(id: string): ApiError {
  return new ApiError('NOT_FOUND', { message: `No logistics zone ${id.slice(0, 64)}` });
}

/** The stored fields with the bbox, after checking the geometry draws. */
function checkedFields(zone: Omit<LogisticsZoneFields, 'bbox'> & { bbox?: unknown }): LogisticsZoneFields {
  const polygons = zone.geometry.type === 'Polygon' ? [zone.geometry.coordinates] : zone.geometry.coordinates;
  const positions: number[][] = [];
  polygons.forEach((rings, polygon) =>
    rings.forEach((ringPositions, index) => {
      const first = ringPositions[0]!;
      const last = ringPositions[ringPositions.length - 1]!;
      const where = `geometry: polygon ${polygon + 1}, ring ${index + 1}`;
      if (ringPositions.length < 4) throw new ApiError('VALIDATION_ERROR', { message: `${where} needs at least four positions` });
      if (first[0] !== last[0] || first[1] !== last[1]) throw new ApiError('VALIDATION_ERROR', { message: `${where} is not closed: its last position must repeat its first` });
      for (const [lng, lat] of ringPositions) {
        if (Math.abs(lng!) > 180 || Math.abs(lat!) > 90) throw new ApiError('VALIDATION_ERROR', { message: `${where}: [${lng}, ${lat}] is outside ±180 / ±90 ([lng, lat] order)` });
      }
      positions.push(...ringPositions);
    }),
  );
  if (positions.length > MAX_ZONE_VERTICES) throw new ApiError('VALIDATION_ERROR', { message: `geometry: ${positions.length} positions, at most ${MAX_ZONE_VERTICES}` });
  return {
    name: zone.name,
    zoneType: zone.zoneType,
    riskScore: zone.riskScore,
    costMultiplier: zone.costMultiplier,
    routingPolicy: zone.routingPolicy,
    geometry: zone.geometry,
    bbox: boundsOf(positions),
    active: zone.active,
    notes: zone.notes,
  };
}
