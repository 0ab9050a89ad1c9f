import { randomHexToken, sha256Hex } from '../../shared/secrets.js';

/** `svc_` followed by 48 hexadecimal characters (24 random bytes). */
export const API_KEY_PATTERN = /^svc_[0-9a-f]{48}$/;

export interface NewKeySecret {
  plaintext: string;
  hash: string;
  lastFour: string;
}

export const hashApiKey = sha256Hex;

export function generateApiKey(): NewKeySecret {
  const plaintext = randomHexToken('svc_', 24);
  return { plaintext, hash: hashApiKey(plaintext), lastFour: plaintext.slice(-4) };
}
