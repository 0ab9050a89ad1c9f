/**
 * What the ways pass keeps, in typed columns rather than an object per way:
 * the routable roads (their `ways.*` pack row, with string ids given in road
 * order, and what edges need) and the ways that become features (their layer
 * matches and tags as staging string ids).
 */
import { ALTERNATIVE_NAME_KEYS, FEATURE_LAYERS, GeometryKind, type FeatureLayer } from '../datapack/pack-layout.js';
import type { LayerMatch } from './feature-tags.js';
import type { StagingStrings, TagList } from './feature-stage.js';
import { GrowableArray } from './growable-array.js';
import type { OsmTags } from './osm/osm-visitor.js';
import { parseDurationSeconds, type RoadAttributes } from './road-tags.js';
import type { StringTableBuilder } from './string-table-builder.js';

/** The pack's `ways.*` columns: one row per routable way. */
export interface WayTable {
  osmId: Float64Array;
  class: Uint8Array;
  name: Uint32Array;
  nameAr: Uint32Array;
  nameEn: Uint32Array;
  ref: Uint32Array;
  altNames: Uint32Array;
  destination: Uint32Array;
  surface: Uint32Array;
  maxspeed: Uint8Array;
  lanesForward: Uint8Array;
  lanesBackward: Uint8Array;
  turnLanesForward: Uint32Array;
  turnLanesBackward: Uint32Array;
  maxWeight: Float32Array;
  maxHeight: Float32Array;
  maxWidth: Float32Array;
  maxLength: Float32Array;
}

/** The distinct values of a road's alternative-name tags joined by ';', or undefined when it has none. */
export function alternativeNames(tags: OsmTags): string | undefined {
  let joined: string[] | undefined;
  for (const key of ALTERNATIVE_NAME_KEYS) {
    const value = tags[key];
    if (value === undefined) continue;
    for (const part of value.split(';')) {
      const name = part.trim();
      if (name && !(joined ??= []).includes(name)) joined.push(name);
    }
  }
  return joined?.join(';');
}

export class KeptRoads {
  readonly osmId = new GrowableArray(Float64Array);
  readonly refStart = new GrowableArray(Uint32Array);
  readonly refCount = new GrowableArray(Uint32Array);
  private readonly classIndex = new GrowableArray(Uint8Array);
  private readonly name = new GrowableArray(Uint32Array);
  private readonly nameAr = new GrowableArray(Uint32Array);
  private readonly nameEn = new GrowableArray(Uint32Array);
  private readonly ref = new GrowableArray(Uint32Array);
  private readonly altNames = new GrowableArray(Uint32Array);
  private readonly destination = new GrowableArray(Uint32Array);
  private readonly surface = new GrowableArray(Uint32Array);
  private readonly maxspeed = new GrowableArray(Uint8Array);
  private readonly lanesForward = new GrowableArray(Uint8Array);
  private readonly lanesBackward = new GrowableArray(Uint8Array);
  private readonly turnLanesForward = new GrowableArray(Uint32Array);
  private readonly turnLanesBackward = new GrowableArray(Uint32Array);
  private readonly maxWeight = new GrowableArray(Float64Array);
  private readonly maxHeight = new GrowableArray(Float64Array);
  private readonly maxWidth = new GrowableArray(Float64Array);
  private readonly maxLength = new GrowableArray(Float64Array);
  /** Modes allowed along the way's direction and against it; car speed; edge flags. */
  readonly forward = new GrowableArray(Uint8Array);
  readonly backward = new GrowableArray(Uint8Array);
  readonly speed = new GrowableArray(Uint8Array);
  readonly flags = new GrowableArray(Uint32Array);
  /** A ferry's tagged crossing time in seconds (0 = none). */
  readonly ferrySeconds = new GrowableArray(Float64Array);
  truckTagged = 0;

  constructor(private readonly strings: StringTableBuilder) {}

  get count(): number {
    return this.osmId.length;
  }

  add(id: number, refStart: number, refCount: number, tags: OsmTags, road: RoadAttributes): void {
    const strings = this.strings;
    this.osmId.push(id);
    this.refStart.push(refStart);
    this.refCount.push(refCount);
    this.classIndex.push(road.classIndex);
    this.name.push(strings.id(tags.name));
    this.nameAr.push(strings.id(tags['name:ar']));
    this.nameEn.push(strings.id(tags['name:en']));
    this.ref.push(strings.id(tags.ref));
    this.altNames.push(strings.id(alternativeNames(tags)));
    this.destination.push(strings.id(tags.destination ?? tags['destination:ref']));
    this.surface.push(strings.id(tags.surface));
    this.maxspeed.push(road.maxspeed);
    this.lanesForward.push(road.lanesForward);
    this.lanesBackward.push(road.lanesBackward);
    this.turnLanesForward.push(strings.id(road.turnLanesForward));
    this.turnLanesBackward.push(strings.id(road.turnLanesBackward));
    this.maxWeight.push(road.maxWeight);
    this.maxHeight.push(road.maxHeight);
    this.maxWidth.push(road.maxWidth);
    this.maxLength.push(road.maxLength);
    this.forward.push(road.forward);
    this.backward.push(road.backward);
    this.speed.push(road.speed);
    this.flags.push(road.flags);
    this.ferrySeconds.push(road.class === 'ferry' ? parseDurationSeconds(tags.duration) : 0);
    if (road.truckTagged) this.truckTagged++;
  }

  table(): WayTable {
    return {
      osmId: this.osmId.toArray(),
      class: this.classIndex.toArray(),
      name: this.name.toArray(),
      nameAr: this.nameAr.toArray(),
      nameEn: this.nameEn.toArray(),
      ref: this.ref.toArray(),
      altNames: this.altNames.toArray(),
      destination: this.destination.toArray(),
      surface: this.surface.toArray(),
      maxspeed: this.maxspeed.toArray(),
      lanesForward: this.lanesForward.toArray(),
      lanesBackward: this.lanesBackward.toArray(),
      turnLanesForward: this.turnLanesForward.toArray(),
      turnLanesBackward: this.turnLanesBackward.toArray(),
      maxWeight: this.maxWeight.toArray(Float32Array),
      maxHeight: this.maxHeight.toArray(Float32Array),
      maxWidth: this.maxWidth.toArray(Float32Array),
      maxLength: this.maxLength.toArray(Float32Array),
    };
  }
}

/** A layer match as one byte: the layer index in the low bits, the GeometryKind above. */
export const MATCH_GEOMETRY_SHIFT = 4;
const LAYER_INDEX = Object.fromEntries(FEATURE_LAYERS.map((layer, index) => [layer, index])) as Record<FeatureLayer, number>;
const GEOMETRY_CODE = { point: GeometryKind.point, line: GeometryKind.line, polygon: GeometryKind.polygon } as const;

/** Ways that feed feature layers; their tags are ranges of `tags`. */
export class FeatureWays {
  readonly osmId = new GrowableArray(Float64Array);
  readonly refStart = new GrowableArray(Uint32Array);
  readonly refCount = new GrowableArray(Uint32Array);
  readonly matchStart = new GrowableArray(Uint32Array);
  readonly matchCount = new GrowableArray(Uint8Array);
  readonly matches = new GrowableArray(Uint8Array);
  readonly tagStart = new GrowableArray(Uint32Array);
  readonly tagCount = new GrowableArray(Uint32Array);

  constructor(
    readonly tags: TagList,
    private readonly strings: StagingStrings,
  ) {}

  get count(): number {
    return this.osmId.length;
  }

  add(id: number, refStart: number, refCount: number, layers: LayerMatch[], tags: OsmTags): void {
    this.osmId.push(id);
    this.refStart.push(refStart);
    this.refCount.push(refCount);
    this.matchStart.push(this.matches.length);
    this.matchCount.push(layers.length);
    for (const match of layers) this.matches.push(LAYER_INDEX[match.layer] | (GEOMETRY_CODE[match.geometry] << MATCH_GEOMETRY_SHIFT));
    this.tagStart.push(this.tags.length);
    this.tagCount.push(this.strings.stageKept(tags, this.tags));
  }
}
