/**
 * Uploaded place photos are decoded and re-encoded with sharp (libvips) before anything is stored
 * (docs/places.md "Photos"): what is kept is a fresh baseline of pixels, never the client's file. So
 * metadata (EXIF with GPS position and camera serial, XMP, IPTC, ICC profiles, comments) is gone, a file that
 * only claims to be an image is refused, the orientation flag is applied to the pixels, and size is bounded.
 * sharp works on libuv's thread pool: the event loop never decodes.
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { ApiError } from '../../shared/errors.js';

/** Formats a photo may arrive in (sharp's names). SVG, PDF and the like are refused: they are documents, not photos. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export interface PhotoLimits {
  /** Decoded pixels an input may have at most (a small file can declare a huge canvas): 40 megapixels. */
  maxInputPixels: number;
  /** Narrower side below this is refused (pixels): 64. */
  minDimension: number;
  /** Longest side of a stored photo (pixels): 2048; larger ones are scaled down, smaller ones never up. */
  maxDimension: number;
  /** Bytes a stored photo may have at most: 2 MiB; a larger encoding is redone smaller. */
  maxOutputBytes: number;
  /** Seconds libvips may spend on one image: 10. */
  timeoutSeconds: number;
}

export const DEFAULT_PHOTO_LIMITS: Readonly<PhotoLimits> = Object.freeze({
  maxInputPixels: 40_000_000,
  minDimension: 64,
  maxDimension: 2048,
  maxOutputBytes: 2 * 1024 * 1024,
  timeoutSeconds: 10,
});

/** The encodings tried in turn until one fits maxOutputBytes: longest side (share of maxDimension) and JPEG quality. */
const ATTEMPTS: readonly { scale: number; quality: number }[] = [
  { scale: 1, quality: 82 },
  { scale: 1, quality: 68 },
  { scale: 0.75, quality: 68 },
  { scale: 0.5, quality: 60 },
];

export interface NormalisedPhoto {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  extension: 'jpg' | 'png';
  width: number;
  height: number;
}

/** Logos keep their transparency (PNG) and are small: at most 512 pixels a side and 512 KiB. */
export const LOGO_LIMITS: Readonly<PhotoLimits> = Object.freeze({ ...DEFAULT_PHOTO_LIMITS, minDimension: 32, maxDimension: 512, maxOutputBytes: 512 * 1024 });

function invalid(reason: string, message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError('INVALID_IMAGE', { message, details: { reason, ...details } });
}

/**
 * Decodes an upload and encodes it again as a progressive sRGB JPEG without metadata, oriented, at most
 * `maxDimension` on its longest side and `maxOutputBytes` long. Throws 400 INVALID_IMAGE for anything that
 * is not a decodable photo within the limits.
 */
export async function normalisePhoto(input: Buffer, limits: PhotoLimits = DEFAULT_PHOTO_LIMITS): Promise<NormalisedPhoto> {
  return normaliseImage(input, limits, 'jpeg');
}

/** A business logo: as a photo, but PNG with its transparency kept, within LOGO_LIMITS. */
export async function normaliseLogo(input: Buffer, limits: PhotoLimits = LOGO_LIMITS): Promise<NormalisedPhoto> {
  return normaliseImage(input, limits, 'png');
}

async function normaliseImage(input: Buffer, limits: PhotoLimits, output: 'jpeg' | 'png'): Promise<NormalisedPhoto> {
  if (input.length === 0) throw invalid('empty', 'The file is empty');
  const options = { limitInputPixels: limits.maxInputPixels, failOn: 'error' as const, animated: false };
  let metadata: Metadata;
  try {
    // the header only (no pixels are decoded), so the pixel limit is checked below with its own reason
    metadata = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw invalid('not_an_image', 'The file is not an image sharp can read (JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF)');
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw invalid('unsupported_format', `Images in ${metadata.format ?? 'this'} format are not accepted; send JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF`, { format: metadata.format ?? null });
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width * height > limits.maxInputPixels) {
    throw invalid('too_many_pixels', `The image has ${width}×${height} pixels; at most ${limits.maxInputPixels} are accepted`, { width, height, maxPixels: limits.maxInputPixels });
  }
  if (Math.min(width, height) < limits.minDimension) {
    throw invalid('too_small', `The image is ${width}×${height} pixels; each side must be at least ${limits.minDimension}`, { width, height, minDimension: limits.minDimension });
  }
  for (const attempt of ATTEMPTS) {
    const side = Math.max(limits.minDimension, Math.round(limits.maxDimension * attempt.scale));
    let encoded: { data: Buffer; info: OutputInfo };
    try {
      const pipeline = sharp(input, options)
        .timeout({ seconds: limits.timeoutSeconds })
        .rotate() // applies the EXIF orientation to the pixels; the flag itself goes with the rest of the metadata
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
      encoded = await (output === 'jpeg'
        ? pipeline.flatten({ background: '#ffffff' }).toColourspace('srgb').jpeg({ quality: attempt.quality, progressive: true, chromaSubsampling: '4:2:0' })
        : pipeline.toColourspace('srgb').png({ compressionLevel: 9, palette: attempt.quality < 82, quality: attempt.quality })
      ).toBuffer({ resolveWithObject: true });
    } catch {
      // the header read, the pixels did not: a truncated or corrupt file
      throw invalid('undecodable', 'The image could not be decoded (truncated or corrupt)');
    }
    if (encoded.data.length <= limits.maxOutputBytes) {
      return output === 'jpeg'
        ? { bytes: encoded.data, contentType: 'image/jpeg', extension: 'jpg', width: encoded.info.width, height: encoded.info.height }
        : { bytes: encoded.data, contentType: 'image/png', extension: 'png', width: encoded.info.width, height: encoded.info.height };
    }
  }
  throw invalid('too_large', `The image does not fit in ${limits.maxOutputBytes} bytes even at reduced size`, { maxBytes: limits.maxOutputBytes });
}
