/**
 * An OSM PBF encoder for tests and benchmarks, written field by field as the
 * format describes it (https://wiki.openstreetmap.org/wiki/PBF_Format) with the
 * `pbf` package's writer: what the ingest's reader decodes from it must be
 * what was encoded. Not product code: the product reads PBF, it never writes it.
 */
import { writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { PbfWriter } from 'pbf';

export interface PbfElement {
  id: number;
  tags: Record<string, string>;
}
export interface PbfNode extends PbfElement {
  /** In units of the block's granularity (nanodegrees / granularity), before its offset. */
  lat: number;
  lon: number;
}
export interface PbfWay extends PbfElement {
  refs: number[];
}
export interface PbfRelation extends PbfElement {
  members: { type: number; ref: number; role: string }[];
}
export interface PbfBlock {
  granularity: number;
  latOffset: number;
  lonOffset: number;
  nodes: PbfNode[];
  ways: PbfWay[];
  relations: PbfRelation[];
}

const deltas = (values: number[]) => values.map((value, index) => value - (index ? values[index - 1]! : 0));

/** The PrimitiveBlock message; `tableSize` cuts its string table (to make a corrupt block). */
export function encodeBlock(block: PbfBlock, tableSize = Infinity): Uint8Array {
  const strings = [''];
  const indexOf = new Map([['', 0]]);
  const index = (value: string) => {
    let found = indexOf.get(value);
    if (found === undefined) indexOf.set(value, (found = strings.push(value) - 1));
    return found;
  };
  const keysOf = (tags: Record<string, string>) => Object.keys(tags).map(index);
  const valsOf = (tags: Record<string, string>) => Object.values(tags).map(index);
  // the groups come before the string table they index (fields of a message may come in any order)
  const groups = new PbfWriter();
  if (block.nodes.length) {
    groups.writeMessage(2, (_: unknown, group: PbfWriter) => {
      group.writeMessage(2, (__: unknown, dense: PbfWriter) => {
        dense.writePackedSVarint(1, deltas(block.nodes.map((node) => node.id)));
        dense.writePackedSVarint(8, deltas(block.nodes.map((node) => node.lat)));
        dense.writePackedSVarint(9, deltas(block.nodes.map((node) => node.lon)));
        if (block.nodes.some((node) => Object.keys(node.tags).length)) {
          dense.writePackedVarint(10, block.nodes.flatMap((node) => [...Object.entries(node.tags).flatMap(([key, value]) => [index(key), index(value)]), 0]));
        }
      }, undefined);
    }, undefined);
  }
  /** One PrimitiveGroup of ways (field 3) or relations (4): id, keys, vals, then the element's own fields. */
  const writeElements = <T extends PbfElement>(field: number, elements: T[], writeOwnFields: (element: T, message: PbfWriter) => void) => {
    if (!elements.length) return;
    groups.writeMessage(2, (_: unknown, group: PbfWriter) => {
      for (const element of elements) {
        group.writeMessage(field, (__: unknown, message: PbfWriter) => {
          message.writeVarintField(1, element.id);
          message.writePackedVarint(2, keysOf(element.tags));
          message.writePackedVarint(3, valsOf(element.tags));
          writeOwnFields(element, message);
        }, undefined);
      }
    }, undefined);
  };
  writeElements(3, block.ways, (way, message) => message.writePackedSVarint(8, deltas(way.refs)));
  writeElements(4, block.relations, (relation, message) => {
    message.writePackedVarint(8, relation.members.map((member) => index(member.role)));
    message.writePackedSVarint(9, deltas(relation.members.map((member) => member.ref)));
    message.writePackedVarint(10, relation.members.map((member) => member.type));
  });
  groups.writeMessage(1, (_: unknown, table: PbfWriter) => strings.slice(0, tableSize).forEach((value) => table.writeStringField(1, value)), undefined);
  groups.writeVarintField(17, block.granularity);
  groups.writeVarintField(19, block.latOffset);
  groups.writeVarintField(20, block.lonOffset);
  return groups.finish();
}

/** A PBF file written block by block: the OSMHeader first, then OSMData blobs (zlib). */
export class PbfFileWriter {
  constructor(
    private readonly fd: number,
    options: { sorted: boolean },
  ) {
    const header = new PbfWriter();
    for (const feature of ['OsmSchema-V0.6', 'DenseNodes']) header.writeStringField(4, feature);
    if (options.sorted) header.writeStringField(5, 'Sort.Type_then_ID');
    header.writeStringField(16, 'svc-location-platform test/support');
    this.writeBlob('OSMHeader', header.finish());
  }

  writeBlock(block: PbfBlock): void {
    this.writeBlob('OSMData', encodeBlock(block));
  }

  private writeBlob(type: string, raw: Uint8Array): void {
    const blob = new PbfWriter();
    blob.writeVarintField(2, raw.length);
    blob.writeBytesField(3, deflateSync(raw));
    const blobBytes = blob.finish();
    const header = new PbfWriter();
    header.writeStringField(1, type);
    header.writeVarintField(3, blobBytes.length);
    const headerBytes = header.finish();
    const length = Buffer.alloc(4);
    length.writeUInt32BE(headerBytes.length);
    for (const part of [length, headerBytes, blobBytes]) writeSync(this.fd, part);
  }
}
