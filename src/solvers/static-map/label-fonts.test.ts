/**
 * Arabic labels must be shaped: letters joined in their initial, medial and final forms, the run laid
 * out right to left. The reference is the same word written with the presentation forms (the shaped
 * glyphs themselves, U+FE70–U+FEFF), which need no shaping; the counter-check is the word with its
 * letters kept apart (zero-width non-joiners), which must look different.
 */
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { canvasFont } from './label-fonts.js';

const ARABIC_STACK = ['Noto Sans Regular', 'Noto Sans Arabic Regular'];

/** The text drawn black on white, as one byte of darkness per pixel. */
function ink(text: string): Uint8Array {
  const canvas = createCanvas(240, 60);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 240, 60);
  context.font = canvasFont(ARABIC_STACK, 32);
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillStyle = '#000000';
  context.fillText(text, 120, 30);
  const data = canvas.getContext('2d').getImageData(0, 0, 240, 60).data;
  const out = new Uint8Array(240 * 60);
  for (let pixel = 0; pixel < out.length; pixel++) out[pixel] = 255 - data[pixel * 4]!;
  return out;
}

/** Share of the inked pixels of either image that differ by more than a quarter of full ink. */
function difference(a: Uint8Array, b: Uint8Array): number {
  let inked = 0;
  let different = 0;
  for (let pixel = 0; pixel < a.length; pixel++) {
    if (a[pixel]! < 32 && b[pixel]! < 32) continue;
    inked++;
    if (Math.abs(a[pixel]! - b[pixel]!) > 64) different++;
  }
  return different / Math.max(1, inked);
}

describe('label fonts', () => {
  // نصر (Nasr): noon initial, sad medial, reh final; القاهرة (Cairo): alef, lam initial, qaf medial, alef final, heh initial, reh final, teh marbuta isolated
  const words = [
    { text: 'نصر', shaped: '\uFEE7\uFEBC\uFEAE' },
    { text: 'القاهرة', shaped: '\uFE8D\uFEDF\uFED8\uFE8E\uFEEB\uFEAE\uFE93' },
  ];

  for (const { text, shaped } of words) {
    it(`joins the letters of ${text} as the presentation forms do`, () => {
      const drawn = ink(text);
      expect(difference(drawn, ink(shaped))).toBeLessThan(0.05);
      const apart = ink([...text].join('\u200C'));
      expect(difference(drawn, apart)).toBeGreaterThan(0.2);
    });
  }

  it('draws Latin and Arabic of one label from the Noto fonts (no missing-glyph boxes)', () => {
    const mixed = ink('Nasr نصر');
    const latin = ink('Nasr');
    const arabic = ink('نصر');
    const sum = (image: Uint8Array) => image.reduce((total, value) => total + value, 0);
    // the mixed label carries about the ink of its two parts
    expect(sum(mixed) / (sum(latin) + sum(arabic))).toBeGreaterThan(0.9);
    expect(sum(mixed) / (sum(latin) + sum(arabic))).toBeLessThan(1.1);
  });
});
