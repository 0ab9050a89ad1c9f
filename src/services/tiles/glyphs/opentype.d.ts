/** The part of opentype.js 2 (which ships no type declarations) the glyph server uses: parsing and the character map. */
declare module 'opentype.js' {
  export interface Font {
    /** 0 (`.notdef`) when the font has no glyph for the character. */
    charToGlyphIndex(character: string): number;
    unitsPerEm: number;
  }
  export function parse(buffer: ArrayBuffer): Font;
  const opentype: { parse: typeof parse };
  export default opentype;
}
