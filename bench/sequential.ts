/**
 * A sequential HTTP/1.1 client for latency benches: one keep-alive socket, one request at a time, requests encoded
 * before the run, answers framed by Content-Length without copying their bodies, latencies in a preallocated array.
 *
 * Why not `http.get`: a sequential p99 is 1 % of the requests, and the client's own pauses land in it as if the
 * server had made them. Node's HTTP client allocates a request, a response, headers and closures per call; in a
 * bench process that also holds the harness's modules, that garbage made the client run major GCs (concurrent
 * marking on its helper threads, then a mark-compact on its main thread) in the middle of the timed requests, and
 * perf showed the server's CPU idle through most requests over 5 ms (docs/benchmarks.md, session 21). This client
 * reads into one reused buffer and allocates nothing per request that outlives it.
 */
import { connect, type Socket } from 'node:net';

export interface SequentialOptions {
  host: string;
  port: number;
  /** Whole requests (request line, headers, blank line, body), sent in order; the warm-up ones first. */
  requests: readonly Buffer[];
  /** How many of `requests` (from the start) are sent before the timed ones. */
  warmup: number;
  /** A request not answered within this many ms fails the run (a bench must not hang). */
  timeoutMs?: number;
}

export interface SequentialResult {
  /** Latency of each timed request, ms, in the order sent. */
  latencies: Float64Array;
  /** Send time of each timed request on the monotonic clock (ms; the clock of `process.hrtime` and `perf -k CLOCK_MONOTONIC`). */
  sentAtMs: Float64Array;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** Timed answers whose status was not 2xx or 3xx. */
  non2xx: number;
  /** The client's own CPU over the timed requests, ms (user + system, all its threads). */
  generatorCpuMs: number;
}

const READ_BUFFER_BYTES = 256 * 1024;
const CR = 13;
const LF = 10;

/** Content-Length framing over a byte stream; the head is kept only until its blank line is seen. */
class AnswerFramer {
  private head: Buffer | undefined;
  private bodyLeft = -1;
  status = 0;

  /** Feeds bytes; returns how many bytes of `chunk` completed an answer (0 while it is incomplete). */
  feed(chunk: Buffer): number {
    let offset = 0;
    if (this.bodyLeft < 0) {
      const data = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      const end = headEnd(data);
      if (end < 0) {
        this.head = Buffer.from(data);
        return 0;
      }
      const text = data.toString('latin1', 0, end);
      this.head = undefined;
      if (/\r\ntransfer-encoding:\s*chunked/i.test(text)) throw new Error('sequential client: chunked answers are not framed here');
      this.status = Number(text.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
      this.bodyLeft = length ? Number(length[1]) : 0;
      // bytes of this chunk that belong to the head (the part of `data` before it came from earlier chunks)
      offset = end + 4 - (data.length - chunk.length);
    }
    const take = Math.min(this.bodyLeft, chunk.length - offset);
    this.bodyLeft -= take;
    if (this.bodyLeft > 0) return 0;
    this.bodyLeft = -1;
    return offset + take;
  }
}

function headEnd(data: Buffer): number {
  for (let index = data.indexOf(CR); index >= 0 && index + 3 < data.length; index = data.indexOf(CR, index + 1)) {
    if (data[index + 1] === LF && data[index + 2] === CR && data[index + 3] === LF) return index;
  }
  return -1;
}

export async function sequentialRequests(options: SequentialOptions): Promise<SequentialResult> {
  const timed = options.requests.length - options.warmup;
  if (timed <= 0) throw new Error('sequential client: no timed requests');
  const latencies = new Float64Array(timed);
  const sentAtMs = new Float64Array(timed);
  // performance.now() is the monotonic clock less this offset
  const monotonicOffsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const framer = new AnswerFramer();
  let next = 0;
  let sentAt = 0;
  let non2xx = 0;
  let cpuBefore: NodeJS.CpuUsage | undefined;
  let generatorCpuMs = 0;
  // every read lands in this one buffer (net's `onread`): no buffer, ArrayBuffer or external memory per read
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  let onBytes: (chunk: Buffer) => void = () => undefined;
  const socket: Socket = await new Promise((resolve, reject) => {
    const opened = connect({ host: options.host, port: options.port, noDelay: true, onread: { buffer: readBuffer, callback: (bytes) => { onBytes(readBuffer.subarray(0, bytes)); return true; } } });
    opened.once('connect', () => resolve(opened));
    opened.once('error', reject);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      const send = () => {
        if (next === options.warmup) cpuBefore = process.cpuUsage();
        sentAt = performance.now();
        timer?.refresh();
        socket.write(options.requests[next]!);
      };
      timer = setTimeout(() => fail(new Error(`sequential client: no answer to request ${next} within ${timeoutMs} ms`)), timeoutMs);
      socket.on('error', fail);
      socket.on('close', () => fail(new Error(`sequential client: the server closed the connection at request ${next}`)));
      onBytes = (chunk: Buffer) => {
        let rest = chunk;
        try {
          while (rest.length > 0) {
            const used = framer.feed(rest);
            if (used === 0) return;
            const ms = performance.now() - sentAt;
            if (next >= options.warmup) {
              latencies[next - options.warmup] = ms;
              sentAtMs[next - options.warmup] = sentAt + monotonicOffsetMs;
              if (framer.status < 200 || framer.status >= 400) non2xx++;
            }
            rest = rest.subarray(used);
            if (++next === options.requests.length) {
              const cpu = process.cpuUsage(cpuBefore);
              generatorCpuMs = (cpu.user + cpu.system) / 1000;
              clearTimeout(timer);
              resolve();
              return;
            }
            send();
          }
        } catch (error) {
          fail(error as Error);
        }
      };
      send();
    });
  } finally {
    socket.removeAllListeners('close');
    socket.destroy();
  }
  const sorted = latencies.slice().sort();
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * quantile))]!;
  return { latencies, sentAtMs, p50Ms: at(0.5), p99Ms: at(0.99), p999Ms: at(0.999), maxMs: sorted[sorted.length - 1]!, non2xx, generatorCpuMs };
}
