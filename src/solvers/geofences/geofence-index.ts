/**
 * Which zones a position is in, for many zones (docs/geofences.md, "Evaluation"). Zones are circles or
 * polygons; each is indexed by its bounding box grown by its hysteresis band in a packed Hilbert R-tree
 * (Flatbush), so one fix reads only the zones whose band could hold it. For those, the signed distance to the
 * boundary is computed in a local equirectangular frame around the fix (metres; negative inside), exact
 * enough for zones up to tens of kilometres across.
 */
import Flatbush from 'flatbush';

export type GeofenceShape =
  | { type: 'circle'; center: { lat: number; lng: number }; radiusM: number }
  /** One ring of `[lng, lat]` pairs (GeoJSON order), not closed or closed. */
  | { type: 'polygon'; coordinates: [number, number][] };

export interface IndexedZone {
  id: string;
  shape: GeofenceShape;
  /** Half-width of the band around the boundary in which a device keeps its previous state. */
  hysteresisM: number;
}

export interface ZoneBounds {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

const M_PER_DEG_LAT = 111_320;

/** The shape's bounding box in degrees. */
export function boundsOf(shape: GeofenceShape): ZoneBounds {
  if (shape.type === 'circle') {
    const dLat = shape.radiusM / M_PER_DEG_LAT;
    const dLng = shape.radiusM / (M_PER_DEG_LAT * Math.max(0.01, Math.cos((shape.center.lat * Math.PI) / 180)));
    return { minLat: shape.center.lat - dLat, maxLat: shape.center.lat + dLat, minLng: shape.center.lng - dLng, maxLng: shape.center.lng + dLng };
  }
  let minLat = Infinity;
  let minLng = Infinity;
  let maxLat = -Infinity;
  let maxLng = -Infinity;
  for (const [lng, lat] of shape.coordinates) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  return { minLat, minLng, maxLat, maxLng };
}

/** Signed distance in metres from the shape's boundary to (lat, lng): negative inside. */
export function signedDistanceM(shape: GeofenceShape, lat: number, lng: number): number {
  const kx = M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180);
  if (shape.type === 'circle') {
    const dx = (shape.center.lng - lng) * kx;
    const dy = (shape.center.lat - lat) * M_PER_DEG_LAT;
    return Math.sqrt(dx * dx + dy * dy) - shape.radiusM;
  }
  const ring = shape.coordinates;
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = (ring[i]![0] - lng) * kx;
    const yi = (ring[i]![1] - lat) * M_PER_DEG_LAT;
    const xj = (ring[j]![0] - lng) * kx;
    const yj = (ring[j]![1] - lat) * M_PER_DEG_LAT;
    // ray to +x from the origin (the fix)
    if (yi > 0 !== yj > 0 && 0 < ((xj - xi) * (0 - yi)) / (yj - yi) + xi) inside = !inside;
    // distance from the origin to the edge
    const ex = xj - xi;
    const ey = yj - yi;
    const length2 = ex * ex + ey * ey;
    const t = length2 > 0 ? Math.max(0, Math.min(1, -(xi * ex + yi * ey) / length2)) : 0;
    const px = xi + t * ex;
    const py = yi + t * ey;
    const d2 = px * px + py * py;
    if (d2 < best) best = d2;
  }
  const distance = Math.sqrt(best);
  return inside ? -distance : distance;
}

export type ZoneState = 'inside' | 'outside' | 'band';

/** Where a signed distance falls: inside past the band, outside past it, or within it (state kept). */
export function stateOf(distanceM: number, hysteresisM: number): ZoneState {
  if (hysteresisM <= 0) return distanceM <= 0 ? 'inside' : 'outside';
  if (distanceM <= -hysteresisM) return 'inside';
  if (distanceM >= hysteresisM) return 'outside';
  return 'band';
}

export interface ZoneTransition {
  zone: IndexedZone;
  type: 'enter' | 'leave';
  distanceM: number;
}

export class GeofenceIndex {
  private readonly tree: Flatbush | undefined;
  private readonly byId: Map<string, IndexedZone>;
  private readonly hits: number[] = [];

  constructor(readonly zones: readonly IndexedZone[]) {
    this.byId = new Map(zones.map((zone) => [zone.id, zone]));
    if (zones.length === 0) return;
    const tree = new Flatbush(zones.length);
    for (const zone of zones) {
      const box = boundsOf(zone.shape);
      const padLat = zone.hysteresisM / M_PER_DEG_LAT;
      const padLng = zone.hysteresisM / (M_PER_DEG_LAT * Math.max(0.01, Math.cos((((box.minLat + box.maxLat) / 2) * Math.PI) / 180)));
      tree.add(box.minLng - padLng, box.minLat - padLat, box.maxLng + padLng, box.maxLat + padLat);
    }
    tree.finish();
    this.tree = tree;
  }

  zone(id: string): IndexedZone | undefined {
    return this.byId.get(id);
  }

  /**
   * The enter and leave transitions of a device at (lat, lng) that was inside `insideIds`: a zone is
   * entered once the fix is `hysteresisM` inside its boundary and left once it is `hysteresisM` outside; in
   * the band between, the previous state holds. A zone the device was in whose band no longer contains the
   * fix is left. Zones no longer indexed (deleted) are ignored.
   */
  transitions(lat: number, lng: number, insideIds: ReadonlySet<string>): ZoneTransition[] {
    const result: ZoneTransition[] = [];
    const hits = this.hits;
    hits.length = 0;
    if (this.tree) this.tree.search(lng, lat, lng, lat, (index) => (hits.push(index), false));
    const seen = insideIds.size > 0 ? new Set<string>() : undefined;
    for (const index of hits) {
      const zone = this.zones[index]!;
      seen?.add(zone.id);
      const distanceM = signedDistanceM(zone.shape, lat, lng);
      const state = stateOf(distanceM, zone.hysteresisM);
      const wasInside = insideIds.has(zone.id);
      if (state === 'inside' && !wasInside) result.push({ zone, type: 'enter', distanceM });
      else if (state === 'outside' && wasInside) result.push({ zone, type: 'leave', distanceM });
    }
    if (seen) {
      for (const id of insideIds) {
        if (seen.has(id)) continue;
        const zone = this.byId.get(id);
        if (zone) result.push({ zone, type: 'leave', distanceM: signedDistanceM(zone.shape, lat, lng) });
      }
    }
    return result;
  }
}
