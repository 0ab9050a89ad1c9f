/** Writing and reading the pack file (layout in pack-layout.ts and docs/data-pack.md). */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PackError } from './pack-error.js';
import { BufferedFileWriter } from './buffered-file-writer.js';
import {
  PACK_FORMAT_VERSION,
  PACK_MAGIC,
  PACK_SECTIONS,
  SECTION_CONSTRUCTORS,
  type PackHeader,
  type PackSectionChunks,
  type PackSections,
  type SectionName,
  type SectionType,
} from './pack-layout.js';

const PREAMBLE_BYTES = 16;
/** What `npm run ingest` names its packs (`<extract>.svcpack`). */
export const PACK_FILE_EXTENSION = '.svcpack';
const align8 = (value: number) => (value + 7) & ~7;

/**
 * Writes the pack to a temporary file beside `path` and renames it into place,
 * so a reader (or a crash) never sees half a pack. A section given as chunks is
 * written chunk after chunk: the same bytes as their concatenation.
 */
export function writePackFile(path: string, header: Omit<PackHeader, 'sections'>, sections: PackSections | PackSectionChunks): number {
  const directory: PackHeader['sections'] = [];
  const chunksOf = new Map<SectionName, readonly ArrayBufferView[]>();
  let offset = 0;
  for (const [name, type] of Object.entries(PACK_SECTIONS) as [SectionName, SectionType][]) {
    const section = sections[name];
    const chunks: readonly ArrayBufferView[] = ArrayBuffer.isView(section) ? [section] : section;
    let length = 0;
    let byteLength = 0;
    for (const chunk of chunks) {
      if (!(chunk instanceof SECTION_CONSTRUCTORS[type])) throw new Error(`pack section ${name} must be a ${type} array`);
      length += chunk.length;
      byteLength += chunk.byteLength;
    }
    chunksOf.set(name, chunks);
    directory.push({ name, type, offset, length });
    offset = align8(offset + byteLength);
  }
  const headerBytes = Buffer.from(JSON.stringify({ ...header, sections: directory }), 'utf8');
  const dataStart = align8(PREAMBLE_BYTES + headerBytes.length);
  const preamble = Buffer.alloc(dataStart);
  preamble.write(PACK_MAGIC, 0, 'latin1');
  preamble.writeUInt32LE(PACK_FORMAT_VERSION, 8);
  preamble.writeUInt32LE(headerBytes.length, 12);
  headerBytes.copy(preamble, PREAMBLE_BYTES);

  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.partial`);
  const fd = openSync(temporary, 'w');
  try {
    const writer = new BufferedFileWriter(fd);
    writer.writeAt(0, preamble);
    for (const entry of directory) {
      let position = dataStart + entry.offset;
      for (const chunk of chunksOf.get(entry.name as SectionName)!) {
        const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        writer.writeAt(position, bytes);
        position += bytes.length;
      }
    }
    const end = dataStart + offset;
    writer.writeAt(end, new Uint8Array(0)); // the last section's padding
    writer.flush();
    closeSync(fd);
    renameSync(temporary, path);
    return end;
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Reads the header only (cheap): used to decide whether a cached pack is current. */
export function readPackHeader(path: string): PackHeader {
  const fd = openPack(path);
  try {
    const preamble = Buffer.alloc(PREAMBLE_BYTES);
    readSync(fd, preamble, 0, PREAMBLE_BYTES, 0);
    const headerLength = checkPreamble(path, preamble, fstatSync(fd).size);
    const headerBytes = Buffer.alloc(headerLength);
    readSync(fd, headerBytes, 0, headerLength, PREAMBLE_BYTES);
    return parseHeader(path, headerBytes);
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole pack into one SharedArrayBuffer (shareable with worker threads as is). */
export function readPackBuffer(path: string): SharedArrayBuffer {
  const fd = openPack(path);
  try {
    const size = fstatSync(fd).size;
    const shared = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(shared);
    let done = 0;
    while (done < size) {
      const read = readSync(fd, bytes, done, size - done, done);
      if (read === 0) break;
      done += read;
    }
    return shared;
  } finally {
    closeSync(fd);
  }
}

/** Interprets a pack held in memory: validates the preamble and directory, returns typed views. */
export function viewPack(buffer: SharedArrayBuffer | ArrayBuffer, label = 'pack'): { header: PackHeader; sections: PackSections } {
  const bytes = new Uint8Array(buffer);
  const headerLength = checkPreamble(label, Buffer.from(bytes.buffer, 0, Math.min(PREAMBLE_BYTES, bytes.length)), bytes.length);
  const header = parseHeader(label, Buffer.from(bytes.buffer, PREAMBLE_BYTES, headerLength));
  const dataStart = align8(PREAMBLE_BYTES + headerLength);
  const sections = {} as Record<string, unknown>;
  const byName = new Map(header.sections.map((entry) => [entry.name, entry]));
  for (const [name, type] of Object.entries(PACK_SECTIONS) as [SectionName, SectionType][]) {
    const entry = byName.get(name);
    if (!entry || entry.type !== type) throw new PackError('invalid_pack', `${label}: section ${name} is missing or has the wrong type`);
    const Constructor = SECTION_CONSTRUCTORS[type];
    const start = dataStart + entry.offset;
    if (start % 8 !== 0 || start + entry.length * Constructor.BYTES_PER_ELEMENT > bytes.length) {
      throw new PackError('invalid_pack', `${label}: section ${name} lies outside the file (truncated pack?)`);
    }
    sections[name] = new Constructor(buffer as ArrayBuffer, start, entry.length);
  }
  return { header, sections: sections as PackSections };
}

/**
 * The pack a user means by `path`: the path itself, or the one pack in it when
 * it is a directory (`--stats data/packs` after one ingest). A directory with
 * no pack or several is refused with the packs it holds.
 */
export function resolvePackPath(path: string): string {
  let isDirectory;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new PackError('file_not_found', `${path}: no such data pack`);
  }
  if (!isDirectory) return path;
  const packs = readdirSync(path).filter((name) => name.endsWith(PACK_FILE_EXTENSION)).sort();
  if (packs.length === 1) return join(path, packs[0]!);
  if (packs.length === 0) throw new PackError('file_not_found', `${path}: a directory with no data pack (*${PACK_FILE_EXTENSION}) in it`);
  throw new PackError('invalid_argument', `${path}: a directory with ${packs.length} data packs (${packs.join(', ')}); give one of them`);
}

function openPack(path: string): number {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new PackError('file_not_found', `${path}: no such data pack`);
  }
  // Linux opens a directory for reading; the first read would fail with a raw EISDIR
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new PackError('invalid_pack', `${path}: a directory, not a data pack`);
  }
  return fd;
}

function checkPreamble(label: string, preamble: Buffer, size: number): number {
  if (size < PREAMBLE_BYTES || preamble.toString('latin1', 0, 8) !== PACK_MAGIC) {
    throw new PackError('invalid_pack', `${label}: not a map data pack (run \`npm run ingest -- <file.osm.pbf>\` to build one)`);
  }
  const version = preamble.readUInt32LE(8);
  if (version !== PACK_FORMAT_VERSION) {
    throw new PackError('invalid_pack', `${label}: pack format version ${version}, this build reads version ${PACK_FORMAT_VERSION}; rebuild it with npm run ingest`);
  }
  const headerLength = preamble.readUInt32LE(12);
  if (PREAMBLE_BYTES + headerLength > size) throw new PackError('invalid_pack', `${label}: the pack is truncated`);
  return headerLength;
}

function parseHeader(label: string, bytes: Buffer): PackHeader {
  try {
    const header = JSON.parse(bytes.toString('utf8')) as PackHeader;
    if (header.format !== 'svc-map-pack' || !Array.isArray(header.sections)) throw new Error('unexpected header');
    return header;
  } catch {
    throw new PackError('invalid_pack', `${label}: the pack header is unreadable`);
  }
}
