/**
 * Load scenario for navigation sessions (issue 7): N concurrent WebSocket
 * sessions, each sending one fix per second along its own real route through
 * Nasr City. Reports, for N = 1 000, 5 000 and 10 000, on the embedded
 * default (PGlite, in-process bus) and on the real services (Postgres,
 * Redis, NATS): p50/p99 fix→progress latency, server CPU, memory per
 * session, dropped progress frames and lost events. Target: 10 000 sessions
 * with p99 ≤ 50 ms and zero lost events.
 *
 * LOAD_NAV_SESSIONS=1000,5000 LOAD_NAV_BACKENDS=embedded,nats LOAD_DURATION_SECONDS=30 narrow a run;
 * BENCH_SERVER_SCRIPT runs another build's server (A/B runs against a reference build started the same way).
 * LOAD_NAV_SIDE_BY_SIDE=dist-a/main.js,dist/main.js runs one server process per build at the same time, both pinned
 * to the server's CPU and given every other session, and prints each one's CPU per fix: an A/B that meets the
 * machine's noise at the same moment instead of in turn (paths from the repository root; real services only). A
 * fix counts for the build its socket is on: right while each session stays where it was created (no takeovers).
 * Server CPU per fix is the server processes' own CPU (/proc) over the fixes answered in the window; the
 * generator's CPU is reported apart (its own process.cpuUsage()).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { inBatches, NASR_CITY_PAIRS as PAIRS, numberAfter, pointAt, walkOf, type RouteWalk } from './route-walk.js';
import WebSocket from 'ws';
import { clientAddress, conditions, freePort, pinLoadGenerator, round, sharedDeploymentEnv, startProcess, type StartedProcess } from '../bench/support.js';

const SESSIONS = (process.env.LOAD_NAV_SESSIONS ?? '1000,5000,10000').split(',').map(Number);
const SIDE_BY_SIDE = (process.env.LOAD_NAV_SIDE_BY_SIDE ?? '').split(',').filter(Boolean).map((path) => fileURLToPath(new URL(`../../${path}`, import.meta.url)));
// side by side is a deployment of two processes: the real services only
const BACKENDS = (SIDE_BY_SIDE.length > 0 ? ['nats'] : (process.env.LOAD_NAV_BACKENDS ?? 'embedded,nats').split(',')) as Backend[];
const DURATION_SECONDS = Number(process.env.LOAD_DURATION_SECONDS ?? 30);
/**
 * Server processes on the real services (NATS, Postgres, Redis), e.g. LOAD_NAV_PROCESSES=1,2: with 2, one
 * deployment of two processes on the same two cores (unpinned), each session created on and streamed from one of
 * them in turn, as a load balancer with session affinity would place it. The embedded default is one process.
 */
const PROCESSES = (process.env.LOAD_NAV_PROCESSES ?? '1').split(',').map(Number);
const TARGET_SESSIONS = 10_000;
const TARGET_P99_MS = 50;
/** Concurrent session creations and socket openings while setting up. */
const SETUP_CONCURRENCY = 64;
const MAIN = process.env.BENCH_SERVER_SCRIPT || fileURLToPath(new URL('../../dist/main.js', import.meta.url));

type Backend = 'embedded' | 'nats';

interface Client {
  socket: WebSocket;
  walk: RouteWalk;
  meters: number;
  sent: number;
  /** send time (ms) of fix k, at index k % ring */
  sentAt: Float64Array;
  progressSeen: number;
  lastEventSeq: number;
  serverEventSeq: number;
  duplicates: number;
  gaps: number;
  ended: boolean;
}

const RING = 64;
const FIX_PREFIX = '{"type":"fix","fix":{"lat":';
const FIX_MIDDLE = ',"lng":';
const FIX_SUFFIX = ',"speed":10}}';
const PROGRESS_PREFIX = '{"type":"progress","fixSeq":';

function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Busy share of all CPUs of the machine between two readings of /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = values[3]! + values[4]!;
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}


async function post(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

interface RunResult {
  backend: Backend;
  processes: number;
  sessions: number;
  connected: number;
  fixesSent: number;
  fixesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** The generator's own event-loop delay p99 (ms): latency it adds to what it measures. */
  generatorDelayP99: number;
  serverCpuPercent: number;
  /** Server CPU (all threads of the server processes) per fix answered in the window, µs. */
  serverCpuPerFixMicros: number;
  /** Per server process, in start order (LOAD_NAV_SIDE_BY_SIDE). */
  cpuPerFixMicrosByServer: number[];
  /** The load generator's own CPU (this process), % of one core. */
  generatorCpuPercent: number;
  machineCpuPercent: number;
  /** 1-minute load average at the end of the window. */
  loadAverage: number;
  bytesPerSession: number;
  droppedProgress: number;
  lostEvents: number;
  duplicateEvents: number;
  errors: number;
}

async function runOnce(backend: Backend, sessions: number, processes: number): Promise<RunResult> {
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const shared: Record<string, string> = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TRUSTED_PROXIES: '127.0.0.1',
    // every session is one user's, streamed from its own address (X-Forwarded-For): lift the per-user stream cap
    WS_MAX_PER_USER: '1000000',
    // one deployment: every process verifies the others' bearer tokens
    JWT_SECRET: `navigation-load-${suffix}-0123456789abcdef0123456789abcdef`,
    ...(backend === 'embedded'
      ? { DATA_DIR: 'memory://', DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' }
      : { DATA_DIR: 'memory://', ...sharedDeploymentEnv('load') }),
  };
  const servers: StartedProcess[] = [];
  // the first creates the schema; the others start on it. Several processes share both cores, as the OS places them.
  for (let index = 0; index < processes; index++) {
    const port = await freePort();
    const script = SIDE_BY_SIDE.length > 0 ? SIDE_BY_SIDE[index]! : MAIN;
    servers.push(await startProcess(script, [], port, { ...shared, PORT: String(port) }, processes > 1 && SIDE_BY_SIDE.length === 0 ? '0,1' : '0'));
  }
  const pids = servers.map((server) => server.child.pid!);
  const bases = servers.map((server) => `http://127.0.0.1:${server.port}/api/v1`);
  const base = bases[0]!;
  const clients: Client[] = [];
  let errors = 0;
  try {
    const { accessToken } = await post(base, '/auth/register', { email: `load.${suffix}@example.jo`, password: 'navigation-load-password' }, {});
    const auth = { authorization: `Bearer ${accessToken}` };
    // the first route of each process builds its car hierarchy
    for (const [index, processBase] of bases.entries()) {
      await post(processBase, '/navigation/sessions', { origin: { lat: PAIRS[0]![0], lng: PAIRS[0]![1] }, destination: { lat: PAIRS[0]![2], lng: PAIRS[0]![3] } }, { ...auth, 'x-forwarded-for': clientAddress(index) });
    }
    const rssBefore = sum(pids.map(rssBytes));
    const walks = new Map<string, RouteWalk>();
    const created: { id: string; walk: RouteWalk }[] = new Array(sessions);
    await inBatches(
      Array.from({ length: sessions }, (_, index) => index),
      SETUP_CONCURRENCY,
      async (index) => {
        const [a, b, c, d] = PAIRS[index % PAIRS.length]!;
        const session = await post(bases[index % processes]!, '/navigation/sessions', { origin: { lat: a, lng: b }, destination: { lat: c, lng: d } }, { ...auth, 'x-forwarded-for': clientAddress(index + 1) });
        let walk = walks.get(session.routeShape);
        if (!walk) walks.set(session.routeShape, (walk = walkOf(session.routeShape)));
        created[index] = { id: session.sessionId, walk };
      },
    );
    await inBatches(created, SETUP_CONCURRENCY, async ({ id, walk }, index) => {
      const socket = new WebSocket(`ws://127.0.0.1:${servers[index % processes]!.port}/api/v1/navigation/sessions/${id}/stream`, { headers: { ...auth, 'x-forwarded-for': clientAddress(index + 1) }, perMessageDeflate: false });
      // each starts somewhere along its route, so the fleet is spread over the map
      const client: Client = { socket, walk, meters: (index * 37) % Math.max(1, walk.along[walk.along.length - 1]! / 3), sent: 0, sentAt: new Float64Array(RING), progressSeen: 0, lastEventSeq: 0, serverEventSeq: 0, duplicates: 0, gaps: 0, ended: false };
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.on('message', (data: Buffer) => {
        const text = data.toString();
        // progress frames are most of the traffic: read the three fields by position instead of parsing
        // the whole frame, so the generator (sharing two cores with everything) is not the bottleneck
        if (text.startsWith(PROGRESS_PREFIX)) {
          const fixSeq = numberAfter(text, PROGRESS_PREFIX);
          const eventSeq = numberAfter(text, '"eventSeq":');
          // the server's eventSeq after this fix: every event up to it must arrive
          client.serverEventSeq = Math.max(client.serverEventSeq, eventSeq);
          if (!text.includes('"status":"active"')) client.ended = true;
          if (fixSeq > client.progressSeen) {
            // fixes the server answered in the window (a coalesced progress frame answers those it replaced too)
            if (measuring) answeredBy[index % processes] = answeredBy[index % processes]! + fixSeq - client.progressSeen;
            client.progressSeen = fixSeq;
            if (measuring && fixSeq <= client.sent) {
              const latency = performance.now() - client.sentAt[fixSeq % RING]!;
              latencies.push(latency);
              if (trace) secondMax = Math.max(secondMax, latency);
            }
          }
          return;
        }
        const frame = JSON.parse(text) as { type: string; event?: { seq: number } };
        if (frame.type === 'event') {
          const seq = frame.event!.seq;
          if (seq <= client.lastEventSeq) client.duplicates++;
          else if (seq > client.lastEventSeq + 1) client.gaps += seq - client.lastEventSeq - 1;
          client.lastEventSeq = Math.max(client.lastEventSeq, seq);
        } else if (frame.type === 'error') {
          errors++;
        }
      });
      socket.on('close', () => (client.ended = true));
      clients.push(client);
    });
    const rssConnected = sum(pids.map(rssBytes));

    // one fix per client per second, spread evenly over the second
    const latencies: number[] = [];
    // LOAD_NAV_TRACE=1 prints the worst latency of every second (finding stalls)
    const trace = process.env.LOAD_NAV_TRACE === '1';
    let secondMax = 0;
    const tracer = trace ? setInterval(() => {
      process.stderr.write(`${Math.round(secondMax)} `);
      secondMax = 0;
    }, 1000) : undefined;
    let measuring = false;
    let fixesSent = 0;
    /** Fixes answered in the window, per server process (of the sessions it was given). */
    const answeredBy = new Array<number>(processes).fill(0);
    const TICK_MS = 10;
    const slices = 1000 / TICK_MS;
    let tick = 0;
    const sendFix = (client: Client) => {
      if (client.ended || client.socket.readyState !== WebSocket.OPEN) return;
      const [lat, lng] = pointAt(client.walk, client.meters);
      client.meters += 10;
      client.sent++;
      // from the send, not the slot it was due in: the schedule never waits for answers (open loop), so a server
      // stall still shows in full, while this generator's own timer lateness (reported apart) does not
      client.sentAt[client.sent % RING] = performance.now();
      // the bytes JSON.stringify({ type: 'fix', fix: { lat, lng, speed: 10 } }) gives, without building the object
      client.socket.send(FIX_PREFIX + lat + FIX_MIDDLE + lng + FIX_SUFFIX);
      if (measuring) fixesSent++;
    };
    // an open-loop schedule: slice k is due at k × TICK_MS from the start; a late timer sends every slice due by
    // then (an interval timer alone drifts late under load, and offered ~3.5 % fewer fixes than the sessions' 1 Hz)
    const scheduleStart = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      for (let dueAt = scheduleStart + tick * TICK_MS; dueAt <= now; dueAt = scheduleStart + tick * TICK_MS) {
        const slice = tick++ % slices;
        for (let index = slice; index < clients.length; index += slices) sendFix(clients[index]!);
      }
    }, TICK_MS);
    // warm-up: every client sends a few fixes before measuring
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    measuring = true;
    // the generator shares a core with NATS, Redis and Postgres: its own stalls show up as latency, so report them
    const generatorDelay = monitorEventLoopDelay({ resolution: 5 });
    generatorDelay.enable();
    const cpuStartBy = pids.map(cpuSeconds);
    const generatorStart = process.cpuUsage();
    const machineStart = machineTicks();
    const startedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, DURATION_SECONDS * 1000));
    measuring = false;
    generatorDelay.disable();
    const elapsed = (performance.now() - startedAt) / 1000;
    const cpuUsedBy = pids.map((pid, index) => cpuSeconds(pid) - cpuStartBy[index]!);
    const cpuUsed = sum(cpuUsedBy);
    const fixesAnswered = sum(answeredBy);
    const generatorUsage = process.cpuUsage(generatorStart);
    const loadAverage = loadavg()[0]!;
    const machineEnd = machineTicks();
    clearInterval(timer);
    if (tracer) clearInterval(tracer);
    // let the last answers arrive before counting what never came
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    let droppedProgress = 0;
    let lostEvents = 0;
    let duplicateEvents = 0;
    for (const client of clients) {
      droppedProgress += Math.max(0, client.sent - client.progressSeen);
      lostEvents += client.gaps + Math.max(0, client.serverEventSeq - client.lastEventSeq);
      duplicateEvents += client.duplicates;
    }
    const sorted = Float64Array.from(latencies).sort();
    return {
      backend,
      processes,
      sessions,
      connected: clients.filter((client) => client.socket.readyState === WebSocket.OPEN).length,
      fixesSent,
      fixesPerSecond: fixesSent / elapsed,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      generatorDelayP99: generatorDelay.percentile(99) / 1e6,
      serverCpuPercent: (cpuUsed / elapsed) * 100,
      // per fix answered: a saturated server that falls behind has not done the work of the fixes still queued
      serverCpuPerFixMicros: fixesAnswered > 0 ? (cpuUsed * 1e6) / fixesAnswered : NaN,
      cpuPerFixMicrosByServer: cpuUsedBy.map((used, index) => (answeredBy[index]! > 0 ? (used * 1e6) / answeredBy[index]! : NaN)),
      generatorCpuPercent: ((generatorUsage.user + generatorUsage.system) / 1e6 / elapsed) * 100,
      loadAverage,
      machineCpuPercent: ((machineEnd.busy - machineStart.busy) / (machineEnd.total - machineStart.total)) * 100,
      bytesPerSession: (rssConnected - rssBefore) / sessions,
      droppedProgress,
      lostEvents,
      duplicateEvents,
      errors,
    };
  } finally {
    for (const client of clients) client.socket.terminate();
    // the first process made the schema; stop the others before it
    for (const server of servers.reverse()) await server.stop();
  }
}

export async function runNavigationLoad(): Promise<boolean> {
  const pinned = pinLoadGenerator();
  console.log(
    conditions({
      scenario: 'navigation sessions: N WebSocket sessions, one fix per second each along real Nasr City routes (8 origin/destination pairs)',
      load: `${DURATION_SECONDS} s measured after 5 s warm-up; bearer-token user, one X-Forwarded-For address per session`,
      server: SIDE_BY_SIDE.length > 0 ? `side by side: ${SIDE_BY_SIDE.join(', ')}` : MAIN,
      cpus: `${pinned}; with processes > 1 the servers run on CPUs 0 and 1 (unpinned between them), server_cpu_pct sums them${SIDE_BY_SIDE.length > 0 ? '; side by side: every build on CPU 0' : ''}`,
    }),
  );
  console.log('backend,processes,sessions,connected,fixes_per_s,p50_ms,p99_ms,max_ms,generator_loop_delay_p99_ms,server_cpu_pct,server_cpu_us_per_fix,generator_cpu_pct,machine_cpu_pct,load_avg_1m,kib_per_session,dropped_progress,lost_events,duplicate_events,errors,verdict');
  let met = true;
  const processCounts = SIDE_BY_SIDE.length > 0 ? [SIDE_BY_SIDE.length] : PROCESSES;
  const runs = BACKENDS.flatMap((backend) => (backend === 'nats' ? processCounts : [1]).map((processes) => ({ backend, processes })));
  for (const { backend, processes } of runs) {
    for (const sessions of SESSIONS) {
      const result = await runOnce(backend, sessions, processes);
      const ok = result.lostEvents === 0 && result.duplicateEvents === 0 && (sessions < TARGET_SESSIONS || result.p99 <= TARGET_P99_MS) && result.connected === sessions;
      met &&= ok;
      console.log(
        [
          backend,
          processes,
          sessions,
          result.connected,
          round(result.fixesPerSecond, 0),
          round(result.p50, 2),
          round(result.p99, 2),
          round(result.max, 1),
          round(result.generatorDelayP99, 1),
          round(result.serverCpuPercent, 1),
          round(result.serverCpuPerFixMicros, 1),
          round(result.generatorCpuPercent, 1),
          round(result.machineCpuPercent, 0),
          round(result.loadAverage, 2),
          round(result.bytesPerSession / 1024, 1),
          result.droppedProgress,
          result.lostEvents,
          result.duplicateEvents,
          result.errors,
          ok ? (sessions >= TARGET_SESSIONS ? 'met (p99 <= 50 ms, 0 lost)' : 'met (0 lost)') : 'missed',
        ].join(','),
      );
      if (backend === 'nats' && SIDE_BY_SIDE.length > 0) {
        SIDE_BY_SIDE.forEach((script, index) => console.log(`# side by side: ${script} server_cpu_us_per_fix=${round(result.cpuPerFixMicrosByServer[index]!, 1)}`));
      }
    }
  }
  return met;
}
