/**
 * A weather SVG tile (GET /map/weather/tiles/{z}/{x}/{y}): the cells of one weather type drawn as
 * translucent squares in a 256-pixel Web Mercator tile, each with its value when the square is large
 * enough to read. No features: an empty (transparent) tile. Pure.
 */
import type { OverlayFeature } from './pack-overlays.js';
import type { TileAddress } from './overlay-queries.js';

export const SVG_TILE_SIZE = 256;
/** Values are written in squares at least this wide, pixels. */
const LABEL_MIN_PX = 48;
const CELL_OPACITY = 0.55;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function weatherSvgTile({ z, x, y }: TileAddress, features: readonly OverlayFeature[]): string {
  const n = 2 ** z;
  const px = (lng: number) => (((lng + 180) / 360) * n - x) * SVG_TILE_SIZE;
  const py = (lat: number) => {
    const clipped = (Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180;
    return (((1 - Math.log(Math.tan(clipped) + 1 / Math.cos(clipped)) / Math.PI) / 2) * n - y) * SVG_TILE_SIZE;
  };
  const shapes: string[] = [];
  for (const feature of features) {
    if (feature.geometry.type !== 'Polygon') continue;
    const ring = feature.geometry.coordinates[0]!;
    const lngs = ring.map((position) => position[0]!);
    const lats = ring.map((position) => position[1]!);
    const left = px(Math.min(...lngs));
    const right = px(Math.max(...lngs));
    const top = py(Math.max(...lats));
    const bottom = py(Math.min(...lats));
    // only what meets the tile
    if (right < 0 || left > SVG_TILE_SIZE || bottom < 0 || top > SVG_TILE_SIZE) continue;
    const color = escapeXml(String(feature.properties.color));
    const f = (value: number) => value.toFixed(1);
    shapes.push(`<rect x="${f(left)}" y="${f(top)}" width="${f(right - left)}" height="${f(bottom - top)}" fill="${color}" fill-opacity="${CELL_OPACITY}"/>`);
    const value = feature.properties.value;
    if (typeof value === 'number' && right - left >= LABEL_MIN_PX && bottom - top >= LABEL_MIN_PX / 2) {
      const label = escapeXml(`${value}${feature.properties.unit === '%' ? '%' : ` ${String(feature.properties.unit ?? '')}`}`);
      shapes.push(`<text x="${f((left + right) / 2)}" y="${f((top + bottom) / 2)}" text-anchor="middle" dominant-baseline="middle" font-family="Noto Sans, sans-serif" font-size="11" fill="#263238">${label}</text>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SVG_TILE_SIZE}" height="${SVG_TILE_SIZE}" viewBox="0 0 ${SVG_TILE_SIZE} ${SVG_TILE_SIZE}">${shapes.join('')}</svg>`;
}
