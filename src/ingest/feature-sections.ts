/**
 * The pack's feature, part, point and tag sections from the per-layer staging
 * columns (feature-stage.ts). The pack stores features sorted by layer, which
 * is the layers one after the other: each staged column becomes a list of
 * list of chunks, the chunks of every non-empty layer's column, that the pack writer writes in order,
 * instead of a concatenated copy (Monaco: 3.2 MiB less at the ingest's peak).
 * Only what depends on the position in the whole pack is computed here: the
 * layer column, the start indexes, and the tags' pack string ids (given in
 * place, layer by layer, so the string table keeps its pack order).
 */
import { FEATURE_LAYERS, type PackSectionChunks } from '../datapack/pack-layout.js';
import type { ChunkedColumn } from './chunked-column.js';
import type { LayerStage } from './feature-stage.js';
import type { StringTableBuilder } from './string-table-builder.js';

type FeatureSectionName = Extract<keyof PackSectionChunks, `features.${string}` | `parts.${string}` | `points.${string}` | `tags.${string}`>;

export interface BuiltFeatures {
  sections: Pick<PackSectionChunks, FeatureSectionName>;
  count: number;
  /** The bounds of the OSM features (not external admin areas), fixed point [west, south, east, north], or null. */
  osmBounds: [number, number, number, number] | null;
  layers: Record<string, [number, number]>;
  unclosedRelations: number;
}

export function assembleFeatureSections(stages: (LayerStage | undefined)[], stagedStrings: readonly string[], strings: StringTableBuilder, unclosedRelations: number): BuiltFeatures {
  let count = 0;
  let partTotal = 0;
  for (const stage of stages) {
    count += stage!.count;
    partTotal += stage!.pointCount.length;
  }
  const layerColumn = new Uint8Array(count);
  const partStart = new Uint32Array(count);
  const tagStart = new Uint32Array(count);
  const pointStart = new Uint32Array(partTotal);
  const chunks = {
    geometry: [] as Uint8Array[],
    sourceKind: [] as Uint8Array[],
    osmId: [] as Float64Array[],
    lat: [] as Int32Array[],
    lon: [] as Int32Array[],
    minLat: [] as Int32Array[],
    minLon: [] as Int32Array[],
    maxLat: [] as Int32Array[],
    maxLon: [] as Int32Array[],
    partCount: [] as Uint32Array[],
    tagCount: [] as Uint32Array[],
    pointCount: [] as Uint32Array[],
    inner: [] as Uint8Array[],
    pointLat: [] as Int32Array[],
    pointLon: [] as Int32Array[],
    tagKey: [] as Uint32Array[],
    tagValue: [] as Uint32Array[],
  };
  const packId = new Int32Array(stagedStrings.length).fill(-1);
  const stringId = (staged: number): number => {
    let id = packId[staged]!;
    if (id < 0) packId[staged] = id = strings.id(stagedStrings[staged]);
    return id;
  };
  const bounds = [Infinity, Infinity, -Infinity, -Infinity] as [number, number, number, number];
  const layers: Record<string, [number, number]> = {};
  let feature = 0;
  let part = 0;
  let point = 0;
  let tag = 0;
  for (let layer = 0; layer < stages.length; layer++) {
    const stage = stages[layer]!;
    stages[layer] = undefined; // its columns live on as chunks only
    const size = stage.count;
    if (!size) continue;
    layers[FEATURE_LAYERS[layer]!] = [feature, size];
    layerColumn.fill(layer, feature, feature + size);
    let index = feature;
    for (const counts of stage.partCount.chunks()) {
      for (const value of counts) (partStart[index++] = part), (part += value);
    }
    index = feature;
    for (const counts of stage.tagCount.chunks()) {
      for (const value of counts) (tagStart[index++] = tag), (tag += value);
    }
    index = part - stage.pointCount.length;
    for (const counts of stage.pointCount.chunks()) {
      for (const value of counts) (pointStart[index++] = point), (point += value);
    }
    const [west, south, east, north] = stage.osmBounds;
    bounds[0] = Math.min(bounds[0], west);
    bounds[1] = Math.min(bounds[1], south);
    bounds[2] = Math.max(bounds[2], east);
    bounds[3] = Math.max(bounds[3], north);
    // key, value, key, value: the order the string table numbers them in. Both columns grow in step, so their chunks pair up
    const valueChunks = stage.tagValue.chunks();
    stage.tagKey.chunks().forEach((keys, chunk) => {
      const values = valueChunks[chunk]!;
      if (values.length !== keys.length) throw new Error('tag key and value columns out of step');
      for (let at = 0; at < keys.length; at++) {
        keys[at] = stringId(keys[at]!);
        values[at] = stringId(values[at]!);
      }
    });
    const add = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(list: T[], column: ChunkedColumn<T>) => list.push(...column.chunks());
    add(chunks.geometry, stage.geometry);
    add(chunks.sourceKind, stage.sourceKind);
    add(chunks.osmId, stage.osmId);
    add(chunks.lat, stage.lat);
    add(chunks.lon, stage.lon);
    add(chunks.minLat, stage.minLat);
    add(chunks.minLon, stage.minLon);
    add(chunks.maxLat, stage.maxLat);
    add(chunks.maxLon, stage.maxLon);
    add(chunks.partCount, stage.partCount);
    add(chunks.tagCount, stage.tagCount);
    add(chunks.pointCount, stage.pointCount);
    add(chunks.inner, stage.inner);
    add(chunks.pointLat, stage.pointLat);
    add(chunks.pointLon, stage.pointLon);
    add(chunks.tagKey, stage.tagKey);
    add(chunks.tagValue, stage.tagValue);
    feature += size;
  }
  for (const layer of FEATURE_LAYERS) layers[layer] ??= [count, 0];
  return {
    sections: {
      'features.layer': layerColumn,
      'features.geometry': chunks.geometry,
      'features.sourceKind': chunks.sourceKind,
      'features.osmId': chunks.osmId,
      'features.lat': chunks.lat,
      'features.lon': chunks.lon,
      'features.minLat': chunks.minLat,
      'features.minLon': chunks.minLon,
      'features.maxLat': chunks.maxLat,
      'features.maxLon': chunks.maxLon,
      'features.partStart': partStart,
      'features.partCount': chunks.partCount,
      'features.tagStart': tagStart,
      'features.tagCount': chunks.tagCount,
      'parts.pointStart': pointStart,
      'parts.pointCount': chunks.pointCount,
      'parts.inner': chunks.inner,
      'points.lat': chunks.pointLat,
      'points.lon': chunks.pointLon,
      'tags.key': chunks.tagKey,
      'tags.value': chunks.tagValue,
    },
    count,
    osmBounds: Number.isFinite(bounds[0]) ? bounds : null,
    layers,
    unclosedRelations,
  };
}
