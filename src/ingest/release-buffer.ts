/**
 * Frees a large buffer's memory when its life ends instead of at the next full GC.
 *
 * An ArrayBuffer's bytes live outside the V8 heap and are freed when the small
 * ArrayBuffer object is collected. One that survives two scavenges (an inflated
 * PBF block while it is decoded, a staging column before it doubles) is promoted
 * to old space, and only a mark-compact frees it: the ingest's heap of 5–15 MiB
 * rarely triggers one, so dead blocks and outgrown columns pile up in the RSS,
 * and forcing a full GC costs as much CPU as the ingest. Transferring the bytes
 * to a new ArrayBuffer (`structuredClone` with `transfer`) detaches the old one
 * and leaves them to a young object the next scavenge frees (within milliseconds
 * with the ingest's `--max-semi-space-size=2`).
 *
 * A detached buffer reads as empty through every view of it, so this is only
 * for a buffer nobody reads again. The guard refuses what is commonly shared:
 * a SharedArrayBuffer, a small buffer (Node's `Buffer` pool slices 8 KiB slabs
 * among `Buffer.allocUnsafe` callers), and a view of only part of its buffer
 * (the rest may be another view's: a `subarray` that became a pack section).
 */
import { types } from 'node:util';

/** Below this a buffer is not worth a transfer (and may be a `Buffer` pool slab, 8 KiB). */
export const RELEASE_MIN_BYTES = 64 * 1024;

/**
 * Detaches `view`'s ArrayBuffer so its memory is freed at the next scavenge;
 * returns whether it did. `view` must start at byte 0 and cover the whole
 * buffer but for `unusedTailBytes` at its end (a producer's spare room that no
 * one else uses, e.g. zlib's one byte beyond the declared size of a block).
 */
export function releaseBuffer(view: ArrayBufferView, unusedTailBytes = 0): boolean {
  const buffer = view.buffer;
  if (!types.isArrayBuffer(buffer) || buffer.byteLength < RELEASE_MIN_BYTES) return false;
  if (view.byteOffset !== 0 || view.byteLength + unusedTailBytes !== buffer.byteLength) return false;
  try {
    structuredClone(buffer, { transfer: [buffer] });
    return true;
  } catch {
    // untransferable (Node marks its Buffer pool so) or detached already
    return false;
  }
}
