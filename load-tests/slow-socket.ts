/**
 * WebSocket clients that never read: raw TCP sockets that send the upgrade request and then read nothing, so
 * whatever the server sends fills the kernel's buffers and then the server's own, as behind a phone in a tunnel
 * or a stuck browser tab. `readToEnd()` starts reading at last and parses what arrives: the 101 answer, the
 * frames, and the close frame when one comes (or the connection's end).
 *
 * The sockets live in a small python3 child (load-tests/slow-socket.py) because Node cannot set SO_RCVBUF or
 * TCP_MAXSEG: with the kernel's defaults on loopback a socket that is not read takes about 4 MB before the server
 * buffers a byte, more than a run could send to hundreds of sockets. With a 2 KiB receive buffer and 256-byte
 * segments, set before connect, the kernel holds about 45 KB (measured by the child at start: `kernelBytes`;
 * 4 KiB and 536 B: about 100 KB).
 * Used by load-tests/slow-consumers.ts (and through it test/slow-consumer.int.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface SlowSocketEnd {
  /** HTTP status of the handshake answer (101 when upgraded). */
  status: number;
  /** Data frames read (text or binary). */
  frames: number;
  /** Bytes read after the handshake answer. */
  bytes: number;
  /** The close frame's code, when the server sent one before the connection ended. */
  closeCode: number | undefined;
  closeReason: string | undefined;
  /** The connection ended (FIN or reset) within the wait. */
  ended: boolean;
  /** It ended with a reset. */
  reset: boolean;
}

export interface SlowSocketRequest {
  path: string;
  headers: Record<string, string>;
}

export interface SlowSocketOptions {
  /** SO_RCVBUF of each socket (the kernel doubles it). Default 2 KiB. */
  receiveBufferBytes?: number;
  /** TCP_MAXSEG of each socket: the server's segments, and so its send buffer, follow it. Default 256 B. */
  maxSegmentBytes?: number;
}

export interface SlowSockets {
  readonly count: number;
  /**
   * Sockets that were answered 101 and sent their first frame before `openSlowSockets` resolved (seen without
   * reading them): a stream sends its first frame once it watches its session, so from then on it is sent everything.
   */
  readonly streaming: number;
  /**
   * What the kernel took from a writer to one paused socket with these options (measured at start, on loopback):
   * about what it takes from the server for each slow socket before the server buffers anything itself.
   */
  readonly kernelBytes: number;
  /** Reads every socket until the server ends it or `timeoutMs` passes; one end per request, in order. */
  readToEnd(timeoutMs: number): Promise<SlowSocketEnd[]>;
  /** Closes every socket (the child exits). */
  destroy(): void;
}

const DEFAULT_RECEIVE_BUFFER_BYTES = 2 * 1024;
const DEFAULT_MAX_SEGMENT_BYTES = 256;

/** The helper beside this file (source runs) or in the source tree (dist-bench runs). */
function helperScript(): string {
  const candidates = [new URL('./slow-socket.py', import.meta.url), new URL('../../load-tests/slow-socket.py', import.meta.url)].map((url) => fileURLToPath(url));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`slow-socket.py not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** Opens one never-reading socket per request on `port`; resolves once every socket streams or was refused (60 s at most). */
export async function openSlowSockets(port: number, requests: readonly SlowSocketRequest[], options: SlowSocketOptions = {}): Promise<SlowSockets> {
  const child = spawn(process.env.PYTHON ?? 'python3', [helperScript()], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = lineReader(child, lines);
  child.stdin.write(
    `${JSON.stringify({
      port,
      receiveBufferBytes: options.receiveBufferBytes ?? DEFAULT_RECEIVE_BUFFER_BYTES,
      maxSegmentBytes: options.maxSegmentBytes ?? DEFAULT_MAX_SEGMENT_BYTES,
      requests,
    })}\n`,
  );
  const { kernelBytes } = (await next()) as { kernelBytes: number };
  const { opened, streaming } = (await next()) as { opened: number; streaming: number };
  return {
    count: opened,
    streaming,
    kernelBytes,
    readToEnd: async (timeoutMs) => {
      child.stdin.write(`${JSON.stringify({ readMs: timeoutMs })}\n`);
      const { ends } = (await next()) as { ends: (Omit<SlowSocketEnd, 'closeCode' | 'closeReason'> & { closeCode: number | null; closeReason: string | null })[] };
      return ends.map((end) => ({ ...end, closeCode: end.closeCode ?? undefined, closeReason: end.closeReason ?? undefined }));
    },
    destroy: () => {
      child.stdin.end();
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

/** The child's JSON lines, one per call; rejects when it exits first. */
function lineReader(child: ChildProcess, lines: Interface): () => Promise<unknown> {
  const queued: string[] = [];
  const waiting: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  let exited: Error | undefined;
  lines.on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(JSON.parse(line));
    else queued.push(line);
  });
  // 'close', not 'exit': its last lines are read by then
  child.once('close', (code, signal) => {
    exited = new Error(`slow-socket.py exited (${code ?? signal})`);
    for (const waiter of waiting.splice(0)) waiter.reject(exited);
  });
  child.once('error', (error) => {
    exited = error;
    for (const waiter of waiting.splice(0)) waiter.reject(error);
  });
  return () => {
    const line = queued.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    if (exited) return Promise.reject(exited);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}
