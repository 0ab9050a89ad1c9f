/**
 * Category styling for maps (spec part 2 §4.8 `/map/category-styles`, `/map/icons/*`, §2.4
 * `iconLightUrl`/`iconDarkUrl`): each category of the place taxonomy gets a colour and pin style from
 * its group, a zoom range, and its Maki icon (CC0) three ways: as a `<symbol id="svc-icon-<name>">` of
 * one SVG sprite, and as a light and a dark SVG pin. Everything is made once from the taxonomy and
 * the Maki files, so the version token changes exactly when either (or the drawing) changes.
 */
import { createHash } from 'node:crypto';
import { makiIcons } from '../tiles/sprites/sprite-sheet.js';
import { PLACE_CATEGORIES, type CategoryGroup, type PlaceCategory } from '../places/place-taxonomy.js';

/** Bumped when a colour, a pin shape or the sprite's markup changes. */
const ICON_GENERATOR_VERSION = 1;

export type PinStyle = 'pin' | 'dot';
export type IconTheme = 'light' | 'dark';

interface GroupStyle {
  color: string;
  /** A lighter tone of the colour, for the dark theme (the pin must stand off a dark map). */
  darkColor: string;
  pinStyle: PinStyle;
  /** The zoom from which a category of the group is worth a pin on a city map. */
  minZoom: number;
}

// Colours follow common map conventions (red health, green leisure, blue transport) and keep
// ≥ 4.5:1 contrast with the white glyph drawn on them.
const GROUP_STYLES: Readonly<Record<CategoryGroup, GroupStyle>> = {
  food: { color: '#c0531b', darkColor: '#f08a4b', pinStyle: 'pin', minZoom: 15 },
  shopping: { color: '#2b63b5', darkColor: '#6f9be0', pinStyle: 'pin', minZoom: 16 },
  health: { color: '#c62828', darkColor: '#ef6c6c', pinStyle: 'pin', minZoom: 13 },
  money: { color: '#2e7d32', darkColor: '#66bb6a', pinStyle: 'dot', minZoom: 16 },
  transport: { color: '#1e4f8a', darkColor: '#64a0e0', pinStyle: 'pin', minZoom: 14 },
  education: { color: '#7a4a1e', darkColor: '#c28a55', pinStyle: 'pin', minZoom: 15 },
  worship: { color: '#00695c', darkColor: '#4db6ac', pinStyle: 'pin', minZoom: 15 },
  leisure: { color: '#33691e', darkColor: '#8bc34a', pinStyle: 'pin', minZoom: 14 },
  lodging: { color: '#6a1b9a', darkColor: '#b388d9', pinStyle: 'pin', minZoom: 14 },
  services: { color: '#546e7a', darkColor: '#9fb4be', pinStyle: 'dot', minZoom: 16 },
  government: { color: '#37474f', darkColor: '#a3b3bb', pinStyle: 'pin', minZoom: 14 },
};

const MAX_ZOOM = 22;
/** Maki draws on a 15-unit grid. */
export const ICON_SIZE = 15;

export interface CategoryStyle {
  slug: string;
  name: { en: string; ar: string };
  group: CategoryGroup;
  color: string;
  darkColor: string;
  pinStyle: PinStyle;
  zoomRange: { min: number; max: number };
  /** The Maki icon the category is drawn with (not its slug). */
  iconName: string;
  aliases: readonly string[];
}

export interface CategoryIcons {
  version: string;
  styles: readonly CategoryStyle[];
  /** The icons the categories use, by name, each with the inner markup and viewBox of its Maki file. */
  icons: ReadonlyMap<string, { viewBox: string; markup: string }>;
  /** `svc-icon-<name>` symbols, one per icon. */
  spriteSvg: string;
  /** The light or dark pin SVG of a pin name (`pinNameOf`), or undefined for a name no category has. */
  pin(pinName: string, theme: IconTheme): string | undefined;
}

function styleOf(category: PlaceCategory): CategoryStyle {
  const group = GROUP_STYLES[category.group];
  return {
    slug: category.slug,
    name: { en: category.nameEn, ar: category.nameAr },
    group: category.group,
    color: group.color,
    darkColor: group.darkColor,
    pinStyle: group.pinStyle,
    zoomRange: { min: group.minZoom, max: MAX_ZOOM },
    iconName: category.icon,
    aliases: category.aliases,
  };
}

/** The file name stem of a category's pins: its group and icon (the slug is not the icon's name, part 2 §2.4). */
export function pinNameOf(style: Pick<CategoryStyle, 'group' | 'iconName'>): string {
  return `${style.group}-${style.iconName}`;
}

/** The inside of a Maki SVG (its paths) and its viewBox. */
function makiParts(name: string, svg: string): { viewBox: string; markup: string } {
  const open = /<svg\b[^>]*>/.exec(svg);
  const close = svg.lastIndexOf('</svg>');
  if (!open || close < 0) throw new Error(`Maki icon ${name} is not an SVG document`);
  const viewBox = /viewBox="([^"]+)"/.exec(open[0])?.[1] ?? `0 0 ${ICON_SIZE} ${ICON_SIZE}`;
  // ids inside a symbol would clash across symbols of one document: Maki's paths carry none that matter
  const markup = svg.slice(open.index + open[0].length, close).replace(/\sid="[^"]*"/g, '').trim();
  return { viewBox, markup };
}

const PIN_WIDTH = 30;
const PIN_HEIGHT = 40;
// A teardrop: a circle of radius 13 around (15, 14) drawn down to a point at (15, 39).
const PIN_PATH = 'M15 39C15 39 2 24.5 2 14a13 13 0 0 1 26 0c0 10.5-13 25-13 25z';

function pinSvg(style: CategoryStyle, icon: { viewBox: string; markup: string }, theme: IconTheme): string {
  const fill = theme === 'light' ? style.color : style.darkColor;
  const edge = theme === 'light' ? '#ffffff' : '#121212';
  const glyph = theme === 'light' ? '#ffffff' : '#121212';
  const body =
    style.pinStyle === 'pin'
      ? `<path d="${PIN_PATH}" fill="${fill}" stroke="${edge}" stroke-width="1.5"/>`
      : `<circle cx="15" cy="14" r="12" fill="${fill}" stroke="${edge}" stroke-width="1.5"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIN_WIDTH}" height="${PIN_HEIGHT}" viewBox="0 0 ${PIN_WIDTH} ${PIN_HEIGHT}">` +
    `<title>${escapeXml(style.name.en)}</title>${body}` +
    `<svg x="7.5" y="6.5" width="${ICON_SIZE}" height="${ICON_SIZE}" viewBox="${icon.viewBox}" fill="${glyph}">${icon.markup}</svg></svg>`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Builds the styles, the sprite and the pins from the taxonomy and the Maki files. */
export function buildCategoryIcons(maki: ReadonlyMap<string, string> = makiIcons()): CategoryIcons {
  const styles = PLACE_CATEGORIES.map(styleOf);
  const icons = new Map<string, { viewBox: string; markup: string }>();
  for (const style of styles) {
    if (icons.has(style.iconName)) continue;
    const svg = maki.get(style.iconName);
    if (!svg) throw new Error(`category ${style.slug} names the Maki icon ${style.iconName}, which Maki does not have`);
    icons.set(style.iconName, makiParts(style.iconName, svg));
  }
  const hash = createHash('sha256').update(`category icons ${ICON_GENERATOR_VERSION}\n`);
  for (const style of styles) hash.update(JSON.stringify(style));
  for (const [name, icon] of icons) hash.update(name).update(icon.markup);
  const version = hash.digest('base64url').slice(0, 12);

  const symbols = [...icons].map(([name, icon]) => `<symbol id="svc-icon-${name}" viewBox="${icon.viewBox}">${icon.markup}</symbol>`);
  const spriteSvg = `<svg xmlns="http://www.w3.org/2000/svg" style="display:none">${symbols.join('')}</svg>`;

  // pins differ by colour as well as glyph: one file per group and icon (a library and a bookshop share
  // Maki's `library` glyph but not their colour)
  const styleOfPin = new Map<string, CategoryStyle>();
  for (const style of styles) if (!styleOfPin.has(pinNameOf(style))) styleOfPin.set(pinNameOf(style), style);
  const pins = new Map<string, string>();
  const pin = (pinName: string, theme: IconTheme) => {
    const style = styleOfPin.get(pinName);
    if (!style) return undefined;
    const key = `${pinName}-${theme}`;
    let svg = pins.get(key);
    if (svg === undefined) {
      svg = pinSvg(style, icons.get(style.iconName)!, theme);
      pins.set(key, svg);
    }
    return svg;
  };
  return { version, styles, icons, spriteSvg, pin };
}
