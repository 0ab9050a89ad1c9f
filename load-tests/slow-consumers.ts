/**
 * Slow consumers (issue 33, part 5): many WebSocket clients that never read, beside a few healthy ones, while the
 * server produces for all of them. Each healthy socket drives its own navigation session (a message of fixes every 100 ms,
 * answered by a progress frame per fix and an ack per message) while a loop re-plans the session (`POST
 * /navigation/recalculate`, once a second): every re-plan sends a route frame and a `rerouted` event to every
 * socket on the session, the slow ones included, so the slow sockets fill their kernel buffers and then the
 * server's.
 *
 * Measured: the server's resident set (/proc) and V8 heap (its metrics port) over time and their slope; the
 * healthy sockets' fix message → ack latency (p50, p99, max) and their events (every seq 1..n once, in order, n the
 * session's eventSeq); how many slow sockets the server closed as too slow (its log) and the most bytes it held
 * for one of them; and what each slow socket finds when it finally reads (the close code, if any).
 *
 * `runSlowConsumers` is the scenario against a started server (test/slow-consumer.int.test.ts runs it with 200
 * slow sockets); `runSlowConsumersLoad` is `npm run load -- slow-consumers`: 1 000 slow sockets, its own server.
 * SLOW_CONSUMERS=1000 HEALTHY_CONSUMERS=10 SLOW_CONSUMER_SECONDS=60 size a run.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { freePort, sharedDeploymentEnv } from '../bench/support.js';
import { apiClient, registerUser, type ApiClient } from '../test/support/api-client.js';
import { MemorySampler, type MemorySample, type ProcessGrowth } from './memory-samples.js';
import { NASR_CITY_PAIRS, pointAt, walkOf } from './route-walk.js';
import { openSlowSocket, type SlowSocket, type SlowSocketEnd } from './slow-socket.js';

export interface SlowConsumerServer {
  baseUrl: string;
  port: number;
  pid: number;
  metricsPort: number | undefined;
  /** The server's log lines so far (the too-slow closes are read from it). */
  output: readonly string[];
}

export interface SlowConsumerOptions {
  slowSockets: number;
  healthySockets: number;
  durationSeconds: number;
  sampleEveryMs: number;
  /** How long each slow socket reads at the end before it is counted as still open. */
  readBackMs: number;
  /** Fixes in each healthy message (every 100 ms): each gives a progress frame to every socket on the session. */
  fixesPerMessage: number;
  print?: (line: string) => void;
}

export interface SlowConsumerReport {
  loadAverage: string;
  samples: MemorySample[];
  growth: ProcessGrowth;
  /** Resident set just before the slow sockets opened (MB). */
  rssBeforeMb: number;
  healthy: {
    fixesSent: number;
    messagesSent: number;
    /** Fix messages never answered. */
    unanswered: number;
    /** Fix messages answered with an error frame. */
    refused: number;
    progressFrames: number;
    latencyP50Ms: number;
    latencyP99Ms: number;
    latencyMaxMs: number;
    /**
     * Per session: the session's eventSeq read at the end, the fix messages of its socket still unanswered then, and
     * the event seqs the socket had got (in arrival order) once it had every event up to that eventSeq.
     */
    sessions: { seqs: number[]; eventSeq: number; unansweredAtRead: number }[];
  };
  recalculations: number;
  /** Re-plans refused (429 throttle, 503 routing busy or over its budget) and retried. */
  replansRefused: number;
  /** Bytes of one route frame as a healthy socket received it (the largest seen). */
  routeFrameBytes: number;
  slow: {
    opened: number;
    /** Server log lines of sockets closed as too slow, as parsed (channel and the bytes held for the socket). */
    closedTooSlow: { heldBytes: number; bufferedBytes: number; queuedBytes: number }[];
    /** What the slow sockets found when they read at the end. */
    ends: SlowSocketEnd[];
  };
}

/** Each session is re-planned at most this often. */
const REPLAN_INTERVAL_MS = 1_000;
/** Each healthy socket sends a message of fixes this often. */
const FIX_INTERVAL_MS = 100;
const TOO_SLOW_LOG = 'stream reader too slow; closed';

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

interface HealthySession {
  token: string;
  sessionId: string;
  /** Where its fixes are: near the start of its route (the session never arrives). */
  at: [number, number];
  address: string;
}

async function createSession(api: ApiClient, index: number): Promise<HealthySession> {
  const { token } = await registerUser(api, `slow-consumer-${index}`);
  // not the last pair: there the once-a-second re-plan from the fixes' point leaves their road, so every fix
  // re-plans (an off-route and re-route loop, docs/reliability.md §5), which measures re-routing, not slow readers
  const pair = NASR_CITY_PAIRS[index % (NASR_CITY_PAIRS.length - 1)]!;
  const created = await api.post('/navigation/sessions', { origin: { lat: pair[0], lng: pair[1] }, destination: { lat: pair[2], lng: pair[3] } }, token);
  if (created.status !== 201) throw new Error(`session not created: ${created.status} ${JSON.stringify(created.body)}`);
  const at = pointAt(walkOf(created.body.routeShape as string), 20);
  // one client address per session: its fixes and re-plans count against their own throttles
  return { token, sessionId: created.body.sessionId as string, at, address: `198.51.100.${index + 1}` };
}

/** A healthy socket: reads everything, drives its session, measures fix message → ack latency. */
class HealthyDriver {
  readonly seqs: number[] = [];
  readonly latencies: number[] = [];
  routeFrameBytes = 0;
  fixesSent = 0;
  messagesSent = 0;
  /** Fix messages answered with an error frame (a full inbox: 429) instead of an ack. */
  refused = 0;
  progressFrames = 0;
  private readonly sentAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private capturedAt = Date.now() - 3_600_000;

  private constructor(
    private readonly socket: WebSocket,
    private readonly session: HealthySession,
    private readonly fixesPerMessage: number,
  ) {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { type: string; id?: string; event?: { seq: number } };
      if (frame.type === 'progress') this.progressFrames++;
      else if (frame.type === 'ack' || (frame.type === 'error' && frame.id !== undefined)) {
        if (frame.type === 'error') this.refused++;
        const sent = this.sentAt.get(frame.id!);
        if (sent !== undefined) this.latencies.push(performance.now() - sent);
        this.sentAt.delete(frame.id!);
      } else if (frame.type === 'event') this.seqs.push(frame.event!.seq);
      else if (frame.type === 'route') this.routeFrameBytes = Math.max(this.routeFrameBytes, data.length);
    });
  }

  static open(baseUrl: string, session: HealthySession, fixesPerMessage: number): Promise<HealthyDriver> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/v1/navigation/sessions/${session.sessionId}/stream?since=0`;
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${session.token}`, 'x-forwarded-for': session.address } });
    const driver = new HealthyDriver(socket, session, fixesPerMessage);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(driver));
      socket.once('error', reject);
    });
  }

  start(): void {
    this.timer = setInterval(() => this.sendFixes(), FIX_INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Messages not answered (yet). */
  get unanswered(): number {
    return this.sentAt.size;
  }

  private sendFixes(): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    // a metre or two of jitter around one point of the route; capturedAt rises so every fix is accepted
    const [lat, lng] = this.session.at;
    const fixes = Array.from({ length: this.fixesPerMessage }, () => {
      this.capturedAt += 1_000;
      return { lat: lat + (Math.random() - 0.5) * 2e-5, lng: lng + (Math.random() - 0.5) * 2e-5, speed: 0, capturedAt: new Date(this.capturedAt).toISOString() };
    });
    const id = String(++this.messagesSent);
    this.fixesSent += fixes.length;
    this.sentAt.set(id, performance.now());
    this.socket.send(JSON.stringify({ type: 'fixes', fixes, id }));
  }

  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close(1000);
    await closed;
  }
}

/** Parses the server's log lines for sockets it closed as too slow. */
export function tooSlowCloses(output: readonly string[]): SlowConsumerReport['slow']['closedTooSlow'] {
  return output
    .filter((line) => line.includes(TOO_SLOW_LOG))
    .map((line) => JSON.parse(line) as { heldBytes: number; bufferedBytes: number; queuedBytes: number })
    .map(({ heldBytes, bufferedBytes, queuedBytes }) => ({ heldBytes, bufferedBytes, queuedBytes }));
}

export async function runSlowConsumers(server: SlowConsumerServer, options: SlowConsumerOptions): Promise<SlowConsumerReport> {
  const print = options.print ?? (() => {});
  const api = apiClient(server.baseUrl);
  const sessions = await Promise.all(Array.from({ length: options.healthySockets }, (_, index) => createSession(api, index)));
  const drivers = await Promise.all(sessions.map((session) => HealthyDriver.open(server.baseUrl, session, options.fixesPerMessage)));

  const sampler = new MemorySampler([{ pid: server.pid, metricsPort: server.metricsPort }], options.sampleEveryMs, (taken) => {
    for (const sample of taken) print(`t=${round(sample.atSeconds, 0)}s rss=${round(sample.rssMb)} MB heap=${round(sample.heapUsedMb)} MB load=${loadavg()[0]!.toFixed(1)}`);
  });
  sampler.start();
  while (sampler.samples.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const rssBeforeMb = sampler.samples[0]!.rssMb;

  // the slow sockets, spread over the sessions; opened a batch at a time
  const slow: SlowSocket[] = [];
  for (let index = 0; index < options.slowSockets; index += 50) {
    const batch = Array.from({ length: Math.min(50, options.slowSockets - index) }, (_, offset) => {
      const session = sessions[(index + offset) % sessions.length]!;
      return openSlowSocket(server.port, `/api/v1/navigation/sessions/${session.sessionId}/stream`, { authorization: `Bearer ${session.token}`, 'x-forwarded-for': session.address });
    });
    slow.push(...(await Promise.all(batch)));
  }
  print(`${slow.length} slow sockets open, ${drivers.length} healthy`);

  for (const driver of drivers) driver.start();
  let recalculations = 0;
  let running = true;
  let replansRefused = 0;
  const replanners = sessions.map(async (session) => {
    while (running) {
      const startedAt = performance.now();
      const answer = await api.post('/navigation/recalculate', { sessionId: session.sessionId, current: { lat: session.at[0], lng: session.at[1] } }, session.token, { 'x-forwarded-for': session.address });
      if (answer.status === 429 || answer.status === 503) {
        // throttled, or the routing workers are busy (a shared machine): wait as told, count it
        replansRefused++;
        await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`recalculate answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      recalculations++;
      // one re-plan a second per session at most: the routing workers are shared with the rest of the server
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, REPLAN_INTERVAL_MS - (performance.now() - startedAt))));
    }
  });
  await new Promise((resolve) => setTimeout(resolve, options.durationSeconds * 1000));
  running = false;
  await Promise.all(replanners);
  for (const driver of drivers) driver.stop();
  // the last messages' answers
  for (let waited = 0; waited < 60_000 && drivers.some((driver) => driver.unanswered > 0); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  sampler.stop();
  const growth = sampler.growth()[0]!;
  const closedTooSlow = tooSlowCloses(server.output);

  const sessionsAtEnd = await Promise.all(
    sessions.map(async (session, index) => {
      // A GET is answered by the session's actor after every command queued before it, so it never trails what the
      // socket already got; but fix messages still waiting in the socket's inbox (unanswered) add events after it.
      // The socket then gets every event up to the eventSeq read (on its way over loopback: 15 s at most), and the
      // seqs are taken at that moment, not later (docs/reliability.md §5).
      const driver = drivers[index]!;
      const unansweredAtRead = driver.unanswered;
      const read = await api.get(`/navigation/sessions/${session.sessionId}`, session.token, { 'x-forwarded-for': session.address });
      if (read.status !== 200) throw new Error(`session read answered ${read.status}: ${JSON.stringify(read.body)}`);
      const eventSeq = read.body.eventSeq as number;
      for (let waited = 0; waited < 15_000 && driver.seqs.length < eventSeq; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      return { seqs: [...driver.seqs], eventSeq, unansweredAtRead };
    }),
  );
  const ends = await Promise.all(slow.map((socket) => socket.readToEnd(options.readBackMs)));
  await Promise.all(drivers.map((driver) => driver.close()));

  const latencies = drivers.flatMap((driver) => driver.latencies).sort((a, b) => a - b);
  return {
    loadAverage: loadavg().map((value) => value.toFixed(1)).join(' '),
    samples: sampler.samples,
    growth,
    rssBeforeMb,
    healthy: {
      fixesSent: drivers.reduce((sum, driver) => sum + driver.fixesSent, 0),
      messagesSent: drivers.reduce((sum, driver) => sum + driver.messagesSent, 0),
      unanswered: drivers.reduce((sum, driver) => sum + driver.unanswered, 0),
      refused: drivers.reduce((sum, driver) => sum + driver.refused, 0),
      progressFrames: drivers.reduce((sum, driver) => sum + driver.progressFrames, 0),
      latencyP50Ms: percentile(latencies, 0.5),
      latencyP99Ms: percentile(latencies, 0.99),
      latencyMaxMs: latencies[latencies.length - 1] ?? NaN,
      sessions: sessionsAtEnd,
    },
    recalculations,
    replansRefused,
    routeFrameBytes: Math.max(...drivers.map((driver) => driver.routeFrameBytes)),
    slow: { opened: slow.length, closedTooSlow, ends },
  };
}

/**
 * A healthy socket's events and its session agree: every seq once, in order, from 1, at least up to the eventSeq
 * read; exactly up to it when no fix message was still waiting then (nothing could add an event after the read).
 */
export function streamMatchesSession({ seqs, eventSeq, unansweredAtRead }: SlowConsumerReport['healthy']['sessions'][number]): boolean {
  const inOrder = seqs.every((seq, index) => seq === index + 1);
  return inOrder && (unansweredAtRead === 0 ? seqs.length === eventSeq : seqs.length >= eventSeq);
}

/** The report's lines, for the load runner and the test's output. */
export function describeReport(report: SlowConsumerReport): string[] {
  const ends = report.slow.ends;
  const codes = new Map<string, number>();
  for (const end of ends) {
    const key = end.closeCode !== undefined ? `close ${end.closeCode}` : end.ended ? 'ended without a close frame' : 'still open';
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  const held = report.slow.closedTooSlow.map((close) => close.heldBytes);
  const g = report.growth;
  const allInOrder = report.healthy.sessions.every(streamMatchesSession);
  return [
    `load average ${report.loadAverage}`,
    `rss before slow sockets ${round(report.rssBeforeMb)} MB; first ${round(g.rssFirstMb)}, max ${round(g.rssMaxMb)}, last ${round(g.rssLastMb)} MB; slope (later half) ${round(g.rssSlopeMbPerMinute, 2)} MB/min`,
    `heap first ${round(g.heapFirstMb)}, last ${round(g.heapLastMb)} MB; slope (later half) ${round(g.heapSlopeMbPerMinute, 2)} MB/min`,
    `re-plans ${report.recalculations}, refused and retried ${report.replansRefused} (route frame ${report.routeFrameBytes} B)`,
    `healthy: ${report.healthy.messagesSent} fix messages (${report.healthy.fixesSent} fixes), ${report.healthy.unanswered} unanswered, ${report.healthy.refused} refused, ${report.healthy.progressFrames} progress frames; message→ack p50 ${round(report.healthy.latencyP50Ms)} ms, p99 ${round(report.healthy.latencyP99Ms)} ms, max ${round(report.healthy.latencyMaxMs)} ms`,
    `healthy events: ${report.healthy.sessions.map(({ seqs, eventSeq, unansweredAtRead }) => `${seqs.length}/${eventSeq}${unansweredAtRead > 0 ? ` (${unansweredAtRead} messages queued)` : ''}`).join(' ')}; every seq 1..n once in order: ${allInOrder}`,
    `slow: ${report.slow.opened} opened; closed too slow by the server ${report.slow.closedTooSlow.length}; most held for one ${held.length ? Math.max(...held) : 0} B`,
    `slow sockets reading at the end: ${[...codes].map(([key, count]) => `${key}: ${count}`).join(', ')}; bytes read ${ends.reduce((sum, end) => sum + end.bytes, 0)}`,
  ];
}

const MAIN = process.env.BENCH_SERVER_SCRIPT || fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Starts the server with its log piped here (the too-slow closes are read from it); resolves once it listens. */
async function startLoggingServer(env: Record<string, string>): Promise<{ server: SlowConsumerServer; stop(): Promise<void> }> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env, PORT: String(port), METRICS_PORT: String(metricsPort) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not listen in 300 s')), 300_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    server: { baseUrl: `http://127.0.0.1:${port}`, port, pid: child.pid!, metricsPort, output },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `npm run load -- slow-consumers`: the scenario at the issue's size against a server of its own. */
export async function runSlowConsumersLoad(): Promise<boolean> {
  const slowSockets = Number(process.env.SLOW_CONSUMERS ?? 1_000);
  const healthySockets = Number(process.env.HEALTHY_CONSUMERS ?? 10);
  const durationSeconds = Number(process.env.SLOW_CONSUMER_SECONDS ?? 60);
  const fixesPerMessage = Number(process.env.SLOW_CONSUMER_FIXES_PER_MESSAGE ?? 5);
  const perSession = Math.ceil(slowSockets / healthySockets) + 1;
  const real = Boolean(process.env.DATABASE_URL);
  const { server, stop } = await startLoggingServer({
    DATA_DIR: 'memory://',
    ...(real ? sharedDeploymentEnv('slow') : { DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' }),
    TRUSTED_PROXIES: '127.0.0.1',
    WS_MAX_PER_USER: String(perSession),
    WS_MAX_PER_IP: String(perSession),
  });
  try {
    console.log(`# slow consumers: ${slowSockets} non-reading sockets, ${healthySockets} healthy (${fixesPerMessage} fixes / 100 ms each), ${durationSeconds} s, ${real ? 'real services' : 'embedded'}`);
    const report = await runSlowConsumers(server, { slowSockets, healthySockets, durationSeconds, sampleEveryMs: 5_000, readBackMs: 15_000, fixesPerMessage, print: (line) => console.log(line) });
    for (const line of describeReport(report)) console.log(line);
    return report.healthy.unanswered === 0 && report.healthy.sessions.every(streamMatchesSession);
  } finally {
    await stop();
  }
}
