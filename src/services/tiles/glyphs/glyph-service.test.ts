import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logger.js';
import { decodeGlyphRange } from './glyph-pbf.js';
import { glyphRangeStart, GlyphService } from './glyph-service.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-glyphs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const service = new GlyphService({ cacheDir: dir, logger: createLogger({ LOG_LEVEL: 'silent' }) });

describe('glyph ranges', () => {
  it('parses 256-character ranges and refuses others', () => {
    expect(glyphRangeStart('0-255')).toBe(0);
    expect(glyphRangeStart('65280-65535')).toBe(65280);
    expect(glyphRangeStart('1-256')).toBeUndefined();
    expect(glyphRangeStart('0-511')).toBeUndefined();
    expect(glyphRangeStart('65536-65791')).toBeUndefined();
    expect(glyphRangeStart('abc')).toBeUndefined();
  });

  it('knows its four fonts and refuses unknown ones in a stack', () => {
    expect(service.resolveStack('Noto Sans Regular,Noto Sans Arabic Regular')).toEqual(['Noto Sans Regular', 'Noto Sans Arabic Regular']);
    expect(service.resolveStack('Noto Sans Bold')).toEqual(['Noto Sans Bold']);
    expect(service.resolveStack('Open Sans Regular')).toBeUndefined();
    expect(service.resolveStack('Noto Sans Regular,Comic Sans')).toBeUndefined();
  });

  it('draws Latin SDF glyphs whose bitmaps have the 3 px buffer on each side', async () => {
    const asset = await service.range(['Noto Sans Regular'], 0);
    const range = decodeGlyphRange(asset.body);
    expect(range.range).toBe('0-255');
    const a = range.glyphs.find((glyph) => glyph.id === 65)!;
    expect(a.width).toBeGreaterThan(10);
    expect(a.height).toBeGreaterThan(12);
    expect(a.bitmap!.length).toBe((a.width + 6) * (a.height + 6));
    // a signed distance field: inside the glyph near 255, far outside 0, the edge in between
    const values = new Set(a.bitmap);
    expect(Math.max(...values)).toBeGreaterThan(200);
    expect(Math.min(...values)).toBeLessThan(40);
    expect(values.size).toBeGreaterThan(50);
    const space = range.glyphs.find((glyph) => glyph.id === 32)!;
    expect(space).toMatchObject({ width: 0, height: 0, bitmap: undefined });
    expect(space.advance).toBeGreaterThan(3);
    expect(range.glyphs.some((glyph) => glyph.id < 32)).toBe(false);
  });

  it('takes each character from the first font of the stack that has it, and caches the range on disk', async () => {
    const stack = ['Noto Sans Regular', 'Noto Sans Arabic Regular'];
    const arabic = decodeGlyphRange((await service.range(stack, 0x600)).body);
    const beh = arabic.glyphs.find((glyph) => glyph.id === 0x628);
    expect(beh?.bitmap?.length).toBeGreaterThan(100);
    // presentation forms, which shaped Arabic text is drawn with
    const forms = decodeGlyphRange((await service.range(stack, 0xfe00)).body);
    expect(forms.glyphs.find((glyph) => glyph.id === 0xfe91)?.width).toBeGreaterThan(0);
    // the Latin font lacks Arabic: without the Arabic font the range is empty
    expect(decodeGlyphRange((await service.range(['Noto Sans Regular'], 0x600)).body).glyphs.filter((glyph) => glyph.id === 0x628)).toEqual([]);
    expect(readdirSync(join(dir, service.version), { recursive: true }).some((name) => String(name).endsWith('1536-1791.pbf'))).toBe(true);
    // a second service reads the disk copy: same bytes
    const again = new GlyphService({ cacheDir: dir, logger: createLogger({ LOG_LEVEL: 'silent' }) });
    expect((await again.range(stack, 0x600)).tag).toBe((await service.range(stack, 0x600)).tag);
  });
});
