/**
 * The fonts glyphs are made from: Noto Sans and Noto Sans Arabic (SIL Open Font License 1.1), as the
 * TrueType files of the `@expo-google-fonts/noto-sans` and `@expo-google-fonts/noto-sans-arabic`
 * packages (Google Fonts' own builds), so `npm ci` brings them and no system font is used.
 *
 * Each font is drawn by @napi-rs/canvas (Skia) under a private family name, and its character map is
 * read with opentype.js: only characters the font really has are drawn (Skia would otherwise fall
 * back to whatever system font has the character, and the glyph would not be ours).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import TinySDF from '@mapbox/tiny-sdf';
import opentype, { type Font as OpenTypeFont } from 'opentype.js';
import type { SdfGlyph } from './glyph-pbf.js';
import { fontFilePath, GLYPH_FONT_SOURCES, type GlyphFontSource } from '../../../solvers/fonts/noto-fonts.js';

export { fontFilePath, GLYPH_FONT_SOURCES, type GlyphFontSource } from '../../../solvers/fonts/noto-fonts.js';

/** SDF parameters every MapLibre glyph server uses: 24 px em, 3 px buffer, radius 8, cutoff 0.25. */
const FONT_SIZE_PX = 24;
const BUFFER_PX = 3;
const RADIUS_PX = 8;
const CUTOFF = 0.25;
/** MapLibre places a glyph's `top` relative to a 24 px line whose baseline sits 27 px down (as its own local glyph drawing does). */
const BASELINE_SHIFT_PX = 27;
/** Bumped when the drawing changes, so cached ranges are made again. */
export const GLYPH_GENERATOR_VERSION = 1;

/** Changes when a font file or the generator changes: the glyph URL's `?v=` and the disk cache's folder. */
export function glyphVersion(sources: readonly GlyphFontSource[] = GLYPH_FONT_SOURCES): string {
  const hash = createHash('sha256').update(`generator ${GLYPH_GENERATOR_VERSION}\n`);
  for (const source of sources) hash.update(source.name).update(readFileSync(fontFilePath(source)));
  return hash.digest('base64url').slice(0, 12);
}

/** tiny-sdf draws on a browser canvas; in Node it gets a Skia one (its `_createCanvas` is the documented hook). */
class NodeTinySdf extends TinySDF {
  _createCanvas(size: number): unknown {
    return createCanvas(size, size);
  }
}

let registered = 0;

/** One font, ready to draw SDF glyphs. */
export class GlyphFont {
  private readonly sdf: TinySDF;
  private readonly font: OpenTypeFont;

  constructor(readonly name: string, path: string) {
    const bytes = readFileSync(path);
    this.font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    // a family name of our own: the canvas must draw this file, never a system font of the same name
    const family = `SvcGlyphFont${registered++}`;
    if (!GlobalFonts.registerFromPath(path, family)) throw new Error(`cannot register the font ${path}`);
    this.sdf = new NodeTinySdf({ fontSize: FONT_SIZE_PX, buffer: BUFFER_PX, radius: RADIUS_PX, cutoff: CUTOFF, fontFamily: family });
  }

  has(codePoint: number): boolean {
    return this.font.charToGlyphIndex(String.fromCodePoint(codePoint)) > 0;
  }

  /** The SDF glyph of one character the font has. */
  draw(codePoint: number): SdfGlyph {
    const drawn = this.sdf.draw(String.fromCodePoint(codePoint));
    const empty = drawn.glyphWidth === 0 || drawn.glyphHeight === 0;
    return {
      id: codePoint,
      bitmap: empty ? undefined : Uint8Array.from(drawn.data),
      width: empty ? 0 : drawn.glyphWidth,
      height: empty ? 0 : drawn.glyphHeight,
      left: drawn.glyphLeft,
      top: drawn.glyphTop - BASELINE_SHIFT_PX,
      advance: Math.round(drawn.glyphAdvance),
    };
  }
}
