import { ok, type TaskResult } from '../task-result.js';
import type { SharedDataSet } from '../shared-data.js';

export interface SharedDataDescription {
  /** Per buffer: byte length and an FNV-1a checksum of its first 64 KiB (a probe, not a full hash: packs can be large). */
  buffers: Record<string, { byteLength: number; fnv1a: number }>;
}

export const PROBE_BYTES = 64 * 1024;

/** 32-bit FNV-1a over the bytes; cheap and good enough to tell two copies apart. */
export function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < bytes.length; index++) {
    hash ^= bytes[index]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Reports what shared data a worker sees. The readiness probe and tests use it
 * to prove the workers run and see the very memory the main thread loaded.
 */
export function describeSharedData(data: SharedDataSet): TaskResult<SharedDataDescription> {
  const buffers: SharedDataDescription['buffers'] = {};
  for (const [name, buffer] of Object.entries(data)) {
    buffers[name] = { byteLength: buffer.byteLength, fnv1a: fnv1a(new Uint8Array(buffer, 0, Math.min(buffer.byteLength, PROBE_BYTES))) };
  }
  return ok({ buffers });
}
