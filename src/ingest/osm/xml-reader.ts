/**
 * A streaming OSM XML reader (plain or gzip-compressed) on the `saxes` SAX
 * parser: memory holds one element at a time, whatever the file size.
 * Format: https://wiki.openstreetmap.org/wiki/OSM_XML
 */
import { createReadStream, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { IngestError } from '../ingest-error.js';
import { MemberType, newTags, type OsmMember, type OsmPassKinds, type OsmTags, type OsmVisitor } from './osm-visitor.js';
import type { ProgressCallback } from './pbf-reader.js';

const memberTypes: Record<string, MemberType> = { node: MemberType.Node, way: MemberType.Way, relation: MemberType.Relation };

export class XmlReader {
  readonly size: number;

  constructor(
    readonly path: string,
    private readonly gzip: boolean,
  ) {
    this.size = statSync(path).size;
  }

  close(): void {}

  async scan(visitor: OsmVisitor, kinds: OsmPassKinds, onProgress?: ProgressCallback): Promise<number> {
    const file = createReadStream(this.path, { highWaterMark: 256 * 1024 });
    const text = this.gzip ? file.pipe(createGunzip()) : file;
    if (this.gzip) file.on('error', (error) => text.destroy(error));
    text.setEncoding('utf8');

    const parser = new SaxesParser({ xmlns: false, position: false });
    let entities = 0;
    let sawRoot = false;
    let kind: 'node' | 'way' | 'relation' | undefined;
    let id = 0;
    let lat = 0;
    let lon = 0;
    let tags: OsmTags | null = null;
    let refs: number[] = [];
    let members: OsmMember[] = [];
    let depth = 0;

    const attribute = (tag: SaxesTagPlain, name: string): string => {
      const value = tag.attributes[name];
      if (value === undefined) throw new IngestError('corrupt', `${this.path}: <${tag.name}> without the "${name}" attribute`);
      return value;
    };

    parser.on('opentag', (tag) => {
      depth++;
      if (depth === 1) {
        if (tag.name !== 'osm') throw new IngestError('not_osm', `${this.path}: not an OSM XML file (root element <${tag.name}>, expected <osm>)`);
        sawRoot = true;
        return;
      }
      switch (tag.name) {
        case 'node':
        case 'way':
        case 'relation':
          kind = tag.name;
          id = Number(attribute(tag, 'id'));
          tags = null;
          if (kind === 'node' && kinds.nodes) {
            lat = Number(attribute(tag, 'lat'));
            lon = Number(attribute(tag, 'lon'));
          } else if (kind === 'way') refs = [];
          else if (kind === 'relation') members = [];
          break;
        case 'tag':
          if (kind) (tags ??= newTags())[attribute(tag, 'k')] = tag.attributes.v ?? '';
          break;
        case 'nd':
          if (kind === 'way' && kinds.ways) refs.push(Number(attribute(tag, 'ref')));
          break;
        case 'member':
          if (kind === 'relation' && kinds.relations) {
            const type = memberTypes[tag.attributes.type ?? ''];
            if (type !== undefined) members.push({ type, ref: Number(attribute(tag, 'ref')), role: tag.attributes.role ?? '' });
          }
          break;
      }
    });
    parser.on('closetag', (tag) => {
      depth--;
      if (tag.name !== kind) return;
      entities++;
      if (kind === 'node') {
        if (kinds.nodes) visitor.node!(id, lat, lon, tags);
      } else if (kind === 'way') {
        if (kinds.ways) visitor.way!(id, Float64Array.from(refs), tags ?? newTags());
      } else if (kinds.relations) visitor.relation!(id, members, tags ?? newTags());
      kind = undefined;
    });

    try {
      for await (const chunk of text) {
        parser.write(chunk as string);
        onProgress?.(file.bytesRead, this.size, entities);
      }
      parser.close();
    } catch (error) {
      throw this.explain(error, sawRoot);
    } finally {
      file.destroy();
    }
    if (!sawRoot) throw new IngestError('not_osm', `${this.path}: not an OSM XML file (no <osm> element)`);
    onProgress?.(this.size, this.size, entities);
    return entities;
  }

  private explain(error: unknown, sawRoot: boolean): IngestError {
    if (error instanceof IngestError) return error;
    const message = (error as Error).message ?? String(error);
    if ((error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(message)) {
      return new IngestError('truncated', `${this.path}: the compressed file is truncated (${message})`);
    }
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
      return new IngestError('corrupt', `${this.path}: the gzip data is corrupt (${message})`);
    }
    if (sawRoot && /unclosed|not closed|end of/i.test(message)) {
      return new IngestError('truncated', `${this.path}: the XML ends before </osm> (truncated file?): ${message}`);
    }
    return new IngestError(sawRoot ? 'corrupt' : 'not_osm', `${this.path}: ${sawRoot ? 'malformed' : 'not an OSM'} XML file: ${message}`);
  }
}
