/**
 * A place's mapped entrances (spec part 2 §2.4 `entrances`): OSM `entrance=*` nodes (the pack's
 * `entrance` layer, format 4) on the outline of the place's building. The outline is the place's own
 * polygon when it is a building, else the building polygon the place's point lies in. An entrance
 * counts when it lies within 3 m of the outline (entrance nodes are vertices of the building way; the
 * pack keeps their coordinates, not the way membership).
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { COORDINATE_SCALE } from '../../datapack/pack-layout.js';
import type { PlaceEntranceRecord } from '../../domain/place.js';

const ON_OUTLINE_METRES = 3;
const CELL_DEGREES = 0.002;
const METRES_PER_DEGREE = 111_320;
const KINDS = ['node', 'way', 'relation'] as const;

type Ring = [number, number][];

interface Outline {
  rings: Ring[];
  west: number;
  south: number;
  east: number;
  north: number;
}

const cellOf = (lng: number, lat: number) => `${Math.floor(lng / CELL_DEGREES)}:${Math.floor(lat / CELL_DEGREES)}`;

function addTo(index: Map<string, number[]>, cell: string, feature: number): void {
  const list = index.get(cell);
  if (list) list.push(feature);
  else index.set(cell, [feature]);
}

function outlineOf(pack: MapPack, feature: number): Outline | undefined {
  const geometry = pack.featureGeometry(feature);
  if (geometry.kind !== 'polygon' || geometry.parts.length === 0) return undefined;
  const rings = geometry.parts.map((part) => part.coordinates);
  const points = rings.flat();
  return {
    rings,
    west: Math.min(...points.map((point) => point[0])),
    east: Math.max(...points.map((point) => point[0])),
    south: Math.min(...points.map((point) => point[1])),
    north: Math.max(...points.map((point) => point[1])),
  };
}

function insideRing(ring: Ring, lng: number, lat: number): boolean {
  let inside = false;
  for (let index = 0, previous = ring.length - 1; index < ring.length; previous = index++) {
    const [x1, y1] = ring[index]!;
    const [x2, y2] = ring[previous]!;
    if (y1 > lat !== y2 > lat && lng < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
  }
  return inside;
}

/** Metres from a point to the nearest edge of any ring (equirectangular: buildings are small). */
function metresToOutline(outline: Outline, lng: number, lat: number): number {
  const scaleX = METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  let best = Number.POSITIVE_INFINITY;
  for (const ring of outline.rings) {
    for (let index = 1; index < ring.length; index++) {
      const ax = (ring[index - 1]![0] - lng) * scaleX;
      const ay = (ring[index - 1]![1] - lat) * METRES_PER_DEGREE;
      const bx = (ring[index]![0] - lng) * scaleX;
      const by = (ring[index]![1] - lat) * METRES_PER_DEGREE;
      const dx = bx - ax;
      const dy = by - ay;
      const length = dx * dx + dy * dy;
      const t = length === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length));
      best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
    }
  }
  return best;
}

/** Entrances of the pack, indexed for the places seeded from it. */
export class PackEntrances {
  private readonly entrances = new Map<string, number[]>();
  private readonly buildings = new Map<string, number[]>();
  private readonly buildingOf = new Map<string, number>();

  constructor(private readonly pack: MapPack) {
    const [start, end] = pack.layerRange('entrance');
    for (let feature = start; feature < end; feature++) {
      const [lng, lat] = pack.featurePosition(feature);
      addTo(this.entrances, cellOf(lng, lat), feature);
    }
    if (end === start) return;
    const s = pack.sections;
    const [first, last] = pack.layerRange('building');
    for (let feature = first; feature < last; feature++) {
      this.buildingOf.set(`${s['features.sourceKind'][feature]}/${s['features.osmId'][feature]}`, feature);
      const [lng, lat] = pack.featurePosition(feature);
      addTo(this.buildings, cellOf(lng, lat), feature);
    }
  }

  /** Whether the pack has any entrance (packs before format 4 have none). */
  get empty(): boolean {
    return this.entrances.size === 0;
  }

  private nearby(index: Map<string, number[]>, lng: number, lat: number, reach = 1): number[] {
    const found: number[] = [];
    const x = Math.floor(lng / CELL_DEGREES);
    const y = Math.floor(lat / CELL_DEGREES);
    for (let dx = -reach; dx <= reach; dx++) for (let dy = -reach; dy <= reach; dy++) found.push(...(index.get(`${x + dx}:${y + dy}`) ?? []));
    return found;
  }

  /** The entrances of the place a POI feature is, main entrances first. */
  of(poiFeature: number): PlaceEntranceRecord[] {
    if (this.empty) return [];
    const s = this.pack.sections;
    const [lng, lat] = this.pack.featurePosition(poiFeature);
    const own = this.buildingOf.get(`${s['features.sourceKind'][poiFeature]}/${s['features.osmId'][poiFeature]}`);
    let outline = own === undefined ? undefined : outlineOf(this.pack, own);
    if (!outline) {
      const scale = COORDINATE_SCALE;
      for (const building of this.nearby(this.buildings, lng, lat)) {
        // the pack's bounding box first: most nearby buildings are not under the point
        if (lng * scale < s['features.minLon'][building]! || lng * scale > s['features.maxLon'][building]! || lat * scale < s['features.minLat'][building]! || lat * scale > s['features.maxLat'][building]!) continue;
        const candidate = outlineOf(this.pack, building);
        if (candidate && lng >= candidate.west && lng <= candidate.east && lat >= candidate.south && lat <= candidate.north && candidate.rings.some((ring) => insideRing(ring, lng, lat))) {
          outline = candidate;
          break;
        }
      }
    }
    if (!outline) return [];
    const found: PlaceEntranceRecord[] = [];
    for (const entrance of this.nearby(this.entrances, (outline.west + outline.east) / 2, (outline.south + outline.north) / 2, 2)) {
      const [entranceLng, entranceLat] = this.pack.featurePosition(entrance);
      if (metresToOutline(outline, entranceLng, entranceLat) > ON_OUTLINE_METRES) continue;
      const tags = this.pack.featureTags(entrance);
      found.push({
        id: `${KINDS[s['features.sourceKind'][entrance]!] ?? 'node'}-${s['features.osmId'][entrance]}`,
        type: tags.entrance!,
        label: tags.name ?? tags.ref ?? tags['addr:housenumber'] ?? null,
        lat: entranceLat,
        lng: entranceLng,
      });
    }
    const rank = (type: string) => (type === 'main' ? 0 : type === 'yes' ? 1 : 2);
    return found.sort((a, b) => rank(a.type) - rank(b.type) || a.id.localeCompare(b.id));
  }
}
