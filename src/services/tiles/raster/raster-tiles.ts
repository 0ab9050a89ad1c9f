/**
 * `GET /tiles/raster/{source}/{z}/{x}/{y}.png` (part 2 §4.7 table):
 * - `standard`, `dark`: a neutral placeholder, flat background with decorative water, land and grid
 *   lines and no roads, `image/png`;
 * - `satellite`: `image/jpeg` whatever extension is asked, a placeholder saying no imagery is
 *   configured (the satellite style points at SATELLITE_TILE_URL when it is set);
 * - `svc-natural-earth`: Natural Earth land and water, `image/png`, or `image/webp` with `.webp`;
 * - `svc-watermark` (ours): the tile laid over every style fetched without an API key, a dark
 *   semi-transparent text asking for one.
 */
import { createHash } from 'node:crypto';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../../shared/errors.js';
import { fontFilePath, GLYPH_FONT_SOURCES } from '../glyphs/glyph-fonts.js';
import { TileAsset } from '../tile-asset.js';
import { NaturalEarthRenderer } from '../../../solvers/raster/natural-earth.js';
import type { SolverPool } from '../../../solvers/solver-pool.js';

export const RASTER_SOURCES = ['standard', 'dark', 'satellite', 'svc-natural-earth', 'svc-watermark'] as const;
export type RasterSource = (typeof RASTER_SOURCES)[number];
export type RasterExtension = 'png' | 'webp' | 'jpg' | 'jpeg';

/** Bumped when a drawing changes: the raster `?v=`. */
const RASTER_GENERATOR_VERSION = 1;
const TILE_PX = 256;
/** Placeholders exist at every zoom a map may ask for. */
export const PLACEHOLDER_MAX_ZOOM = 22;
const CACHE_BYTES = 24 * 1024 * 1024;
const TEXT_FAMILY = 'SvcRasterSans';

export const WATERMARK_TEXT = ['API key required', 'add x-api-key or ?api_key='];

/** `12`, `12.png`, `12.webp` … → the row and the extension asked (none → png). */
export function parseTileRow(segment: string): { y: number; extension: RasterExtension } | undefined {
  const match = /^(\d{1,8})(?:\.(png|webp|jpg|jpeg))?$/.exec(segment);
  if (!match) return undefined;
  return { y: Number(match[1]), extension: (match[2] as RasterExtension | undefined) ?? 'png' };
}

export class RasterTiles {
  readonly version = createHash('sha256').update(`raster ${RASTER_GENERATOR_VERSION} world-atlas 2.0.2`).digest('base64url').slice(0, 12);
  private readonly fixed = new Map<string, TileAsset>();
  private readonly rendered = new LRUCache<string, TileAsset>({ maxSize: CACHE_BYTES, sizeCalculation: (asset) => Math.max(1, asset.byteLength) });
  private readonly pending = new Map<string, Promise<TileAsset>>();
  private fontReady = false;

  /** `solvers`: Natural Earth tiles are drawn in the solver workers, never on the event loop. */
  constructor(private readonly solvers: Pick<SolverPool, 'run'>) {}

  /** The highest zoom a source serves. */
  maxZoom(source: RasterSource): number {
    return source === 'svc-natural-earth' ? NaturalEarthRenderer.MAX_ZOOM : PLACEHOLDER_MAX_ZOOM;
  }

  /** One tile; coordinates must already be inside the source's zoom range and the z grid. */
  async tile(source: RasterSource, z: number, x: number, y: number, extension: RasterExtension): Promise<TileAsset> {
    switch (source) {
      case 'standard':
      case 'dark':
        return this.once(source, () => new TileAsset(placeholder(source), 'image/png', false));
      case 'satellite':
        return this.once(source, () => new TileAsset(this.satellitePlaceholder(), 'image/jpeg', false));
      case 'svc-watermark':
        return this.once(source, () => new TileAsset(this.watermark(), 'image/png', false));
      case 'svc-natural-earth':
        return this.naturalEarth(z, x, y, extension === 'webp' ? 'webp' : 'png');
    }
  }

  private async naturalEarth(z: number, x: number, y: number, format: 'png' | 'webp'): Promise<TileAsset> {
    const key = `${z}/${x}/${y}.${format}`;
    const hit = this.rendered.get(key);
    if (hit) return hit;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.solvers
        .run('naturalEarthTile', { z, x, y, format })
        .then((result) => {
          if (!result.ok) throw new ApiError('NOT_FOUND', { message: `No tile ${z}/${x}/${y} in svc-natural-earth` });
          const bytes = result.value;
          const asset = new TileAsset(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), format === 'webp' ? 'image/webp' : 'image/png', false);
          this.rendered.set(key, asset);
          return asset;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private once(key: string, make: () => TileAsset): TileAsset {
    let asset = this.fixed.get(key);
    if (!asset) {
      asset = make();
      this.fixed.set(key, asset);
    }
    return asset;
  }

  private text(context: SKRSContext2D, sizePx: number, weight: 'normal' | 'bold'): void {
    if (!this.fontReady) {
      GlobalFonts.registerFromPath(fontFilePath(GLYPH_FONT_SOURCES[0]!), TEXT_FAMILY);
      this.fontReady = true;
    }
    context.font = `${weight} ${sizePx}px ${TEXT_FAMILY}`;
    context.textAlign = 'center';
    context.textBaseline = 'middle';
  }

  private satellitePlaceholder(): Buffer {
    const canvas = createCanvas(TILE_PX, TILE_PX);
    const context = canvas.getContext('2d');
    context.fillStyle = '#2f3a33';
    context.fillRect(0, 0, TILE_PX, TILE_PX);
    gridLines(context, 'rgba(255,255,255,0.07)');
    this.text(context, 13, 'normal');
    context.fillStyle = 'rgba(255,255,255,0.45)';
    context.fillText('no imagery configured', TILE_PX / 2, TILE_PX / 2);
    return canvas.toBuffer('image/jpeg', 80);
  }

  private watermark(): Buffer {
    const canvas = createCanvas(TILE_PX, TILE_PX);
    const context = canvas.getContext('2d');
    context.fillStyle = 'rgba(0,0,0,0.18)';
    context.fillRect(0, TILE_PX / 2 - 26, TILE_PX, 52);
    this.text(context, 15, 'bold');
    context.fillStyle = 'rgba(20,20,20,0.62)';
    context.fillText(WATERMARK_TEXT[0]!, TILE_PX / 2, TILE_PX / 2 - 10);
    this.text(context, 12, 'normal');
    context.fillText(WATERMARK_TEXT[1]!, TILE_PX / 2, TILE_PX / 2 + 11);
    return canvas.toBuffer('image/png');
  }
}

function gridLines(context: SKRSContext2D, color: string): void {
  context.strokeStyle = color;
  context.lineWidth = 1;
  context.beginPath();
  for (let at = 0.5; at < TILE_PX; at += 64) {
    context.moveTo(at, 0);
    context.lineTo(at, TILE_PX);
    context.moveTo(0, at);
    context.lineTo(TILE_PX, at);
  }
  context.stroke();
}

/** Flat background, a decorative shore and water band, a grid; no roads. */
function placeholder(source: 'standard' | 'dark'): Buffer {
  const colours =
    source === 'dark'
      ? { land: '#1d2126', water: '#132c3f', shore: '#21384a', grid: 'rgba(255,255,255,0.05)' }
      : { land: '#f3efe7', water: '#cfe0ec', shore: '#b7cfe0', grid: 'rgba(60,50,40,0.06)' };
  const canvas = createCanvas(TILE_PX, TILE_PX);
  const context = canvas.getContext('2d');
  context.fillStyle = colours.land;
  context.fillRect(0, 0, TILE_PX, TILE_PX);
  // the band enters and leaves at the same heights on opposite edges, so neighbouring tiles join
  context.beginPath();
  context.moveTo(0, 176);
  context.bezierCurveTo(80, 140, 170, 230, TILE_PX, 176);
  context.lineTo(TILE_PX, 216);
  context.bezierCurveTo(170, 270, 80, 180, 0, 216);
  context.closePath();
  context.fillStyle = colours.water;
  context.fill();
  context.strokeStyle = colours.shore;
  context.lineWidth = 1.5;
  context.stroke();
  gridLines(context, colours.grid);
  return canvas.toBuffer('image/png');
}
