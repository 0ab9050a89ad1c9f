import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ApiError } from '../../shared/errors.js';
import { FifoSlots, SlotQueueFullError } from '../../solvers/fifo-slots.js';

/**
 * scrypt (memory-hard) password hashing, in Node's own crypto so it runs on
 * the libuv thread pool, not the event loop. N = 2^15, r = 8 costs 32 MiB and
 * roughly 0.1 s per hash on the reference machine.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt needs 128 · N · r bytes; allow some headroom over Node's 32 MiB default. */
const MAX_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Hashes computed at once: one core less than the machine has (at least one). scrypt runs on libuv's thread pool
 * (4 threads), so a sign-in flood could otherwise put four 32 MiB hashes on two cores at once, starve the event
 * loop's core and hold every pool thread other work (file reads, DNS, zlib) waits for. Process-wide on purpose:
 * the cores and the thread pool are the process's, whatever service asks.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
/** Hashes that may wait for a slot (about 3 s of line at 0.1 s each); one more is refused: 503 SERVER_BUSY. */
export const PASSWORD_HASH_QUEUE_LIMIT = 32;
const hashSlots = new FifoSlots(PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE_LIMIT);

async function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  try {
    await hashSlots.acquire();
  } catch (error) {
    if (!(error instanceof SlotQueueFullError)) throw error;
    throw new ApiError('SERVER_BUSY', {
      message: 'Too many sign-ins are being checked at once; retry shortly',
      details: { maxQueued: PASSWORD_HASH_QUEUE_LIMIT },
      headers: { 'retry-after': '1' },
    });
  }
  try {
    return await new Promise((resolve, reject) => {
      scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem: MAX_MEMORY_BYTES }, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    });
  } finally {
    hashSlots.release();
  }
}

/** Encodes as `scrypt$N$r$p$salt$key` (base64url), so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison of the derived key. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
