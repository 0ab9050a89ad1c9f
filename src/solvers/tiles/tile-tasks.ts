/**
 * The vector tile task run in the solver pool: encode one tile and compress it once (Brotli and gzip),
 * so the main thread only caches and sends bytes. The tile source is built once per worker, on its
 * first tile, over the pack's shared memory.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type NoMapPack, type TaskFailure, type TaskResult } from '../task-result.js';
import { encodeTile, type EncodedTile, type TileRequest } from './tile-encoder.js';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM } from './tile-schema.js';
import { TileSource } from './tile-source.js';

/**
 * Brotli quality 5: measured on the default pack's z14 tiles it compresses within a few percent of
 * quality 11 in a tenth of the time (docs/benchmarks.md, tiles).
 */
const BROTLI_QUALITY = 5;

export interface VectorTileOutput {
  /** The tile as MVT protobuf, and the same bytes compressed. */
  raw: Uint8Array;
  brotli: Uint8Array;
  gzip: Uint8Array;
  counts: EncodedTile['counts'];
  /** Time spent cutting and encoding (not compressing), milliseconds. */
  encodeMs: number;
}

export type TileOutOfRange = TaskFailure<'tile_out_of_range'>;

let cached: { pack: MapPack; source: TileSource } | undefined;

/** The worker's tile source over this pack (built once; a new pack object builds a new one). */
export function tileSourceOf(pack: MapPack): TileSource {
  if (cached?.pack !== pack) cached = { pack, source: new TileSource(pack) };
  return cached.source;
}

export function vectorTileTask(pack: MapPack | undefined, input: TileRequest): TaskResult<VectorTileOutput, NoMapPack | TileOutOfRange> {
  if (!pack) return fail('no_map_pack');
  const { z, x, y } = input;
  if (!Number.isInteger(z) || z < MIN_TILE_ZOOM || z > MAX_TILE_ZOOM || !Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= 2 ** z || y >= 2 ** z) {
    return fail('tile_out_of_range');
  }
  const source = tileSourceOf(pack);
  const started = performance.now();
  const encoded = encodeTile(source, input);
  const encodeMs = performance.now() - started;
  const raw = encoded.bytes;
  return ok({
    raw,
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzip: gzipSync(raw, { level: 6 }),
    counts: encoded.counts,
    encodeMs,
  });
}

/** What the tiles cover: the bounds of everything the tile source holds. */
export function tileCoverageTask(pack: MapPack | undefined): TaskResult<{ bounds: [number, number, number, number] | undefined; items: number }, NoMapPack> {
  if (!pack) return fail('no_map_pack');
  const source = tileSourceOf(pack);
  return ok({ bounds: source.bounds, items: source.items.length });
}

/** Label text fields whose characters a renderer needs glyphs for. */
const LABEL_FIELDS = ['name', 'name:ar', 'name:en', 'housenumber', 'ref'] as const;

/**
 * The glyph ranges (256 code points each, as `start-end` strings) the labels of the tiles within
 * `bbox` need, always with 0-255 (digits, Latin letters). For offline manifests.
 */
export function regionGlyphRangesTask(pack: MapPack | undefined, input: { bbox: [number, number, number, number] }): TaskResult<{ ranges: string[] }, NoMapPack> {
  if (!pack) return fail('no_map_pack');
  const source = tileSourceOf(pack);
  const blocks = new Set<number>([0]);
  for (const id of source.search(...input.bbox)) {
    const properties = source.items[id]!.properties;
    for (const field of LABEL_FIELDS) {
      const value = properties[field];
      if (typeof value !== 'string') continue;
      for (const character of value) blocks.add(Math.floor(character.codePointAt(0)! / 256));
    }
  }
  return ok({ ranges: [...blocks].sort((a, b) => a - b).map((block) => `${block * 256}-${block * 256 + 255}`) });
}
