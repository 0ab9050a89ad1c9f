import { createHash, randomBytes } from 'node:crypto';

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
