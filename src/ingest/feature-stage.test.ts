import { describe, expect, it } from 'vitest';
import { COORDINATE_SCALE, FEATURE_LAYERS, GeometryKind, SourceKind } from '../datapack/pack-layout.js';
import { FeatureStage } from './feature-stage.js';
import { newTags } from './osm/osm-visitor.js';
import { StringTableBuilder } from './string-table-builder.js';

const layer = (name: (typeof FEATURE_LAYERS)[number]) => FEATURE_LAYERS.indexOf(name);
const fixed = (degrees: number) => Math.round(degrees * COORDINATE_SCALE);
const tags = (entries: Record<string, string>) => Object.assign(newTags(), entries);

/** Stages one closed ring (or a line) as the only part. */
function stageRing(stage: FeatureStage, points: [number, number][]): void {
  stage.clearGeometry();
  for (const [lon, lat] of points) stage.lon.push(lon), stage.lat.push(lat);
  stage.endPart(false);
}

describe('FeatureStage', () => {
  it('stores features sorted by layer, in staging order within a layer, with their parts, points and ranges', () => {
    const stage = new FeatureStage();
    const strings = new StringTableBuilder();
    stage.addPoint(layer('poi'), SourceKind.node, 10, 31.3, 30.1, stage.stageKeptTags(tags({ amenity: 'cafe', name: 'A' })));
    stageRing(stage, [[31, 30], [31.001, 30], [31.001, 30.001], [31, 30.001], [31, 30]]);
    stage.addShape(layer('building'), GeometryKind.polygon, SourceKind.way, 20, stage.stageKeptTags(tags({ building: 'yes', source: 'survey' })));
    stage.addPoint(layer('place'), SourceKind.node, 30, 31.5, 30.5, stage.stageKeptTags(tags({ place: 'suburb', name: 'B' })));
    stage.addPoint(layer('poi'), SourceKind.node, 40, 31.4, 30.2, stage.stageKeptTags(tags({ shop: 'bakery', name: 'C' })));
    const { sections, layers } = stage.build(strings, 0);
    // a section is one array or chunks (one per layer) written one after the other
    const column = (name: keyof typeof sections) => {
      const section = sections[name];
      return ArrayBuffer.isView(section) ? Array.from(section) : section.flatMap((chunk) => Array.from(chunk));
    };
    const arrays = {
      osmId: column('features.osmId'),
      layer: column('features.layer'),
      lat: column('features.lat'),
      lon: column('features.lon'),
      minLat: column('features.minLat'),
      minLon: column('features.minLon'),
      maxLat: column('features.maxLat'),
      maxLon: column('features.maxLon'),
      partStart: column('features.partStart'),
      partCount: column('features.partCount'),
      tagStart: column('features.tagStart'),
      tagCount: column('features.tagCount'),
      pointStart: column('parts.pointStart'),
      pointCount: column('parts.pointCount'),
      pointLon: column('points.lon'),
      tagKey: column('tags.key'),
      tagValue: column('tags.value'),
    };

    expect(Array.from(arrays.osmId)).toEqual([30, 20, 10, 40]);
    expect(Array.from(arrays.layer)).toEqual([layer('place'), layer('building'), layer('poi'), layer('poi')]);
    expect(layers.place).toEqual([0, 1]);
    expect(layers.building).toEqual([1, 1]);
    expect(layers.poi).toEqual([2, 2]);
    expect(layers.water).toEqual([4, 0]);
    // the building: one part of five points, bbox and centroid in fixed point
    expect(arrays.partCount[1]).toBe(1);
    const part = arrays.partStart[1]!;
    expect(arrays.pointCount[part]).toBe(5);
    expect(arrays.pointLon.slice(arrays.pointStart[part]!, arrays.pointStart[part]! + 5)).toEqual([31, 31.001, 31.001, 31, 31].map(fixed));
    expect([arrays.minLon[1], arrays.minLat[1], arrays.maxLon[1], arrays.maxLat[1]]).toEqual([fixed(31), fixed(30), fixed(31.001), fixed(30.001)]);
    // (the shoelace formula at 31°E on a 100 m square is good to about a metre)
    expect(Math.abs(arrays.lon[1]! - fixed(31.0005))).toBeLessThanOrEqual(100);
    expect(Math.abs(arrays.lat[1]! - fixed(30.0005))).toBeLessThanOrEqual(100);
    // tags: edit metadata (source) dropped; pack string ids given in pack order (the place's strings first)
    const text = (feature: number) => {
      const start = arrays.tagStart[feature]!;
      return Array.from({ length: arrays.tagCount[feature]! }, (_, index) => [arrays.tagKey[start + index]!, arrays.tagValue[start + index]!]);
    };
    expect(text(0)).toEqual([[strings.id('place'), strings.id('suburb')], [strings.id('name'), strings.id('B')]]);
    expect(strings.id('place')).toBe(1);
    expect(text(1)).toEqual([[strings.id('building'), strings.id('yes')]]);
  });

  it('takes a line’s middle and an area’s centroid of its largest outer ring as the representative point', () => {
    const stage = new FeatureStage();
    stageRing(stage, [[0, 0], [2, 0], [4, 2]]);
    stage.representative(false);
    expect([stage.repLon, stage.repLat]).toEqual([2, 0]);
    stageRing(stage, [[0, 0], [2, 0], [2, 2], [0, 2]]);
    stage.representative(false);
    expect([stage.repLon, stage.repLat]).toEqual([2, 1]);

    stage.clearGeometry();
    for (const [lon, lat] of [[0, 0], [1, 0], [1, 1], [0, 0]]) stage.lon.push(lon!), stage.lat.push(lat!);
    stage.endPart(false);
    for (const [lon, lat] of [[10, 10], [14, 10], [14, 14], [10, 14], [10, 10]]) stage.lon.push(lon!), stage.lat.push(lat!);
    stage.endPart(false);
    for (const [lon, lat] of [[11, 11], [12, 11], [12, 12], [11, 12], [11, 12], [11, 11]]) stage.lon.push(lon!), stage.lat.push(lat!);
    stage.endPart(true);
    stage.representative(true);
    expect([stage.repLon, stage.repLat]).toEqual([12, 12]);
  });
});
