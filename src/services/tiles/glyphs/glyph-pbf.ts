/**
 * The glyph range protobuf MapLibre reads (`glyphs.proto` of the style specification):
 * `glyphs { repeated fontstack stacks = 1 }`, `fontstack { name = 1; range = 2; repeated glyph glyphs = 3 }`,
 * `glyph { id = 1; bitmap = 2; width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }`.
 * Written and read with `pbf`.
 */
import { PbfReader, PbfWriter } from 'pbf';

/** One SDF glyph: `bitmap` is (width + 6) × (height + 6) bytes (3 pixels of buffer each side), absent for empty glyphs. */
export interface SdfGlyph {
  id: number;
  bitmap: Uint8Array | undefined;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

export interface GlyphRange {
  name: string;
  range: string;
  glyphs: SdfGlyph[];
}

function writeGlyph(glyph: SdfGlyph, pbf: PbfWriter): void {
  pbf.writeVarintField(1, glyph.id);
  if (glyph.bitmap && glyph.bitmap.length) pbf.writeBytesField(2, glyph.bitmap);
  pbf.writeVarintField(3, glyph.width);
  pbf.writeVarintField(4, glyph.height);
  pbf.writeSVarintField(5, glyph.left);
  pbf.writeSVarintField(6, glyph.top);
  pbf.writeVarintField(7, glyph.advance);
}

function writeStack(stack: GlyphRange, pbf: PbfWriter): void {
  pbf.writeStringField(1, stack.name);
  pbf.writeStringField(2, stack.range);
  for (const glyph of stack.glyphs) pbf.writeMessage(3, writeGlyph, glyph);
}

export function encodeGlyphRange(stack: GlyphRange): Buffer {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, writeStack, stack);
  const bytes = pbf.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads a glyph range back (tests, and stacks combined from cached single-font ranges). */
export function decodeGlyphRange(bytes: Uint8Array): GlyphRange {
  const stacks: GlyphRange[] = [];
  new PbfReader(bytes).readFields(
    (tag, result: GlyphRange[], pbf) => {
      if (tag !== 1) return;
      result.push(
        pbf.readMessage(
          (field, stack: GlyphRange, reader) => {
            if (field === 1) stack.name = reader.readString();
            else if (field === 2) stack.range = reader.readString();
            else if (field === 3) stack.glyphs.push(reader.readMessage(readGlyph, { id: 0, bitmap: undefined, width: 0, height: 0, left: 0, top: 0, advance: 0 }));
          },
          { name: '', range: '', glyphs: [] },
        ),
      );
    },
    stacks,
  );
  return stacks[0] ?? { name: '', range: '', glyphs: [] };
}

function readGlyph(tag: number, glyph: SdfGlyph, pbf: PbfReader): void {
  if (tag === 1) glyph.id = pbf.readVarint();
  else if (tag === 2) glyph.bitmap = pbf.readBytes();
  else if (tag === 3) glyph.width = pbf.readVarint();
  else if (tag === 4) glyph.height = pbf.readVarint();
  else if (tag === 5) glyph.left = pbf.readSVarint();
  else if (tag === 6) glyph.top = pbf.readSVarint();
  else if (tag === 7) glyph.advance = pbf.readVarint();
}
