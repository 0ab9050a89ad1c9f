/**
 * An HTTP/1.1 load generator with a fixed send schedule (open loop), for latency at an offered rate.
 *
 * A closed-loop generator (wrk, autocannon) sends a connection's next request only when the previous answer came
 * back, so while the server stalls it also stops sending, and the requests that would have waited through the stall
 * are never measured (coordinated omission). Here every request has a scheduled send time fixed before the run
 * (connection `c` sends its `k`-th request at `(k + c / connections) × connections / rate`), and its latency is
 * counted from that time: a request that could not go out on time because its connection still waited for an answer
 * is sent as soon as the connection is free and its wait is part of its latency. Requests still unsent when the run
 * ends are counted with the time they had waited, so a server that falls behind cannot hide it.
 *
 * Cheap and measured apart: requests are encoded once, sockets are plain `net` sockets (no HTTP client objects), the
 * answer is read by scanning its head for the status and Content-Length, and the generator's own CPU time
 * (`process.cpuUsage()`) is reported beside the results. `rate: 'closed'` runs the same machinery as a closed loop
 * (next request on each answer), for the server's CPU per request at saturation.
 */
import { connect, type Socket } from 'node:net';

export interface OpenLoopOptions {
  host: string;
  port: number;
  /** Whole requests (request line, headers, blank line, body), cycled in order across the run. */
  requests: readonly Buffer[];
  connections: number;
  /** Offered requests per second across all connections, or 'closed' for a closed loop. */
  rate: number | 'closed';
  durationSeconds: number;
  warmupSeconds: number;
  /** Called between the warm-up and the measured run (e.g. to read the server's CPU counters). */
  beforeMeasuring?: () => void;
  /** Called when the measured run's schedule ends (before the last answers are awaited). */
  afterMeasuring?: () => void;
}

export interface OpenLoopResult {
  mode: 'open' | 'closed';
  /** Requests the schedule asked for in the measured run (open loop). */
  offered: number;
  /** Answers received for requests of the measured run. */
  completed: number;
  /** Requests scheduled but never sent or never answered by the end (counted in the percentiles, open loop). */
  late: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  /** The generator's own CPU over the measured run, ms (user + system, all its threads). */
  generatorCpuMs: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** How often the schedule is checked (ms); lateness of the timer itself counts in the latency, as it should. */
const TICK_MS = 1;
/** How long the last answers of a run are awaited (ms). */
const DRAIN_MS = 2000;

/** Finds the end of each answer in a byte stream of keep-alive responses (Content-Length framing). */
class ResponseReader {
  private pending: Buffer | undefined;

  /** Feeds bytes; calls `onResponse(status)` per complete answer. */
  feed(chunk: Buffer, onResponse: (status: number) => void): void {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    for (;;) {
      const headEnd = data.indexOf(HEAD_END);
      if (headEnd < 0) break;
      const head = data.toString('latin1', 0, headEnd);
      const status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const total = headEnd + 4 + (length ? Number(length[1]) : 0);
      if (data.length < total) break;
      onResponse(status);
      data = data.subarray(total);
      if (data.length === 0) return;
    }
    if (data.length) this.pending = Buffer.from(data);
  }
}

class Connection {
  readonly reader = new ResponseReader();
  busy = false;
  /** Scheduled send time of the request in flight or next to send, ms after the schedule's origin. */
  scheduledAt = 0;
  sentAt = 0;
  socket: Socket | undefined;
}

class Phase {
  latencies = new Float64Array(1 << 16);
  count = 0;
  completed = 0;
  non2xx = 0;
  errors = 0;

  record(ms: number): void {
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count++] = ms;
  }
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const closed = options.rate === 'closed';
  const intervalMs = closed ? 0 : (1000 * options.connections) / (options.rate as number);
  const connections = Array.from({ length: options.connections }, () => new Connection());
  const origin = performance.now();
  let next = 0;
  let measuring = false;
  let scheduling = true;
  let phase = new Phase();
  let measureFrom = 0;
  let measureUntil = Infinity;

  const send = (connection: Connection, now: number) => {
    connection.busy = true;
    connection.sentAt = now;
    connection.socket!.write(options.requests[next++ % options.requests.length]!);
  };
  const answered = (connection: Connection, status: number) => {
    const now = performance.now() - origin;
    const started = closed ? connection.sentAt : connection.scheduledAt;
    // an answer belongs to the phase its request was scheduled in
    if (measuring && started >= measureFrom && started < measureUntil) {
      phase.record(now - started);
      phase.completed++;
      if (status < 200 || status >= 400) phase.non2xx++;
    }
    connection.busy = false;
    connection.scheduledAt = closed ? now : connection.scheduledAt + intervalMs;
    if (scheduling && connection.scheduledAt <= now) send(connection, now);
  };

  await Promise.all(
    connections.map(
      (connection, index) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect({ host: options.host, port: options.port, noDelay: true });
          connection.socket = socket;
          connection.scheduledAt = closed ? 0 : (index * intervalMs) / options.connections;
          socket.once('connect', () => resolve());
          socket.once('error', reject);
          socket.on('data', (chunk: Buffer) => connection.reader.feed(chunk, (status) => answered(connection, status)));
          socket.on('error', () => {
            if (measuring) phase.errors++;
          });
        }),
    ),
  );
  // the schedule starts now that every connection is open
  const start = performance.now() - origin;
  for (const connection of connections) connection.scheduledAt += start;

  const tick = () => {
    const now = performance.now() - origin;
    for (const connection of connections) {
      if (!connection.busy && connection.scheduledAt <= now) send(connection, now);
    }
  };
  const run = (seconds: number) =>
    new Promise<void>((resolve) => {
      const timer = setInterval(tick, TICK_MS);
      setTimeout(() => {
        clearInterval(timer);
        resolve();
      }, seconds * 1000);
      tick();
    });

  await run(options.warmupSeconds);
  options.beforeMeasuring?.();
  phase = new Phase();
  measuring = true;
  measureFrom = performance.now() - origin;
  const cpuBefore = process.cpuUsage();
  await run(options.durationSeconds);
  measureUntil = performance.now() - origin;
  options.afterMeasuring?.();
  const generatorCpu = process.cpuUsage(cpuBefore);
  scheduling = false;
  // wait for the answers still due, then count whatever the schedule asked for and never got as late
  const drainUntil = performance.now() + DRAIN_MS;
  while (connections.some((connection) => connection.busy) && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 10));
  const end = performance.now() - origin;
  let late = 0;
  let offered = phase.completed;
  if (!closed) {
    offered = Math.round(((measureUntil - measureFrom) * (options.rate as number)) / 1000);
    for (const connection of connections) {
      for (let at = connection.scheduledAt; at < measureUntil; at += intervalMs) {
        if (at < measureFrom) continue;
        phase.record(end - at);
        late++;
      }
    }
  }
  for (const connection of connections) connection.socket!.destroy();

  const sorted = phase.latencies.subarray(0, phase.count).sort();
  const at = (quantile: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * quantile))]! : NaN);
  return {
    mode: closed ? 'closed' : 'open',
    offered,
    completed: phase.completed,
    late,
    requestsPerSecond: (phase.completed * 1000) / (measureUntil - measureFrom),
    p50Ms: at(0.5),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    p999Ms: at(0.999),
    maxMs: sorted.length ? sorted[sorted.length - 1]! : NaN,
    non2xx: phase.non2xx,
    errors: phase.errors,
    generatorCpuMs: (generatorCpu.user + generatorCpu.system) / 1000,
  };
}

/** Encodes a GET request once (keep-alive), with extra headers such as X-Forwarded-For. */
export function encodeGet(host: string, path: string, headers: Readonly<Record<string, string>> = {}): Buffer {
  let text = `GET ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  return Buffer.from(`${text}\r\n`, 'latin1');
}

/** Encodes a POST request with a JSON body once. */
export function encodePost(host: string, path: string, body: string, headers: Readonly<Record<string, string>> = {}): Buffer {
  const bytes = Buffer.from(body);
  let text = `POST ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n`;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  return Buffer.concat([Buffer.from(`${text}\r\n`, 'latin1'), bytes]);
}
