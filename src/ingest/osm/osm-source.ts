/** Opens an OSM file of any supported format, chosen by its first bytes rather than its name. */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { IngestError } from '../ingest-error.js';
import type { OsmPassKinds, OsmVisitor } from './osm-visitor.js';
import { PbfReader, type ProgressCallback } from './pbf-reader.js';
import { XmlReader } from './xml-reader.js';

export type OsmFormat = 'pbf' | 'xml' | 'xml.gz';

export interface OsmSource {
  readonly path: string;
  readonly format: OsmFormat;
  readonly size: number;
  scan(visitor: OsmVisitor, kinds: OsmPassKinds, onProgress?: ProgressCallback): Promise<number>;
  close(): void;
}

export function detectOsmFormat(path: string): OsmFormat {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new IngestError('file_not_found', `${path}: no such file`);
  }
  if (!stat.isFile()) throw new IngestError('file_not_found', `${path}: not a regular file`);
  if (stat.size === 0) throw new IngestError('not_osm', `${path}: the file is empty`);
  const head = Buffer.alloc(Math.min(64, stat.size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'xml.gz';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<')) return 'xml';
  if (head.length >= 4 && head.readUInt32BE(0) < 64 * 1024 && head.includes('OSMHeader')) return 'pbf';
  throw new IngestError('not_osm', `${path}: not an OSM file (expected OSM PBF, OSM XML or gzip-compressed OSM XML)`);
}

export function openOsmSource(path: string): OsmSource {
  const format = detectOsmFormat(path);
  const reader = format === 'pbf' ? new PbfReader(path) : new XmlReader(path, format === 'xml.gz');
  return {
    path,
    format,
    size: reader.size,
    scan: (visitor, kinds, onProgress) => reader.scan(visitor, kinds, onProgress),
    close: () => reader.close(),
  };
}
