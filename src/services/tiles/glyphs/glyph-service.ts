/**
 * `GET /tiles/glyphs/svc/{fontstack}/{range}.pbf`: SDF glyph ranges, combined per font stack (each
 * character from the first font of the stack that has it), made on first request, kept on disk
 * under DATA_DIR/tiles/glyphs/<version>/ and in a byte-bounded memory cache.
 *
 * A range of 256 characters takes about 60 ms to draw per font; drawing yields to the event loop
 * every few glyphs so other requests are not held up, and concurrent requests for one range share
 * one drawing.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../../shared/logger.js';
import { TileAsset } from '../tile-asset.js';
import { fontFilePath, GLYPH_FONT_SOURCES, GlyphFont, glyphVersion, type GlyphFontSource } from './glyph-fonts.js';
import { encodeGlyphRange, type SdfGlyph } from './glyph-pbf.js';

export const GLYPH_CONTENT_TYPE = 'application/x-protobuf';
/** A stack longer than this is not a map's (MapLibre styles name two or three fonts). */
export const MAX_FONTS_PER_STACK = 4;
const RANGE_SIZE = 256;
const LAST_RANGE_START = 65280;
const MEMORY_CACHE_BYTES = 32 * 1024 * 1024;
const GLYPHS_PER_YIELD = 16;

export interface GlyphServiceOptions {
  /** Folder for drawn ranges (DATA_DIR/tiles/glyphs); undefined keeps them in memory only. */
  cacheDir: string | undefined;
  logger: Logger;
  fonts?: readonly GlyphFontSource[];
}

/** `0-255` → 0; a range that is no 256-character block of the Basic Multilingual Plane → undefined. */
export function glyphRangeStart(range: string): number | undefined {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(range);
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (start % RANGE_SIZE !== 0 || end !== start + RANGE_SIZE - 1 || start > LAST_RANGE_START) return undefined;
  return start;
}

export class GlyphService {
  readonly version: string;
  readonly fontNames: readonly string[];
  private readonly sources: Map<string, GlyphFontSource>;
  private readonly fonts = new Map<string, GlyphFont>();
  private readonly memory = new LRUCache<string, TileAsset>({ maxSize: MEMORY_CACHE_BYTES, sizeCalculation: (asset) => Math.max(1, asset.byteLength) });
  private readonly pending = new Map<string, Promise<TileAsset>>();
  private readonly cacheDir: string | undefined;

  constructor(private readonly options: GlyphServiceOptions) {
    const sources = options.fonts ?? GLYPH_FONT_SOURCES;
    this.sources = new Map(sources.map((source) => [source.name, source]));
    this.fontNames = sources.map((source) => source.name);
    this.version = glyphVersion(sources);
    this.cacheDir = options.cacheDir ? join(options.cacheDir, this.version) : undefined;
  }

  /** The fonts of a stack (`Noto Sans Regular,Noto Sans Arabic Regular`), or undefined when one is unknown. */
  resolveStack(fontstack: string): string[] | undefined {
    const names = fontstack.split(',').map((name) => name.trim());
    if (names.length === 0 || names.length > MAX_FONTS_PER_STACK) return undefined;
    return names.every((name) => this.sources.has(name)) ? names : undefined;
  }

  /** The glyph range of a known stack starting at `start` (a multiple of 256). */
  async range(fonts: readonly string[], start: number): Promise<TileAsset> {
    const key = `${fonts.join(',')}/${start}-${start + RANGE_SIZE - 1}`;
    const cached = this.memory.get(key);
    if (cached) return cached;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.load(key, fonts, start).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private async load(key: string, fonts: readonly string[], start: number): Promise<TileAsset> {
    const file = this.cacheDir ? join(this.cacheDir, `${key.replaceAll(' ', '_')}.pbf`) : undefined;
    let bytes: Buffer | undefined = file ? await readFile(file).catch(() => undefined) : undefined;
    if (!bytes) {
      bytes = encodeGlyphRange({ name: fonts.join(', '), range: `${start}-${start + RANGE_SIZE - 1}`, glyphs: await this.draw(fonts, start) });
      if (file) await this.store(file, bytes);
    }
    const asset = new TileAsset(bytes, GLYPH_CONTENT_TYPE, true);
    this.memory.set(key, asset);
    return asset;
  }

  private async draw(names: readonly string[], start: number): Promise<SdfGlyph[]> {
    const fonts = names.map((name) => this.font(name));
    const glyphs: SdfGlyph[] = [];
    let drawn = 0;
    for (let codePoint = start; codePoint < start + RANGE_SIZE; codePoint++) {
      // control characters and the surrogate block have no glyph
      if (codePoint < 0x20 || (codePoint >= 0xd800 && codePoint <= 0xdfff)) continue;
      const font = fonts.find((candidate) => candidate.has(codePoint));
      if (!font) continue;
      glyphs.push(font.draw(codePoint));
      if (++drawn % GLYPHS_PER_YIELD === 0) await yieldToEventLoop();
    }
    return glyphs;
  }

  private font(name: string): GlyphFont {
    let font = this.fonts.get(name);
    if (!font) {
      font = new GlyphFont(name, fontFilePath(this.sources.get(name)!));
      this.fonts.set(name, font);
    }
    return font;
  }

  /** Written beside, then renamed: a reader never sees half a file, and two processes writing one range both leave a whole one. */
  private async store(file: string, bytes: Buffer): Promise<void> {
    try {
      await mkdir(join(file, '..'), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    } catch (error) {
      this.options.logger.warn({ err: error, file }, 'cannot cache a glyph range on disk; serving it from memory');
    }
  }
}
