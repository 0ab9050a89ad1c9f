import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { DEFAULT_PHOTO_LIMITS, normaliseLogo, normalisePhoto } from './photo-images.js';

/** A real JPEG with EXIF (camera, GPS-like comment, orientation) and an ICC profile, drawn with sharp. */
async function jpegWithMetadata(width: number, height: number, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'X1', Copyright: 'owner@example.com' } })
    .withMetadata({ orientation })
    .toBuffer();
}

async function refusal(input: Buffer, limits = DEFAULT_PHOTO_LIMITS): Promise<ApiError> {
  const error = await normalisePhoto(input, limits).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('INVALID_IMAGE');
  return error as ApiError;
}

describe('normalisePhoto', () => {
  it('re-encodes as JPEG within the longest side, with no EXIF, XMP or ICC left', async () => {
    const input = await jpegWithMetadata(3000, 1500);
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    const photo = await normalisePhoto(input);
    expect(photo).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg', width: 2048, height: 1024 });
    const after = await sharp(photo.bytes).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 2048, height: 1024 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(photo.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('applies the orientation flag to the pixels', async () => {
    const photo = await normalisePhoto(await jpegWithMetadata(300, 100, 6));
    expect([photo.width, photo.height]).toEqual([100, 300]);
  });

  it('never enlarges a small photo, and flattens transparency onto white', async () => {
    const png = await sharp({ create: { width: 120, height: 80, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const photo = await normalisePhoto(png);
    expect([photo.width, photo.height]).toEqual([120, 80]);
    const { data } = await sharp(photo.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(245);
  });

  it('accepts WebP and GIF', async () => {
    for (const format of ['webp', 'gif'] as const) {
      const input = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#0a0' } }).toFormat(format).toBuffer();
      expect((await normalisePhoto(input)).contentType).toBe('image/jpeg');
    }
  });

  it('refuses what is not an image, and says why', async () => {
    expect((await refusal(Buffer.from('%PDF-1.4 not a photo at all'))).details).toEqual({ reason: 'not_an_image' });
    expect((await refusal(Buffer.alloc(0))).details).toEqual({ reason: 'empty' });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>');
    expect((await refusal(svg)).details).toMatchObject({ reason: 'unsupported_format', format: 'svg' });
  });

  it('refuses a truncated file whose header reads', async () => {
    const whole = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    expect((await refusal(whole.subarray(0, Math.floor(whole.length / 3)))).details).toEqual({ reason: 'undecodable' });
  });

  it('refuses too few and too many pixels', async () => {
    const tiny = await sharp({ create: { width: 40, height: 300, channels: 3, background: '#000' } }).png().toBuffer();
    expect((await refusal(tiny)).details).toMatchObject({ reason: 'too_small', width: 40, height: 300 });
    const big = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#000' } }).png().toBuffer();
    expect((await refusal(big, { ...DEFAULT_PHOTO_LIMITS, maxInputPixels: 500_000 })).details).toMatchObject({ reason: 'too_many_pixels' });
  });

  it('encodes smaller until the bytes fit, else refuses', async () => {
    const noise = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } }).png().toBuffer();
    const limits = { ...DEFAULT_PHOTO_LIMITS, maxDimension: 1200, maxOutputBytes: 400_000 };
    const photo = await normalisePhoto(noise, limits);
    expect(photo.bytes.length).toBeLessThanOrEqual(400_000);
    expect(photo.width).toBeLessThan(1200);
    expect((await refusal(noise, { ...limits, maxOutputBytes: 5_000 })).details).toMatchObject({ reason: 'too_large' });
  });

  it('keeps a logo as PNG with its transparency, at most 512 pixels a side', async () => {
    const input = await sharp({ create: { width: 1000, height: 250, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0 } } }).png().toBuffer();
    const logo = await normaliseLogo(input);
    expect(logo).toMatchObject({ contentType: 'image/png', extension: 'png', width: 512, height: 128 });
    expect(await sharp(logo.bytes).metadata()).toMatchObject({ format: 'png', hasAlpha: true });
  });
});
