/**
 * The label fonts of the static map renderer: the four Noto files the glyph server also serves,
 * registered with Skia once per worker under private family names (a system font of the same name
 * must never be drawn instead). Skia shapes text with HarfBuzz, so Arabic letters join and runs are
 * ordered right to left (label-fonts.test.ts compares against presentation forms).
 */
import { GlobalFonts } from '@napi-rs/canvas';
import { fontFilePath, GLYPH_FONT_SOURCES } from '../fonts/noto-fonts.js';

const FAMILY_PREFIX = 'SvcStaticMap';
let families: Map<string, string> | undefined;

/** Style font name (`Noto Sans Arabic Regular`) → the registered family. */
function registeredFamilies(): Map<string, string> {
  if (!families) {
    families = new Map();
    for (const [index, source] of GLYPH_FONT_SOURCES.entries()) {
      const family = `${FAMILY_PREFIX}${index}`;
      if (!GlobalFonts.registerFromPath(fontFilePath(source), family)) throw new Error(`cannot register the font ${source.name}`);
      families.set(source.name, family);
    }
  }
  return families;
}

/**
 * A CSS font shorthand for a style's `text-font` stack at a size: the stack's fonts in order (Skia takes
 * each character from the first family that has it), Noto Sans Regular and Arabic when the stack names
 * none of ours.
 */
export function canvasFont(stack: readonly string[] | undefined, sizePx: number): string {
  const known = registeredFamilies();
  const chosen = (stack ?? []).map((name) => known.get(name)).filter((family): family is string => family !== undefined);
  if (chosen.length === 0) chosen.push(known.get('Noto Sans Regular')!, known.get('Noto Sans Arabic Regular')!);
  return `${sizePx.toFixed(2)}px ${chosen.join(', ')}`;
}
