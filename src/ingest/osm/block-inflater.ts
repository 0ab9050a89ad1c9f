/**
 * Inflates a PBF file's zlib blocks into one output buffer reused from block
 * to block.
 *
 * Why: `zlib.inflateSync` returns a fresh buffer per block (Monaco: blocks of
 * 1.6–2.3 MiB). A block lives while it is decoded, long enough to be promoted
 * out of the young generation, and a promoted buffer is freed only by a
 * mark-compact, which the ingest's small heap rarely triggers: the dead blocks
 * stayed in the peak RSS. Node's zlib has no public inflate-into-this-buffer
 * call, so this drives the native handle of one `Inflate` stream the way
 * `inflateSync` itself does (`handle.writeSync` into an output buffer and
 * offset, then `handle.reset()`), at the native speed; the pure-JS `fflate`,
 * which takes an output buffer, costs 4× the CPU (42 against 10 ms for
 * Monaco's 4 MiB of blocks). Whenever that path cannot give the exact result
 * of `inflateSync` (the handle is not there in this Node, the block is larger
 * than declared, the stream is corrupt), the block goes through `inflateSync`:
 * same bytes, same errors.
 */
import { constants, Inflate, inflateSync } from 'node:zlib';

/** The parts of Node's native zlib handle used here (lib/zlib.js's processChunkSync uses the same). */
interface NativeZlibHandle {
  writeSync(flush: number, input: Uint8Array, inputOffset: number, inputLength: number, output: Uint8Array, outputOffset: number, outputLength: number): void;
  reset(): void;
}

interface InflateInternals {
  _handle?: NativeZlibHandle | null;
  /** [output bytes left, input bytes left] after the last writeSync. */
  _writeState?: Uint32Array;
}

export class BlockInflater {
  private stream: (Inflate & InflateInternals) | undefined;
  private output = Buffer.alloc(0);

  /** Blocks inflated into the reused buffer (the rest went through inflateSync); for tests. */
  reusedBlocks = 0;

  /**
   * The inflated block. It may be a view of the reused buffer: valid until the
   * next call, so decode it (strings are copied out) before inflating another.
   * `rawSize` is the size the blob declares (0 when it declares none).
   */
  inflate(data: Uint8Array, rawSize: number, maxRawBytes: number): Uint8Array {
    if (rawSize <= 0 || rawSize > maxRawBytes) return inflateSync(data);
    // one byte more than declared, as inflateSync's chunkSize was: a block that fills it is larger than declared
    const capacity = Math.max(64, rawSize + 1);
    const handle = this.nativeHandle();
    if (!handle) return inflateSync(data, { chunkSize: capacity });
    if (this.output.length < capacity) this.output = Buffer.allocUnsafe(capacity);
    handle.reset();
    handle.writeSync(constants.Z_FINISH, data, 0, data.length, this.output, 0, capacity);
    const state = this.stream!._writeState;
    // a zlib error destroys the stream (synchronously, in the handle's onerror): let inflateSync throw its error
    if (this.stream!.destroyed || !state) {
      this.stream = undefined;
      return inflateSync(data, { chunkSize: capacity });
    }
    const outputLeft = state[0]!;
    if (outputLeft === 0) return inflateSync(data, { chunkSize: capacity });
    this.reusedBlocks++;
    return this.output.subarray(0, capacity - outputLeft);
  }

  /** Frees the zlib state and the buffer (the reader is done with the file). */
  close(): void {
    this.stream?.close();
    this.stream = undefined;
    this.output = Buffer.alloc(0);
  }

  private nativeHandle(): NativeZlibHandle | undefined {
    if (!this.stream) {
      this.stream = new Inflate() as Inflate & InflateInternals;
      // a corrupt block destroys the stream, which then emits its error: inflateSync reports it instead
      this.stream.on('error', () => {});
    }
    const handle = this.stream._handle;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(this.stream._writeState instanceof Uint32Array)) return undefined;
    return handle;
  }
}
