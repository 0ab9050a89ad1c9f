import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * High-entropy secrets (API keys, share tokens) are stored only as SHA-256:
 * 192 random bits cannot be brute-forced, and a fast hash lets the server look
 * a secret up by its hash.
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `<prefix><hex>` with `bytes` random bytes. */
export function randomHexToken(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

/** Constant-time comparison of two hex digests. */
export function hexDigestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
