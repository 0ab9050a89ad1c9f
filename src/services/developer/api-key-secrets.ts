import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `svc_` followed by 48 hexadecimal characters (24 random bytes). */
export const API_KEY_PATTERN = /^svc_[0-9a-f]{48}$/;

export interface NewKeySecret {
  plaintext: string;
  hash: string;
  lastFour: string;
}

/**
 * Keys carry 192 random bits, so a fast hash (SHA-256) is the right tool: it
 * cannot be brute-forced, and the edge can look a key up by its hash per request.
 */
export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

export function generateApiKey(): NewKeySecret {
  const plaintext = `svc_${randomBytes(24).toString('hex')}`;
  return { plaintext, hash: hashApiKey(plaintext), lastFour: plaintext.slice(-4) };
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
