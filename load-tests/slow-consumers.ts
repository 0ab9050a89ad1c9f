/**
 * Slow consumers (issue 33, part 5): many WebSocket clients that never read, beside a few healthy ones, while the
 * server produces for all of them. Each healthy socket drives its own navigation session (a message of fixes every 100 ms,
 * answered by a progress frame per fix and an ack per message) while a loop re-plans the session (`POST
 * /navigation/recalculate`, every `replanIntervalMs`): every re-plan sends a route frame and a `rerouted` event to
 * every socket on the session, the slow ones included. The slow sockets have small kernel buffers
 * (load-tests/slow-socket.ts: ~45 KB each instead of ~4 MB), so they fill them and then the server's, and the run
 * goes on until every session has sent each of its slow sockets more route and event bytes than the kernel and
 * the server's cap together hold (`pushBytes`), or `durationSeconds` pass.
 *
 * Measured: the server's resident set (/proc) and V8 heap (its metrics port) over time and their slope; the
 * healthy sockets' fix message → ack latency (p50, p99, max) and their events (every seq 1..n once, in order, n the
 * session's eventSeq); how many slow sockets the server closed as too slow (its log) and the bytes it held for
 * each; what each slow socket finds when it finally reads (the close frame, or the connection's end); and per
 * slow socket the route and event bytes its session sent after it opened (what the server had to hold for it, less
 * what the kernel took).
 *
 * `runSlowConsumers` is the scenario against a started server (test/slow-consumer.int.test.ts runs it with 40
 * slow sockets); `runSlowConsumersLoad` is `npm run load -- slow-consumers`: 1 000 slow sockets, its own server.
 * SLOW_CONSUMERS=1000 HEALTHY_CONSUMERS=5 SLOW_CONSUMER_SECONDS=80 SLOW_CONSUMER_REPLAN_MS=100 size a run;
 * SLOW_CONSUMER_WAVES=2 runs it twice on one server (does the first wave's memory come back?).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { freePort, sharedDeploymentEnv } from '../bench/support.js';
import { apiClient, registerUser, type ApiClient } from '../test/support/api-client.js';
import { MemorySampler, heapUsedMb, rssMb, type MemorySample, type ProcessGrowth } from './memory-samples.js';
import { NASR_CITY_PAIRS, pointAt, walkOf } from './route-walk.js';
import { openSlowSockets, type SlowSocketEnd } from './slow-socket.js';

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
  /** Each session is re-planned at most this often (a route frame and an event to every socket on it). */
  replanIntervalMs: number;
  /**
   * The run ends early once every session has sent this many bytes of route and event frames after the slow
   * sockets opened (progress frames are not counted: they may coalesce). Default: the navigation cap plus twice
   * what the kernel takes per slow socket (`pushedPastCap`), plus two route frames.
   */
  pushBytes?: number;
  print?: (line: string) => void;
}

export interface SlowConsumerReport {
  loadAverage: string;
  samples: MemorySample[];
  growth: ProcessGrowth;
  /** Resident set just before the slow sockets opened (MB). */
  rssBeforeMb: number;
  /** Resident set and heap once the slow sockets had read to their end (MB): what their closes left. */
  afterReadBack: { rssMb: number; heapUsedMb: number };
  healthy: {
    fixesSent: number;
    messagesSent: number;
    /** Fix messages never answered. */
    unanswered: number;
    /** Fix messages answered with an error frame. */
    refused: number;
    /** Close codes of healthy sockets the server closed during the run (none expected). */
    closedEarly: number[];
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
  /** Seconds from the slow sockets' opening to the end of the re-plans. */
  pushSeconds: number;
  recalculations: number;
  /** Re-plans refused (429 throttle, 503 routing busy or over its budget) and retried. */
  replansRefused: number;
  /** Bytes of one route frame as a healthy socket received it (the largest seen). */
  routeFrameBytes: number;
  slow: {
    opened: number;
    /** What the kernel took from a writer to one paused socket like these (measured; loopback). */
    kernelBytes: number;
    /** Streams that ended having coalesced progress frames (the server's log), and how many frames they replaced. */
    coalesced: { streams: number; frames: number };
    /** Server log lines of sockets closed as too slow, as parsed (channel and the bytes held for the socket). */
    closedTooSlow: { channel: string; heldBytes: number; bufferedBytes: number; queuedBytes: number }[];
    /** What the slow sockets found when they read at the end. */
    ends: SlowSocketEnd[];
    /**
     * Per slow socket (in the order of `ends`): bytes of route and event frames its session sent after the slow
     * sockets opened, as the session's healthy socket got them. The server had to hold at least this, less what
     * the kernel took, for a slow socket it did not close.
     */
    pushedBytes: number[];
  };
}

/** Each healthy socket sends a message of fixes this often. */
const FIX_INTERVAL_MS = 100;
const TOO_SLOW_LOG = 'stream reader too slow; closed';
const COALESCED_LOG = 'progress frames were coalesced behind a slow reader';
/** What the server holds for one navigation socket before it closes it with 4408 (docs/navigation.md, "Backpressure"). */
export const NAVIGATION_MAX_HELD_BYTES = 1024 * 1024;
export const TOO_SLOW_CLOSE_CODE = 4408;
/** About one route frame of these sessions (7.6 KB). */
const ROUTE_FRAME_BYTES = 8 * 1024;

/**
 * The server had to hold more than the cap for a slow socket: its session sent it more route and event bytes than
 * the cap plus twice what the kernel takes (the kernel's share is measured with a writer of 8 KiB chunks; twice
 * allows for writes packed differently).
 */
export function pushedPastCap(pushedBytes: number, kernelBytes: number, capBytes = NAVIGATION_MAX_HELD_BYTES): boolean {
  return pushedBytes - 2 * kernelBytes > capBytes;
}

/** The slow socket saw the server close it: the close frame, or the connection's end (its close frame not flushed). */
export function closedByServer(end: SlowSocketEnd): boolean {
  return end.closeCode === TOO_SLOW_CLOSE_CODE || (end.closeCode === undefined && end.ended);
}

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
  /** Bytes of route, event and status frames (what every socket on the session is sent, never coalesced) since `countFromNow()`. */
  broadcastBytes = 0;
  /** The close code, when the socket was closed before the end of the run. */
  closedWith: number | undefined;
  fixesSent = 0;
  messagesSent = 0;
  /** Fix messages answered with an error frame (a full inbox: 429) instead of an ack. */
  refused = 0;
  progressFrames = 0;
  private readonly sentAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private capturedAt = Date.now() - 3_600_000;
  /** Our own close at the end (not counted in `closedWith`). */
  private closing = false;

  private constructor(
    private readonly socket: WebSocket,
    private readonly session: HealthySession,
    private readonly fixesPerMessage: number,
  ) {
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { type: string; id?: string; event?: { seq: number } };
      if (frame.type === 'event' || frame.type === 'route' || frame.type === 'status') this.broadcastBytes += data.length;
      if (frame.type === 'progress') this.progressFrames++;
      else if (frame.type === 'ack' || (frame.type === 'error' && frame.id !== undefined)) {
        if (frame.type === 'error') this.refused++;
        const sent = this.sentAt.get(frame.id!);
        if (sent !== undefined) this.latencies.push(performance.now() - sent);
        this.sentAt.delete(frame.id!);
      } else if (frame.type === 'event') this.seqs.push(frame.event!.seq);
      else if (frame.type === 'route') this.routeFrameBytes = Math.max(this.routeFrameBytes, data.length);
    });
    socket.once('close', (code: number) => {
      if (!this.closing) this.closedWith = code;
    });
  }

  countFromNow(): void {
    this.broadcastBytes = 0;
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
    this.closing = true;
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close(1000);
    await closed;
  }
}

/** Parses the server's log lines for streams that coalesced progress frames. */
function coalescedProgress(output: readonly string[]): { streams: number; frames: number } {
  const lines = output.filter((line) => line.includes(COALESCED_LOG)).map((line) => JSON.parse(line) as { coalesced: number });
  return { streams: lines.length, frames: lines.reduce((sum, line) => sum + line.coalesced, 0) };
}

/** Parses the server's log lines for sockets it closed as too slow. */
export function tooSlowCloses(output: readonly string[]): SlowConsumerReport['slow']['closedTooSlow'] {
  return output
    .filter((line) => line.includes(TOO_SLOW_LOG))
    .map((line) => JSON.parse(line) as { channel: string; heldBytes: number; bufferedBytes: number; queuedBytes: number })
    .map(({ channel, heldBytes, bufferedBytes, queuedBytes }) => ({ channel, heldBytes, bufferedBytes, queuedBytes }));
}

export async function runSlowConsumers(server: SlowConsumerServer, options: SlowConsumerOptions): Promise<SlowConsumerReport> {
  const print = options.print ?? (() => {});
  // the server's log from here on (an earlier run on the same server logged its own closes)
  const logFrom = server.output.length;
  const api = apiClient(server.baseUrl);
  const sessions = await Promise.all(Array.from({ length: options.healthySockets }, (_, index) => createSession(api, index)));
  const drivers = await Promise.all(sessions.map((session) => HealthyDriver.open(server.baseUrl, session, options.fixesPerMessage)));

  const sampler = new MemorySampler([{ pid: server.pid, metricsPort: server.metricsPort }], options.sampleEveryMs, (taken) => {
    for (const sample of taken) print(`t=${round(sample.atSeconds, 0)}s rss=${round(sample.rssMb)} MB heap=${round(sample.heapUsedMb)} MB load=${loadavg()[0]!.toFixed(1)}`);
  });
  sampler.start();
  while (sampler.samples.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const rssBeforeMb = sampler.samples[0]!.rssMb;

  // the slow sockets, spread over the sessions (slow socket i watches session i mod n)
  const sessionOfSlow = (index: number) => index % sessions.length;
  const slow = await openSlowSockets(
    server.port,
    Array.from({ length: options.slowSockets }, (_, index) => {
      const session = sessions[sessionOfSlow(index)]!;
      return { path: `/api/v1/navigation/sessions/${session.sessionId}/stream`, headers: { authorization: `Bearer ${session.token}`, 'x-forwarded-for': session.address } };
    }),
  );
  const pushBytes = options.pushBytes ?? NAVIGATION_MAX_HELD_BYTES + 2 * slow.kernelBytes + 2 * ROUTE_FRAME_BYTES;
  if (slow.streaming !== slow.count) throw new Error(`${slow.count - slow.streaming} of ${slow.count} slow sockets were refused or did not start streaming`);
  print(`${slow.count} slow sockets streaming (the kernel takes ${slow.kernelBytes} B of each), ${drivers.length} healthy; pushing ${pushBytes} B of route and event frames to each`);
  const pushStartedAt = performance.now();
  for (const driver of drivers) driver.countFromNow();

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
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, options.replanIntervalMs - (performance.now() - startedAt))));
    }
  });
  // until every session has pushed its slow sockets past the kernel and the cap, or the time is up
  const deadline = performance.now() + options.durationSeconds * 1000;
  while (performance.now() < deadline && drivers.some((driver) => driver.broadcastBytes < pushBytes)) await new Promise((resolve) => setTimeout(resolve, 200));
  running = false;
  await Promise.all(replanners);
  const pushSeconds = (performance.now() - pushStartedAt) / 1000;
  for (const driver of drivers) driver.stop();
  // the last messages' answers
  for (let waited = 0; waited < 60_000 && drivers.some((driver) => driver.unanswered > 0); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  sampler.stop();
  const growth = sampler.growth()[0]!;
  const closedTooSlow = tooSlowCloses(server.output.slice(logFrom));

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
  const pushedBytes = Array.from({ length: slow.count }, (_, index) => drivers[sessionOfSlow(index)]!.broadcastBytes);
  const ends = await slow.readToEnd(options.readBackMs);
  slow.destroy();
  const afterReadBack = { rssMb: rssMb(server.pid), heapUsedMb: await heapUsedMb(server.metricsPort) };
  await Promise.all(drivers.map((driver) => driver.close()));

  const latencies = drivers.flatMap((driver) => driver.latencies).sort((a, b) => a - b);
  return {
    loadAverage: loadavg().map((value) => value.toFixed(1)).join(' '),
    samples: sampler.samples,
    growth,
    rssBeforeMb,
    afterReadBack,
    healthy: {
      fixesSent: drivers.reduce((sum, driver) => sum + driver.fixesSent, 0),
      messagesSent: drivers.reduce((sum, driver) => sum + driver.messagesSent, 0),
      unanswered: drivers.reduce((sum, driver) => sum + driver.unanswered, 0),
      refused: drivers.reduce((sum, driver) => sum + driver.refused, 0),
      closedEarly: drivers.flatMap((driver) => (driver.closedWith === undefined ? [] : [driver.closedWith])),
      progressFrames: drivers.reduce((sum, driver) => sum + driver.progressFrames, 0),
      latencyP50Ms: percentile(latencies, 0.5),
      latencyP99Ms: percentile(latencies, 0.99),
      latencyMaxMs: latencies[latencies.length - 1] ?? NaN,
      sessions: sessionsAtEnd,
    },
    pushSeconds,
    recalculations,
    replansRefused,
    routeFrameBytes: Math.max(...drivers.map((driver) => driver.routeFrameBytes)),
    slow: { opened: slow.count, kernelBytes: slow.kernelBytes, coalesced: coalescedProgress(server.output.slice(logFrom)), closedTooSlow, ends, pushedBytes },
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

/** What the slow sockets showed, black-box and in the server's log, as the test and the load run judge it. */
export interface SlowVerdict {
  /** Slow sockets whose session sent them more than the cap and the kernel hold together. */
  pushedPastCap: number;
  /** Of those, the ones that did not see the server close them (none expected). */
  pushedButOpen: number;
  /** Slow sockets that saw the server close them (close frame 4408, or the connection's end). */
  closedSeen: number;
  /** Close frames with another code than 4408 (none expected). */
  otherCodes: number[];
  /** The server's log lines of navigation sockets closed as too slow. */
  closedLogged: number;
  /** Logged closes holding more than the cap plus one route frame, or not more than the cap (none expected). */
  heldOutsideCap: number;
}

export function judgeSlowSockets(report: SlowConsumerReport): SlowVerdict {
  const { ends, pushedBytes, kernelBytes, closedTooSlow } = report.slow;
  const pushed = ends.filter((_, index) => pushedPastCap(pushedBytes[index]!, kernelBytes));
  const logged = closedTooSlow.filter((close) => close.channel === 'navigation');
  return {
    pushedPastCap: pushed.length,
    pushedButOpen: pushed.filter((end) => !closedByServer(end)).length,
    closedSeen: ends.filter(closedByServer).length,
    otherCodes: ends.flatMap((end) => (end.closeCode !== undefined && end.closeCode !== TOO_SLOW_CLOSE_CODE ? [end.closeCode] : [])),
    closedLogged: logged.length,
    heldOutsideCap: logged.filter((close) => close.heldBytes <= NAVIGATION_MAX_HELD_BYTES || close.heldBytes > NAVIGATION_MAX_HELD_BYTES + report.routeFrameBytes).length,
  };
}

/**
 * Some slow sockets were pushed past the cap (all, when the machine kept up), every one of those saw the close,
 * the server logged each close it made and held no more than the cap.
 */
export function slowSocketsHeld(verdict: SlowVerdict): boolean {
  return (
    verdict.pushedPastCap > 0 &&
    verdict.pushedButOpen === 0 &&
    verdict.otherCodes.length === 0 &&
    verdict.closedLogged === verdict.closedSeen &&
    verdict.heldOutsideCap === 0
  );
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
  const closedEnds = ends.filter(closedByServer);
  const verdict = judgeSlowSockets(report);
  const pushed = [...report.slow.pushedBytes].sort((a, b) => a - b);
  const g = report.growth;
  const allInOrder = report.healthy.sessions.every(streamMatchesSession);
  return [
    `load average ${report.loadAverage}`,
    `rss before slow sockets ${round(report.rssBeforeMb)} MB; first ${round(g.rssFirstMb)}, max ${round(g.rssMaxMb)}, last ${round(g.rssLastMb)} MB; slope (later half) ${round(g.rssSlopeMbPerMinute, 2)} MB/min`,
    `heap first ${round(g.heapFirstMb)}, last ${round(g.heapLastMb)} MB; slope (later half) ${round(g.heapSlopeMbPerMinute, 2)} MB/min; after the slow sockets' read-back: rss ${round(report.afterReadBack.rssMb)} MB, heap ${round(report.afterReadBack.heapUsedMb)} MB`,
    `re-plans ${report.recalculations}, refused and retried ${report.replansRefused} (route frame ${report.routeFrameBytes} B)`,
    `healthy: ${report.healthy.messagesSent} fix messages (${report.healthy.fixesSent} fixes), ${report.healthy.unanswered} unanswered, ${report.healthy.refused} refused, ${report.healthy.progressFrames} progress frames; message→ack p50 ${round(report.healthy.latencyP50Ms)} ms, p99 ${round(report.healthy.latencyP99Ms)} ms, max ${round(report.healthy.latencyMaxMs)} ms`,
    `healthy events: ${report.healthy.sessions.map(({ seqs, eventSeq, unansweredAtRead }) => `${seqs.length}/${eventSeq}${unansweredAtRead > 0 ? ` (${unansweredAtRead} messages queued)` : ''}`).join(' ')}; every seq 1..n once in order: ${allInOrder}`,
    `slow: ${report.slow.opened} opened (kernel takes ${report.slow.kernelBytes} B each); route and event bytes sent to each ${pushed[0] ?? 0}–${pushed[pushed.length - 1] ?? 0} B in ${round(report.pushSeconds)} s; pushed past the cap and the kernel: ${verdict.pushedPastCap}, of them not closed: ${verdict.pushedButOpen}`,
    `server log: closed too slow ${report.slow.closedTooSlow.length} (${[...new Set(report.slow.closedTooSlow.map((close) => close.channel))].join(', ') || 'none'}); held at the close ${held.length ? Math.min(...held) : 0}–${held.length ? Math.max(...held) : 0} B (cap ${NAVIGATION_MAX_HELD_BYTES} B); streams that coalesced progress frames ${report.slow.coalesced.streams} (${report.slow.coalesced.frames} frames replaced)`,
    `slow sockets reading at the end: ${[...codes].map(([key, count]) => `${key}: ${count}`).join(', ')}; closed by the server ${closedEnds.length}, bytes read each ${closedEnds.length ? Math.round(closedEnds.reduce((sum, end) => sum + end.bytes, 0) / closedEnds.length) : 0} on average (max ${Math.max(0, ...ends.map((end) => end.bytes))})`,
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
  // 200 slow sockets a session: every re-plan goes to all of them, so fewer sessions push them past the cap sooner
  const healthySockets = Number(process.env.HEALTHY_CONSUMERS ?? 5);
  // at most: the run ends once every slow socket was sent past the cap (and before uWS's 120 s idle close)
  const durationSeconds = Number(process.env.SLOW_CONSUMER_SECONDS ?? 80);
  const fixesPerMessage = Number(process.env.SLOW_CONSUMER_FIXES_PER_MESSAGE ?? 2);
  const replanIntervalMs = Number(process.env.SLOW_CONSUMER_REPLAN_MS ?? 100);
  const waves = Number(process.env.SLOW_CONSUMER_WAVES ?? 1);
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
    console.log(
      `# slow consumers: ${slowSockets} non-reading sockets, ${healthySockets} healthy (${fixesPerMessage} fixes / 100 ms each), a re-plan per session every ${replanIntervalMs} ms, at most ${durationSeconds} s, ${real ? 'real services' : 'embedded'}`,
    );
    // SLOW_CONSUMER_WAVES=2: the same again on the same server, to see whether the first wave's memory came back
    let allHeld = true;
    for (let wave = 1; wave <= waves; wave++) {
      if (waves > 1) console.log(`## wave ${wave} of ${waves}`);
      const report = await runSlowConsumers(server, { slowSockets, healthySockets, durationSeconds, sampleEveryMs: 5_000, readBackMs: 15_000, fixesPerMessage, replanIntervalMs, print: (line) => console.log(line) });
      for (const line of describeReport(report)) console.log(line);
      const healthyWhole = report.healthy.unanswered === 0 && report.healthy.closedEarly.length === 0 && report.healthy.sessions.every(streamMatchesSession);
      allHeld = healthyWhole && slowSocketsHeld(judgeSlowSockets(report)) && allHeld;
    }
    return allHeld;
  } finally {
    await stop();
  }
}
