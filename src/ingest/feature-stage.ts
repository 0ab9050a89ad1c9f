/**
 * Staging of the pack's features in per-layer typed buffers.
 *
 * Features arrive in source order (points during the node pass, then ways,
 * relations and admin areas) but the pack stores them sorted by layer. Each
 * layer gets its own growable columns, so "sorting" is concatenating the
 * layers; no object per feature, no number[] per ring. Tag strings are staged
 * as ids of a staging table and given their pack string ids at the end, in
 * pack order, so the string table does not depend on the order of staging.
 */
import { COORDINATE_SCALE, FEATURE_LAYERS, GeometryKind, SourceKind } from '../datapack/pack-layout.js';
import { ChunkedColumn } from './chunked-column.js';
import { isEditKey } from './feature-tags.js';
import { GrowableArray } from './growable-array.js';
import type { OsmTags } from './osm/osm-visitor.js';
import type { StringTableBuilder } from './string-table-builder.js';
import { assembleFeatureSections, type BuiltFeatures } from './feature-sections.js';

export type { BuiltFeatures };

const fixed = (degrees: number) => Math.round(degrees * COORDINATE_SCALE);

/** Strings numbered in first-seen order while staging. */
export class StagingStrings {
  private readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  /** Per string used as a key: 1 kept, 2 an edit key (`isEditKey`); tested once per distinct key. */
  private readonly keyKind = new GrowableArray(Uint8Array, 1024);

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.push(value) - 1;
      this.ids.set(value, id);
      this.keyKind.push(0);
    }
    return id;
  }

  /**
   * Appends the tags kept in the pack (all but edit metadata, and `except`)
   * to `list`; returns how many.
   */
  stageKept(tags: OsmTags, list: TagList, except?: string): number {
    let count = 0;
    for (const key in tags) {
      if (key === except) continue;
      const id = this.id(key);
      let kind = this.keyKind.array[id]!;
      if (!kind) this.keyKind.array[id] = kind = isEditKey(key) ? 2 : 1;
      if (kind === 2) continue;
      list.push(id, this.id(tags[key]!));
      count++;
    }
    return count;
  }
}

/** A list of (key, value) staging-id pairs: one feature's tags, or every kept way's. */
export class TagList {
  readonly key = new GrowableArray(Uint32Array, 64);
  readonly value = new GrowableArray(Uint32Array, 64);

  get length(): number {
    return this.key.length;
  }

  push(key: number, value: number): void {
    this.key.push(key);
    this.value.push(value);
  }

  clear(): void {
    this.key.clear();
    this.value.clear();
  }
}

/**
 * One layer's staged features: per-feature, per-part and per-point columns, and
 * the features' tags. Chunked (no outgrown copies: see chunked-column.ts); each
 * column becomes its section's chunks as it is.
 */
export class LayerStage {
  readonly geometry = new ChunkedColumn(Uint8Array);
  readonly sourceKind = new ChunkedColumn(Uint8Array);
  readonly osmId = new ChunkedColumn(Float64Array);
  readonly lat = new ChunkedColumn(Int32Array);
  readonly lon = new ChunkedColumn(Int32Array);
  readonly minLat = new ChunkedColumn(Int32Array);
  readonly minLon = new ChunkedColumn(Int32Array);
  readonly maxLat = new ChunkedColumn(Int32Array);
  readonly maxLon = new ChunkedColumn(Int32Array);
  readonly partCount = new ChunkedColumn(Uint32Array);
  readonly tagCount = new ChunkedColumn(Uint32Array);
  /** Per part. */
  readonly pointCount = new ChunkedColumn(Uint32Array);
  readonly inner = new ChunkedColumn(Uint8Array);
  /** Per point, fixed-point. */
  readonly pointLat = new ChunkedColumn(Int32Array, 64);
  readonly pointLon = new ChunkedColumn(Int32Array, 64);
  /** Per tag: staging string ids (pack string ids once the sections are assembled). */
  readonly tagKey = new ChunkedColumn(Uint32Array, 64);
  readonly tagValue = new ChunkedColumn(Uint32Array, 64);
  /** The bounds of its OSM features (not external ones), fixed point: west, south, east, north. */
  readonly osmBounds: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

  get count(): number {
    return this.geometry.length;
  }
}

export class FeatureStage {
  readonly strings = new StagingStrings();
  /** The geometry being staged, in degrees: parts end at `partEnd`, points in `lon`/`lat`. */
  readonly lon = new GrowableArray(Float64Array, 1024);
  readonly lat = new GrowableArray(Float64Array, 1024);
  private readonly partEnd = new GrowableArray(Uint32Array, 16);
  private readonly partInner = new GrowableArray(Uint8Array, 16);
  /** Scratch for the tags of one feature. */
  readonly scratchTags = new TagList();
  private stages: (LayerStage | undefined)[] = FEATURE_LAYERS.map(() => new LayerStage());
  /** The representative point last computed by `representative`. */
  repLon = 0;
  repLat = 0;

  /** Stages tag entries into `scratchTags` (cleared first). */
  stageTags(entries: Iterable<readonly [string, string]>): TagList {
    const tags = this.scratchTags;
    tags.clear();
    for (const [key, value] of entries) tags.push(this.strings.id(key), this.strings.id(value));
    return tags;
  }

  /** Stages the tags an OSM feature keeps in the pack into `scratchTags` (cleared first). */
  stageKeptTags(tags: OsmTags, except?: string): TagList {
    this.scratchTags.clear();
    this.strings.stageKept(tags, this.scratchTags, except);
    return this.scratchTags;
  }

  clearGeometry(): void {
    this.lon.clear();
    this.lat.clear();
    this.partEnd.clear();
    this.partInner.clear();
  }

  /** Closes the current part: the points added since the previous part. */
  endPart(inner: boolean): void {
    this.partEnd.push(this.lon.length);
    this.partInner.push(inner ? 1 : 0);
  }

  get partCount(): number {
    return this.partEnd.length;
  }

  /**
   * Sets `repLon`/`repLat` to the representative point of the staged geometry:
   * the area centroid of its largest outer part (by points) when `area`, else
   * (or for a degenerate area) the middle of that part.
   */
  representative(area: boolean): void {
    const ends = this.partEnd.array;
    const parts = this.partEnd.length;
    let best = -1;
    let bestSize = -1;
    for (let part = 0; part < parts; part++) {
      if (this.partInner.array[part]) continue;
      const size = ends[part]! - (part ? ends[part - 1]! : 0);
      if (size > bestSize) (best = part), (bestSize = size);
    }
    if (best < 0) best = 0;
    const start = best ? ends[best - 1]! : 0;
    const end = ends[best]!;
    const lon = this.lon.array;
    const lat = this.lat.array;
    if (area) {
      let twiceArea = 0;
      let x = 0;
      let y = 0;
      for (let index = start; index + 1 < end; index++) {
        const cross = lon[index]! * lat[index + 1]! - lon[index + 1]! * lat[index]!;
        twiceArea += cross;
        x += (lon[index]! + lon[index + 1]!) * cross;
        y += (lat[index]! + lat[index + 1]!) * cross;
      }
      if (Math.abs(twiceArea) > 1e-14) {
        this.repLon = x / (3 * twiceArea);
        this.repLat = y / (3 * twiceArea);
        return;
      }
    }
    const size = end - start;
    const middle = start + Math.floor(size / 2);
    if (size % 2 === 0 && size >= 2) {
      this.repLon = (lon[middle - 1]! + lon[middle]!) / 2;
      this.repLat = (lat[middle - 1]! + lat[middle]!) / 2;
    } else {
      this.repLon = lon[middle]!;
      this.repLat = lat[middle]!;
    }
  }

  /** Stages a point feature (a node, or the representative point of a way or relation). */
  addPoint(layer: number, sourceKind: number, osmId: number, lon: number, lat: number, tags: TagList, tagStart = 0, tagCount = tags.length): void {
    const stage = this.stages[layer]!;
    const x = fixed(lon);
    const y = fixed(lat);
    this.addRow(stage, GeometryKind.point, sourceKind, osmId, x, y, x, y, x, y, 1, tags, tagStart, tagCount);
    stage.pointCount.push(1);
    stage.inner.push(0);
    stage.pointLon.push(x);
    stage.pointLat.push(y);
  }

  /**
   * Stages a line or polygon feature from the staged geometry. Its point is
   * `point` (given by the source) or the representative point.
   */
  addShape(layer: number, geometry: number, sourceKind: number, osmId: number, tags: TagList, tagStart = 0, tagCount = tags.length, point?: readonly [number, number]): void {
    const stage = this.stages[layer]!;
    const count = this.lon.length;
    const lon = this.lon.array;
    const lat = this.lat.array;
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let index = 0; index < count; index++) {
      west = Math.min(west, lon[index]!);
      east = Math.max(east, lon[index]!);
      south = Math.min(south, lat[index]!);
      north = Math.max(north, lat[index]!);
    }
    if (point) (this.repLon = point[0]), (this.repLat = point[1]);
    else this.representative(geometry === GeometryKind.polygon);
    const parts = this.partEnd.length;
    this.addRow(stage, geometry, sourceKind, osmId, fixed(this.repLon), fixed(this.repLat), fixed(west), fixed(south), fixed(east), fixed(north), parts, tags, tagStart, tagCount);
    for (let part = 0; part < parts; part++) {
      stage.pointCount.push(this.partEnd.array[part]! - (part ? this.partEnd.array[part - 1]! : 0));
      stage.inner.push(this.partInner.array[part]!);
    }
    const pointLat = stage.pointLat.reserve(count);
    const pointLon = stage.pointLon.reserve(count);
    const latAt = stage.pointLat.end;
    const lonAt = stage.pointLon.end;
    for (let index = 0; index < count; index++) {
      pointLat[latAt + index] = fixed(lat[index]!);
      pointLon[lonAt + index] = fixed(lon[index]!);
    }
    stage.pointLat.advance(count);
    stage.pointLon.advance(count);
  }

  private addRow(
    stage: LayerStage,
    geometry: number,
    sourceKind: number,
    osmId: number,
    lon: number,
    lat: number,
    west: number,
    south: number,
    east: number,
    north: number,
    parts: number,
    tags: TagList,
    tagStart: number,
    tagCount: number,
  ): void {
    stage.geometry.push(geometry);
    stage.sourceKind.push(sourceKind);
    stage.osmId.push(osmId);
    stage.lon.push(lon);
    stage.lat.push(lat);
    stage.minLon.push(west);
    stage.minLat.push(south);
    stage.maxLon.push(east);
    stage.maxLat.push(north);
    stage.partCount.push(parts);
    stage.tagCount.push(tagCount);
    for (let tag = tagStart; tag < tagStart + tagCount; tag++) {
      stage.tagKey.push(tags.key.array[tag]!);
      stage.tagValue.push(tags.value.array[tag]!);
    }
    if (sourceKind !== SourceKind.external) {
      const bounds = stage.osmBounds;
      bounds[0] = Math.min(bounds[0], west);
      bounds[1] = Math.min(bounds[1], south);
      bounds[2] = Math.max(bounds[2], east);
      bounds[3] = Math.max(bounds[3], north);
    }
  }

  /**
   * The pack's feature sections from the staged layers, with the staged tag
   * strings given their pack string ids in pack order. The stage is spent
   * afterwards (its columns become the sections).
   */
  build(strings: StringTableBuilder, unclosedRelations: number): BuiltFeatures {
    const stages = this.stages as LayerStage[];
    this.stages = [];
    return assembleFeatureSections(stages, this.strings.values, strings, unclosedRelations);
  }
}
