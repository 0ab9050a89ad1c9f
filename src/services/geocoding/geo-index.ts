/**
 * The geocoding index of one map data pack, built once at start (main thread,
 * in memory): the entries, their name index, each entry's enclosing areas
 * (admin hierarchy), and grids for reverse lookups (street segments, address
 * points and buildings, area polygons, locality points).
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { NO_INDEX } from '../../datapack/pack-layout.js';
import { isLocality, polygonRings, readEntries, type GeoEntry } from './geo-entries.js';
import { NameIndex } from './name-index.js';
import { distanceMetres, metresPerDegree, ringsContain, segmentDistanceSquared, SpatialGrid } from './spatial-grid.js';

/** ~110 m cells for streets and addresses, ~5.5 km for areas and localities. */
const FINE_CELL = 0.001;
const AREA_CELL = 0.05;
/** How far a point locality (without a polygon) reaches, by place type, in metres. */
const LOCALITY_REACH: Record<string, number> = { city: 15_000, town: 7_000, village: 3_000, suburb: 2_000, borough: 3_000, quarter: 1_200, neighbourhood: 800, hamlet: 1_000 };
const ADDRESS_TAGS_AS_CONTEXT = ['city', 'district', 'district:en', 'subdistrict', 'province', 'province:en', 'postcode', 'suburb', 'quarter'];

export interface NearestStreet {
  entry: GeoEntry;
  distance: number;
  lon: number;
  lat: number;
}

export interface IndexStats {
  entries: number;
  byKind: Record<string, number>;
  vocabulary: number;
  buildMs: number;
}

export class GeoIndex {
  readonly entries: GeoEntry[];
  /**
   * Each entry's representative point and importance by entry id, for ranking (search.ts `rankMatchIds`): the
   * entries are objects of many shapes (an address, a street, a building each carry fields of their own), so reading
   * these from the objects was a megamorphic property load per match.
   */
  readonly entryLon: Float64Array;
  readonly entryLat: Float64Array;
  readonly entryImportance: Float64Array;
  readonly names = new NameIndex();
  /** entry id → token ids of its parents' names and address tags (query words that only narrow down) */
  readonly context: Set<number>[] = [];
  readonly stats: IndexStats;
  private readonly areaGrid = new SpatialGrid(AREA_CELL);
  /** Representative points of places that are localities (with or without a polygon). */
  private readonly localityGrid = new SpatialGrid(AREA_CELL);
  private readonly segmentGrid = new SpatialGrid(FINE_CELL);
  private readonly addressGrid = new SpatialGrid(FINE_CELL);
  /** Street segments: ax, ay, bx, by per segment, and the street entry of each. */
  private segmentCoordinates = new Float64Array(0);
  private segmentStreet = new Int32Array(0);
  private readonly streetOfWay: Int32Array;
  /** Streets by the folded text of each name, to find an address's street. */
  readonly streetsByName = new Map<string, GeoEntry>();

  constructor(private readonly pack: MapPack) {
    const started = performance.now();
    const read = readEntries(pack);
    this.entries = read.entries;
    this.streetOfWay = read.streetOfWay;
    this.entryLon = Float64Array.from(this.entries, (entry) => entry.lon);
    this.entryLat = Float64Array.from(this.entries, (entry) => entry.lat);
    this.entryImportance = Float64Array.from(this.entries, (entry) => entry.importance);
    for (const entry of this.entries) {
      this.names.add(entry.id, this.spellingsOf(entry));
      if (entry.rings) this.areaGrid.add(entry.id, ...entry.bbox);
      if (entry.kind === 'place' && isLocality(entry)) this.localityGrid.add(entry.id, entry.lon, entry.lat, entry.lon, entry.lat);
      if (entry.kind === 'address' || entry.kind === 'building') this.addressGrid.add(entry.id, ...entry.bbox);
      if (entry.kind === 'street') for (const text of entry.names.all) this.streetsByName.set(text, entry);
    }
    this.indexSegments();
    for (const entry of this.entries) {
      entry.parents = this.parentsAt(entry.lon, entry.lat).filter((parent) => parent !== entry.id && this.encloses(this.entries[parent]!, entry));
      const context = new Set<number>();
      for (const parent of entry.parents) for (const text of this.entries[parent]!.names.all) for (const token of this.names.contextTokens(text)) context.add(token);
      for (const key of ADDRESS_TAGS_AS_CONTEXT) {
        const value = entry.address?.[key];
        if (value) for (const token of this.names.contextTokens(value)) context.add(token);
      }
      this.context.push(context);
    }
    // a street is also known by the city and district its addresses name
    for (const entry of this.entries) {
      const street = entry.kind === 'address' && entry.address?.street ? this.streetsByName.get(entry.address.street) : undefined;
      if (street) for (const token of this.context[entry.id]!) this.context[street.id]!.add(token);
    }
    this.names.finish();
    const byKind: Record<string, number> = {};
    for (const entry of this.entries) byKind[entry.kind] = (byKind[entry.kind] ?? 0) + 1;
    this.stats = { entries: this.entries.length, byKind, vocabulary: this.names.vocabularySize, buildMs: performance.now() - started };
  }

  /** Whether `parent` (found at the entry's point) is above it in the hierarchy, not a smaller area that happens to hold that point. */
  private encloses(parent: GeoEntry, entry: GeoEntry): boolean {
    if (entry.kind === 'admin') return parent.kind === 'admin' && (parent.adminLevel ?? 99) < (entry.adminLevel ?? 99);
    if (entry.kind === 'place' && entry.rings) {
      const area = (box: number[]) => (box[2]! - box[0]!) * (box[3]! - box[1]!);
      return parent.kind === 'admin' || area(parent.bbox) > area(entry.bbox);
    }
    return true;
  }

  private spellingsOf(entry: GeoEntry): string[] {
    if (entry.kind !== 'address') return entry.names.all;
    const houseNumber = entry.address!.housenumber!;
    const streets = [entry.address!.street, entry.address!['street:en']].filter((street): street is string => Boolean(street));
    return [...streets.map((street) => `${houseNumber} ${street}`), ...entry.names.all];
  }

  private indexSegments(): void {
    const s = this.pack.sections;
    const edgeCount = s['graph.edgeTarget'].length;
    const coordinates: number[] = [];
    const streets: number[] = [];
    for (let edge = 0; edge < edgeCount; edge++) {
      const twin = s['graph.edgeTwin'][edge]!;
      if (twin !== NO_INDEX && twin < edge) continue; // one direction per segment is enough
      const way = s['graph.edgeWay'][edge]!;
      if (way === NO_INDEX || this.streetOfWay[way]! < 0) continue;
      const shape = this.pack.edgeShape(edge);
      for (let index = 0; index + 1 < shape.length; index++) {
        const [ax, ay] = shape[index]!;
        const [bx, by] = shape[index + 1]!;
        const id = streets.length;
        streets.push(this.streetOfWay[way]!);
        coordinates.push(ax, ay, bx, by);
        this.segmentGrid.add(id, Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
      }
    }
    this.segmentCoordinates = Float64Array.from(coordinates);
    this.segmentStreet = Int32Array.from(streets);
  }

  /** Areas and localities enclosing a point, smallest first: polygons that contain it, then point localities within reach. */
  parentsAt(lon: number, lat: number): number[] {
    const found = new Set<number>();
    this.areaGrid.near(lon, lat, 0, (id) => {
      const entry = this.entries[id]!;
      if (found.has(id)) return;
      const [west, south, east, north] = entry.bbox;
      if (lon < west || lon > east || lat < south || lat > north) return;
      if (ringsContain(entry.rings!, lon, lat)) found.add(id);
    });
    // point localities: the nearest one of each kind within its reach (one town, one suburb …)
    const nearestOfType = new Map<string, { id: number; distance: number }>();
    this.localityGrid.near(lon, lat, 3, (id) => {
      const entry = this.entries[id]!;
      if (entry.rings) return;
      const distance = distanceMetres(lon, lat, entry.lon, entry.lat);
      const current = nearestOfType.get(entry.type);
      if (distance <= (LOCALITY_REACH[entry.type] ?? 0) && (!current || distance < current.distance)) nearestOfType.set(entry.type, { id, distance });
    });
    // … that lies in the same admin areas as the point (a town across a border is not a parent)
    const areas = [...found].filter((id) => this.entries[id]!.kind === 'admin');
    for (const { id } of nearestOfType.values()) {
      const locality = this.entries[id]!;
      if (areas.every((area) => ringsContain(this.entries[area]!.rings!, locality.lon, locality.lat))) found.add(id);
    }
    const size = (id: number) => {
      const entry = this.entries[id]!;
      if (entry.kind === 'place' && !entry.rings) return (LOCALITY_REACH[entry.type] ?? 1000) ** 2 / 1e10;
      const [west, south, east, north] = entry.bbox;
      return (east - west) * (north - south);
    };
    return [...found].sort((a, b) => size(a) - size(b) || (this.entries[b]!.adminLevel ?? 99) - (this.entries[a]!.adminLevel ?? 99));
  }

  /** The named street closest to the point within `maxMetres`, with the closest point on it. */
  nearestStreet(lon: number, lat: number, maxMetres: number): NearestStreet | undefined {
    // every reverse call runs this: one metres-per-degree scale for the point, no visitor closure
    const scale = metresPerDegree(lat);
    const c = this.segmentCoordinates;
    const grid = this.segmentGrid;
    const column = grid.cellOf(lon);
    const row = grid.cellOf(lat);
    let bestSegment = -1;
    let bestDistance = Infinity;
    // nearby cells first; the wider search only when nothing is that close
    for (const rings of [1, Math.max(1, Math.ceil(maxMetres / 100))]) {
      for (let dc = -rings; dc <= rings; dc++) {
        for (let dr = -rings; dr <= rings; dr++) {
          const items = grid.cell(column + dc, row + dr);
          if (!items) continue;
          for (let index = 0; index < items.length; index++) {
            const segment = items[index]!;
            const at = segment * 4;
            // compared as metres (a square root is one instruction), so ties at shared vertices resolve as they always did
            const distance = Math.sqrt(segmentDistanceSquared(lon, lat, c[at]!, c[at + 1]!, c[at + 2]!, c[at + 3]!, scale.lon, scale.lat));
            if (distance <= maxMetres && distance < bestDistance) {
              bestDistance = distance;
              bestSegment = segment;
            }
          }
        }
      }
      if (bestSegment >= 0) break;
    }
    if (bestSegment < 0) return undefined;
    const at = bestSegment * 4;
    const [ax, ay, bx, by] = [c[at]!, c[at + 1]!, c[at + 2]!, c[at + 3]!];
    const t = projection(lon, lat, ax, ay, bx, by);
    return { entry: this.entries[this.segmentStreet[bestSegment]!]!, distance: bestDistance, lon: ax + (bx - ax) * t, lat: ay + (by - ay) * t };
  }

  /** The address point or named building under the point, else the closest one within `maxMetres`. */
  addressAt(lon: number, lat: number, maxMetres: number): { entry: GeoEntry; distance: number } | undefined {
    let best: { entry: GeoEntry; distance: number } | undefined;
    const rings = Math.max(1, Math.ceil(maxMetres / 100));
    const geometryCache = new Map<number, boolean>();
    this.addressGrid.near(lon, lat, rings, (id) => {
      const entry = this.entries[id]!;
      let distance = distanceMetres(lon, lat, entry.lon, entry.lat);
      const [west, south, east, north] = entry.bbox;
      if (lon >= west && lon <= east && lat >= south && lat <= north && entry.osmType !== 'node') {
        let inside = geometryCache.get(id);
        if (inside === undefined) {
          inside = this.containsFeaturePoint(entry, lon, lat);
          geometryCache.set(id, inside);
        }
        if (inside) distance = 0;
      }
      if (distance <= maxMetres && (!best || distance < best.distance || (distance === best.distance && entry.kind === 'address' && best.entry.kind !== 'address'))) {
        best = { entry, distance };
      }
    });
    return best;
  }

  private containsFeaturePoint(entry: GeoEntry, lon: number, lat: number): boolean {
    const rings = entry.feature === undefined ? undefined : polygonRings(this.pack, entry.feature);
    return rings !== undefined && ringsContain(rings, lon, lat);
  }

  /** The closest locality (admin area or place) for a point: the smallest enclosing one, else the nearest within 25 km. */
  localityAt(lon: number, lat: number): GeoEntry | undefined {
    const parents = this.parentsAt(lon, lat).map((id) => this.entries[id]!);
    const enclosing = parents.find((entry) => isLocality(entry));
    if (enclosing) return enclosing;
    let best: GeoEntry | undefined;
    let bestDistance = 25_000;
    this.localityGrid.near(lon, lat, 5, (id) => {
      const entry = this.entries[id]!;
      const distance = distanceMetres(lon, lat, entry.lon, entry.lat);
      if (distance < bestDistance) {
        best = entry;
        bestDistance = distance;
      }
    });
    return best;
  }
}

function projection(lon: number, lat: number, ax: number, ay: number, bx: number, by: number): number {
  const cos = Math.cos((lat * Math.PI) / 180);
  const dx = (bx - ax) * cos;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  return lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((lon - ax) * cos * dx + (lat - ay) * dy) / lengthSquared));
}
