/**
 * A loaded map data pack: typed views over one SharedArrayBuffer plus small
 * accessors. Constructing one from the buffer is cheap, so each worker thread
 * builds its own MapPack over the memory the main thread loaded.
 */
import { COORDINATE_SCALE, EdgeFlag, FEATURE_LAYERS, type FeatureLayer, type PackHeader, type PackSections } from './pack-layout.js';
import { readPackBuffer, viewPack } from './pack-file.js';
import { PackStrings } from './pack-strings.js';

export interface FeatureGeometry {
  kind: 'point' | 'line' | 'polygon';
  /** Rings or lines as [lon, lat] pairs; a point has one part with one position. */
  parts: { inner: boolean; coordinates: [number, number][] }[];
}

export class MapPack {
  readonly header: PackHeader;
  readonly sections: PackSections;
  readonly strings: PackStrings;

  constructor(
    readonly buffer: SharedArrayBuffer | ArrayBuffer,
    label?: string,
  ) {
    const { header, sections } = viewPack(buffer, label);
    this.header = header;
    this.sections = sections;
    this.strings = new PackStrings(sections);
  }

  static load(path: string): MapPack {
    return new MapPack(readPackBuffer(path), path);
  }

  get nodeCount(): number {
    return this.sections['graph.nodeLat'].length;
  }

  get edgeCount(): number {
    return this.sections['graph.edgeTarget'].length;
  }

  get featureCount(): number {
    return this.sections['features.layer'].length;
  }

  nodePosition(node: number): [number, number] {
    return [this.sections['graph.nodeLon'][node]! / COORDINATE_SCALE, this.sections['graph.nodeLat'][node]! / COORDINATE_SCALE];
  }

  /** The edge's shape as [lon, lat] pairs in travel direction. */
  edgeShape(edge: number): [number, number][] {
    const s = this.sections;
    const start = s['graph.edgeShapeStart'][edge]!;
    const count = s['graph.edgeShapeCount'][edge]!;
    const points: [number, number][] = [];
    for (let index = 0; index < count; index++) {
      points.push([s['graph.shapeLon'][start + index]! / COORDINATE_SCALE, s['graph.shapeLat'][start + index]! / COORDINATE_SCALE]);
    }
    return s['graph.edgeFlags'][edge]! & EdgeFlag.reversed ? points.reverse() : points;
  }

  /** Feature index range [start, end) of one layer. */
  layerRange(layer: FeatureLayer): [number, number] {
    const [start, count] = this.header.layers[layer] ?? [0, 0];
    return [start, start + count];
  }

  featureLayer(feature: number): FeatureLayer {
    return FEATURE_LAYERS[this.sections['features.layer'][feature]!]!;
  }

  featureTags(feature: number): Record<string, string> {
    const s = this.sections;
    const start = s['features.tagStart'][feature]!;
    const end = start + s['features.tagCount'][feature]!;
    const tags: Record<string, string> = {};
    for (let index = start; index < end; index++) tags[this.strings.get(s['tags.key'][index]!)] = this.strings.get(s['tags.value'][index]!);
    return tags;
  }

  featurePosition(feature: number): [number, number] {
    return [this.sections['features.lon'][feature]! / COORDINATE_SCALE, this.sections['features.lat'][feature]! / COORDINATE_SCALE];
  }

  featureGeometry(feature: number): FeatureGeometry {
    const s = this.sections;
    const kind = (['point', 'point', 'line', 'polygon'] as const)[s['features.geometry'][feature]!] ?? 'point';
    const parts: FeatureGeometry['parts'] = [];
    const first = s['features.partStart'][feature]!;
    const end = first + s['features.partCount'][feature]!;
    for (let part = first; part < end; part++) {
      const start = s['parts.pointStart'][part]!;
      const count = s['parts.pointCount'][part]!;
      const coordinates: [number, number][] = [];
      for (let index = start; index < start + count; index++) {
        coordinates.push([s['points.lon'][index]! / COORDINATE_SCALE, s['points.lat'][index]! / COORDINATE_SCALE]);
      }
      parts.push({ inner: s['parts.inner'][part] === 1, coordinates });
    }
    return { kind, parts };
  }

  /** Finds the features of a layer whose tags match (linear scan: for tests and inspection, not hot paths). */
  findFeatures(layer: FeatureLayer, predicate: (tags: Record<string, string>, feature: number) => boolean): number[] {
    const [start, end] = this.layerRange(layer);
    const found: number[] = [];
    for (let feature = start; feature < end; feature++) if (predicate(this.featureTags(feature), feature)) found.push(feature);
    return found;
  }
}
