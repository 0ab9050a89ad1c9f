/**
 * The fonts map labels are drawn with: Noto Sans and Noto Sans Arabic (SIL Open Font License 1.1), as
 * the TrueType files of the `@expo-google-fonts/noto-sans` and `@expo-google-fonts/noto-sans-arabic`
 * packages (Google Fonts' own builds), so `npm ci` brings them and no system font is used. The glyph
 * server (services/tiles/glyphs) and the static map renderer (solvers/static-map) read the same files.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A font served under `name`, from a file inside an npm package. */
export interface GlyphFontSource {
  name: string;
  packageName: string;
  file: string;
}

export const GLYPH_FONT_SOURCES: readonly GlyphFontSource[] = [
  { name: 'Noto Sans Regular', packageName: '@expo-google-fonts/noto-sans', file: '400Regular/NotoSans_400Regular.ttf' },
  { name: 'Noto Sans Bold', packageName: '@expo-google-fonts/noto-sans', file: '700Bold/NotoSans_700Bold.ttf' },
  { name: 'Noto Sans Arabic Regular', packageName: '@expo-google-fonts/noto-sans-arabic', file: '400Regular/NotoSansArabic_400Regular.ttf' },
  { name: 'Noto Sans Arabic Bold', packageName: '@expo-google-fonts/noto-sans-arabic', file: '700Bold/NotoSansArabic_700Bold.ttf' },
];

export function fontFilePath(source: GlyphFontSource): string {
  return join(dirname(require.resolve(`${source.packageName}/package.json`)), source.file);
}
