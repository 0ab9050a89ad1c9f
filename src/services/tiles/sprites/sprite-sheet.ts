/**
 * The style sprite (`GET /tiles/sprites/svc/sprite{,.json,.png,@2x.json,@2x.png}`): every icon of
 * Maki (@mapbox/maki, CC0), the icon set the place catalogue's category icons are named after,
 * rendered with resvg at 1× and 2×, packed with potpack and drawn onto one sheet per ratio.
 *
 * Icons are dark on a white halo so they read on every base style. Built once, on first request.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { Resvg } from '@resvg/resvg-js';
import potpack from 'potpack';
import { TileAsset } from '../tile-asset.js';

const require = createRequire(import.meta.url);
/** Bumped when the drawing changes (colours, halo, padding). */
const SPRITE_GENERATOR_VERSION = 1;
const ICON_FILL = '#3d3a36';
const HALO = '#ffffff';
/** Maki draws on a 15-unit grid; one unit of halo room each side. */
const ICON_UNITS = 17;
/** Gap between icons on the sheet, so linear filtering never bleeds a neighbour in. */
const GAP_PX = 2;

export interface SpriteIndexEntry {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio: number;
}

export interface SpriteSheet {
  index: TileAsset;
  image: TileAsset;
  /** Names of the icons it holds. */
  names: readonly string[];
}

export function makiIconDirectory(): string {
  return join(dirname(require.resolve('@mapbox/maki/package.json')), 'icons');
}

/** The Maki icons: name → SVG text. */
export function makiIcons(directory = makiIconDirectory()): Map<string, string> {
  const icons = new Map<string, string>();
  for (const file of readdirSync(directory).sort()) {
    if (file.endsWith('.svg')) icons.set(file.slice(0, -4), readFileSync(join(directory, file), 'utf8'));
  }
  return icons;
}

/** Changes with the icon set and the drawing: the sprite URL's `?v=`. */
export function spriteVersion(icons: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256').update(`sprite ${SPRITE_GENERATOR_VERSION}\n`);
  for (const [name, svg] of icons) hash.update(name).update(svg);
  return hash.digest('base64url').slice(0, 12);
}

/** A Maki SVG recoloured with a halo, on a grid one unit larger each side. */
function styledSvg(svg: string): string {
  return svg.replace(
    /<svg\b[^>]*>/,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ICON_UNITS}" height="${ICON_UNITS}" viewBox="-1 -1 ${ICON_UNITS} ${ICON_UNITS}" fill="${ICON_FILL}" stroke="${HALO}" stroke-width="1.6" stroke-linejoin="round" paint-order="stroke fill">`,
  );
}

/** Renders the sheet and its index for one pixel ratio. */
export async function buildSpriteSheet(icons: ReadonlyMap<string, string>, pixelRatio: 1 | 2): Promise<SpriteSheet> {
  const rendered = [...icons].map(([name, svg]) => {
    const png = new Resvg(styledSvg(svg), { fitTo: { mode: 'zoom', value: pixelRatio } }).render();
    return { name, png: png.asPng(), w: png.width + GAP_PX, h: png.height + GAP_PX, width: png.width, height: png.height, x: 0, y: 0 };
  });
  const { w, h } = potpack(rendered);
  const canvas = createCanvas(Math.max(1, Math.ceil(w)), Math.max(1, Math.ceil(h)));
  const context = canvas.getContext('2d');
  const index: Record<string, SpriteIndexEntry> = {};
  for (const icon of rendered) {
    context.drawImage(await loadImage(icon.png), icon.x, icon.y);
    index[icon.name] = { x: icon.x, y: icon.y, width: icon.width, height: icon.height, pixelRatio };
  }
  return {
    index: new TileAsset(Buffer.from(JSON.stringify(index)), 'application/json; charset=utf-8', true),
    image: new TileAsset(canvas.toBuffer('image/png'), 'image/png', false),
    names: rendered.map((icon) => icon.name),
  };
}

/** Both ratios, built on first use and kept. */
export class SpriteService {
  readonly version: string;
  private readonly icons: Map<string, string>;
  private readonly sheets = new Map<1 | 2, Promise<SpriteSheet>>();

  constructor(icons: Map<string, string> = makiIcons()) {
    this.icons = icons;
    this.version = spriteVersion(icons);
  }

  sheet(pixelRatio: 1 | 2): Promise<SpriteSheet> {
    let sheet = this.sheets.get(pixelRatio);
    if (!sheet) {
      sheet = buildSpriteSheet(this.icons, pixelRatio);
      // a failed build is tried again on the next request rather than remembered
      sheet.catch(() => this.sheets.delete(pixelRatio));
      this.sheets.set(pixelRatio, sheet);
    }
    return sheet;
  }
}
