import { readdirSync } from 'node:fs';
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { makiIconDirectory, SpriteService, type SpriteIndexEntry } from './sprite-sheet.js';

describe('sprite sheet', () => {
  const service = new SpriteService();

  it('holds every Maki icon at 1x and 2x, inside the sheet and without overlaps', async () => {
    const maki = readdirSync(makiIconDirectory()).filter((file) => file.endsWith('.svg')).map((file) => file.slice(0, -4));
    expect(maki.length).toBeGreaterThan(200);
    for (const ratio of [1, 2] as const) {
      const sheet = await service.sheet(ratio);
      const index = JSON.parse(sheet.index.body.toString()) as Record<string, SpriteIndexEntry>;
      expect(Object.keys(index).sort()).toEqual([...maki].sort());
      const image = await loadImage(sheet.image.body);
      const boxes = Object.values(index);
      for (const box of boxes) {
        expect(box.pixelRatio).toBe(ratio);
        expect(box.width).toBe(17 * ratio);
        expect(box.x + box.width).toBeLessThanOrEqual(image.width);
        expect(box.y + box.height).toBeLessThanOrEqual(image.height);
      }
      const overlaps = boxes.some((a, i) => boxes.some((b, j) => i < j && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height));
      expect(overlaps).toBe(false);
    }
  });

  it('draws ink where the restaurant icon is (not a blank sheet)', async () => {
    const sheet = await service.sheet(2);
    const index = JSON.parse(sheet.index.body.toString()) as Record<string, SpriteIndexEntry>;
    const { createCanvas } = await import('@napi-rs/canvas');
    const image = await loadImage(sheet.image.body);
    const canvas = createCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const box = index.restaurant!;
    const pixels = context.getImageData(box.x, box.y, box.width, box.height).data;
    let dark = 0;
    let white = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3]! > 200 && pixels[i]! < 90) dark++;
      if (pixels[i + 3]! > 200 && pixels[i]! > 240) white++;
    }
    expect(dark).toBeGreaterThan(40);
    expect(white).toBeGreaterThan(40);
  });
});
