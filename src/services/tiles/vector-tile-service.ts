/**
 * Vector tiles of the loaded map pack: encoded in the solver pool (src/solvers/tiles/), each tile
 * compressed once there (Brotli and gzip), the results kept in a cache bounded in bytes. Concurrent
 * requests for a tile no worker has answered yet share one task.
 */
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../shared/errors.js';
import { abandonOnAbort, type SolverPool } from '../../solvers/solver-pool.js';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM } from '../../solvers/tiles/tile-schema.js';
import type { VectorTileOutput } from '../../solvers/tiles/tile-tasks.js';
import { unlessClientLeft } from '../client-closed.js';

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** One cached tile: its bytes as encoded and compressed, and the opaque part of its ETag. */
export interface CachedTile {
  raw: Uint8Array;
  brotli: Uint8Array;
  gzip: Uint8Array;
  tag: string;
}

export interface VectorTileServiceOptions {
  /** The tiles' version token (tile-version.ts). */
  version: string;
  /** Most bytes (raw + Brotli + gzip) the tile cache holds. */
  cacheBytes: number;
}

/** The bytes a cached tile holds, plus a little for its key and entry. */
const ENTRY_OVERHEAD_BYTES = 128;

export class VectorTileService {
  private readonly cache: LRUCache<string, CachedTile>;
  private readonly pending = new Map<string, Promise<CachedTile>>();
  private encoded = 0;

  constructor(
    private readonly solvers: Pick<SolverPool, 'run'>,
    private readonly options: VectorTileServiceOptions,
  ) {
    this.cache = new LRUCache<string, CachedTile>({
      maxSize: options.cacheBytes,
      sizeCalculation: (tile) => tile.raw.byteLength + tile.brotli.byteLength + tile.gzip.byteLength + ENTRY_OVERHEAD_BYTES,
    });
  }

  get version(): string {
    return this.options.version;
  }

  /** Cache occupancy and how many tiles workers encoded (tests, the benchmark). */
  stats(): { entries: number; bytes: number; encoded: number } {
    return { entries: this.cache.size, bytes: this.cache.calculatedSize, encoded: this.encoded };
  }

  /** Refuses a tile address outside the tile pyramid (z 0–14, x and y within 0 .. 2^z − 1) with a 400 naming it. */
  static assertAddress({ z, x, y }: TileAddress): void {
    if (z < MIN_TILE_ZOOM || z > MAX_TILE_ZOOM) throw new ApiError('VALIDATION_ERROR', { message: `Tile zoom ${z} is outside ${MIN_TILE_ZOOM}–${MAX_TILE_ZOOM}` });
    const size = 2 ** z;
    if (x >= size || y >= size) throw new ApiError('VALIDATION_ERROR', { message: `Tile ${z}/${x}/${y} does not exist: x and y run 0–${size - 1} at zoom ${z}` });
  }

  /**
   * The tile when the cache holds it, else undefined: a lookup with no promise, so the edge can answer a cached tile
   * in the request's own turn (and make no AbortSignal for it). Refuses an address outside the pyramid like `tile`.
   */
  cachedTile(address: TileAddress, watermark: boolean): CachedTile | undefined {
    VectorTileService.assertAddress(address);
    return this.cache.get(tileKey(address, watermark));
  }

  /** The tile, from the cache or encoded by a worker; `watermark` for requests without an API key. */
  async tile(address: TileAddress, watermark: boolean, signal?: AbortSignal): Promise<CachedTile> {
    VectorTileService.assertAddress(address);
    const key = tileKey(address, watermark);
    const hit = this.cache.get(key);
    if (hit) return hit;
    let pending = this.pending.get(key);
    if (!pending) {
      // shared by every request for this tile until it lands in the cache: no caller's signal ends it
      pending = this.encode(address, watermark, key).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return await unlessClientLeft(signal ? abandonOnAbort(pending, signal) : pending, signal, 'vector tile');
  }

  private async encode(address: TileAddress, watermark: boolean, key: string): Promise<CachedTile> {
    const result = await this.solvers.run('vectorTile', { ...address, watermark });
    if (!result.ok) {
      if (result.code === 'tile_out_of_range') throw new ApiError('VALIDATION_ERROR', { message: `Tile ${address.z}/${address.x}/${address.y} is outside the tile pyramid` });
      throw new ApiError('SERVICE_UNAVAILABLE', { message: 'No map data is loaded, so there are no tiles' });
    }
    const tile = toCachedTile(result.value, `${this.options.version}-${key.replaceAll('/', '-')}`);
    this.encoded++;
    this.cache.set(key, tile);
    return tile;
  }
}

function tileKey(address: TileAddress, watermark: boolean): string {
  return `${address.z}/${address.x}/${address.y}${watermark ? '/w' : ''}`;
}

function toCachedTile(output: VectorTileOutput, tag: string): CachedTile {
  return { raw: output.raw, brotli: output.brotli, gzip: output.gzip, tag };
}
