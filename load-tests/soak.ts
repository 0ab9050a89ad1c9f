/**
 * The mixed-load soak (issue #33): open-loop traffic of the realistic mix — autocomplete, search, place detail,
 * vector tiles, routing, matrix, navigation sessions streaming over WebSocket, optimization jobs and key
 * management — against two server processes on one port (REUSE_PORT) on the real Postgres, Redis and NATS.
 * Prints, per family, requests, p50/p99 from the scheduled send time and counts per status; the memory of each
 * server process every sample period with its slope; the servers' CPU and the generator's apart.
 *
 * `npm run load -- soak`. LOAD_SOAK_SECONDS (default 600), LOAD_SOAK_SCALE (multiplies every rate of the mix,
 * default 1), LOAD_SOAK_SESSIONS (navigation sessions, default 100 × scale), LOAD_SOAK_ONLY=keys,tiles (some families only, for diagnosis), LOAD_SOAK_FIND=1 (first step the
 * scale up, 30 s a step, until a step has errors or a p99 over its bound, and print the sustainable scale).
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientAddress, conditions, freePort, processCpuMs, round, sharedDeploymentEnv, startProcess, type StartedProcess } from '../bench/support.js';
import { MemorySampler, type MemorySample, type ProcessGrowth } from './memory-samples.js';
import { driveOpenLoop, HttpClient, OutcomeRecorder, requestFamily, type FamilySummary, type HttpCall, type OpenLoopFamily } from './open-loop.js';
import { NASR_CITY_PAIRS } from './route-walk.js';
import { SoakNavigation, type NavigationTotals } from './soak-navigation.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository: this file runs compiled from dist-bench/load-tests or as source from load-tests (tests). */
const ROOT = here.includes('/dist-bench/') ? resolve(here, '../..') : resolve(here, '..');
const MAIN = resolve(ROOT, 'dist/main.js');
const ADMIN = resolve(ROOT, 'dist/cli/admin.js');
const API = '/api/v1';

/** Requests per second of each family at scale 1 (navigation: sessions, one fix a second each). */
export const BASE_MIX = {
  autocomplete: 20,
  search: 5,
  placeDetail: 5,
  tiles: 10,
  routing: 5,
  matrix: 1,
  optimizationJobs: 0.5,
  keyManagement: 0.2,
  navigationSessions: 100,
} as const;

/**
 * p99 bounds (ms) a step of the rate finder must hold, per family prefix; anything else: 1 000 ms. A `fast` job
 * searches for its whole 2 s budget (TIER_BUDGET_MS) and is polled once a second, so submit → done is never under
 * ~3 s: its bound is that plus a short queue (at scale 1 the jobs alone ask one core-second a second).
 */
const P99_BOUNDS_MS: Record<string, number> = {
  autocomplete: 250,
  search: 500,
  'place-detail': 250,
  tiles: 500,
  routing: 500,
  matrix: 1_000,
  'navigation.fix': 250,
  'optimization-jobs.done': 10_000,
};

export interface SoakOptions {
  durationSeconds: number;
  warmupSeconds: number;
  scale: number;
  navigationSessions: number;
  processes: number;
  sampleSeconds: number;
  /** Only these families of the HTTP mix (diagnosis); default all. */
  only?: string[];
  /** Another build's server (A/B); default this checkout's dist/main.js. */
  serverScript?: string;
  log?: (line: string) => void;
}

export interface SoakResult {
  options: SoakOptions;
  families: FamilySummary[];
  failureExamples: Record<string, string>;
  navigation: NavigationTotals;
  jobs: { accepted: number; completed: number; failed: number; stillRunning: number };
  memory: MemorySample[];
  growth: ProcessGrowth[];
  serverCpuSeconds: number;
  generatorCpuSeconds: number;
  measuredSeconds: number;
}

const AUTOCOMPLETE_TEXTS = ['abbas', 'nasr', 'makram', 'tayaran', 'zaker', 'مكرم', 'عباس', 'الطيران', 'مصطفى', 'ahmed', 'youssef', 'ش', 'el n', 'city st'];
const SEARCH_TEXTS = ['pharmacy', 'bank', 'cafe', 'restaurant', 'صيدلية', 'مسجد', '7amza', 'hospital', 'school', 'fuel'];
/** Tiles over Nasr City at zooms 12–14 (the default pack's area). */
const TILES = tilesOver(30.04, 31.3, 30.09, 31.37, [12, 13, 14]);

function tilesOver(south: number, west: number, north: number, east: number, zooms: number[]): string[] {
  const tiles: string[] = [];
  for (const z of zooms) {
    const n = 2 ** z;
    const x = (lng: number) => Math.floor(((lng + 180) / 360) * n);
    const y = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
    for (let tx = x(west); tx <= x(east); tx++) for (let ty = y(north); ty <= y(south); ty++) tiles.push(`${z}/${tx}/${ty}`);
  }
  return tiles;
}

/** A point along the diagonal of Nasr City: the bias point moves with every request, as a moving client's would. */
function movingPoint(index: number): { lat: number; lon: number } {
  const t = (index % 997) / 997;
  return { lat: round(30.045 + 0.04 * t, 5), lon: round(31.305 + 0.06 * t, 5) };
}

async function json(client: HttpClient, call: HttpCall): Promise<any> {
  const answer = await client.call(call);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${call.method} ${call.path} → ${answer.status} ${answer.failure ?? answer.body.slice(0, 300)}`);
  return answer.body ? JSON.parse(answer.body) : undefined;
}

interface Deployment {
  port: number;
  servers: StartedProcess[];
  metricsPorts: number[];
  env: Record<string, string>;
}

async function startDeployment(options: SoakOptions): Promise<Deployment> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...sharedDeploymentEnv('soak'),
    REUSE_PORT: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: 'memory://',
    WS_MAX_PER_USER: '1000000',
  };
  const servers: StartedProcess[] = [];
  const metricsPorts: number[] = [];
  try {
    // the first creates the schema, the others join it; both share both cores, as the OS places them
    for (let index = 0; index < options.processes; index++) {
      const metricsPort = await freePort();
      metricsPorts.push(metricsPort);
      servers.push(await startProcess(options.serverScript ?? MAIN, [], port, { ...env, METRICS_PORT: String(metricsPort) }, '0,1'));
    }
  } catch (error) {
    for (const server of servers.reverse()) await server.stop();
    throw error;
  }
  return { port, servers, metricsPorts, env };
}

interface Callers {
  bearer: Record<string, string>;
  /** Several users submit the jobs: one caller may hold 10 open jobs, and a loaded run keeps jobs open longer. */
  jobSubmitters: Record<string, string>[];
  apiKey: Record<string, string>;
  projectId: string;
  placeSlugs: string[];
}

async function setUpCallers(client: HttpClient, deployment: Deployment): Promise<Callers> {
  const suffix = `${process.pid}.${Date.now().toString(36)}`;
  const { accessToken } = await json(client, { method: 'POST', path: `${API}/auth/register`, body: JSON.stringify({ email: `soak.${suffix}@example.jo`, password: 'soak-test-password' }) });
  const bearer = { authorization: `Bearer ${accessToken}` };
  await json(client, { method: 'POST', path: `${API}/developer/enroll`, headers: bearer });
  const organization = await json(client, { method: 'POST', path: `${API}/developer/organizations`, headers: bearer, body: JSON.stringify({ name: 'Soak' }) });
  const project = await json(client, { method: 'POST', path: `${API}/developer/projects`, headers: bearer, body: JSON.stringify({ name: 'Soak', organizationId: organization.id }) });
  const key = await json(client, { method: 'POST', path: `${API}/developer/api-keys`, headers: bearer, body: JSON.stringify({ projectId: project.id, label: 'soak' }) });
  // the mix is one customer's traffic: its key is given quotas above the run's volume, as an operator would
  execFileSync(process.execPath, [ADMIN, 'key-quotas', key.id, '--per-minute', '1000000000', '--per-day', '2000000000'], { env: { ...process.env, ...deployment.env }, stdio: 'ignore' });
  const apiKey = { 'x-api-key': key.key as string };
  const jobSubmitters = [bearer];
  for (let user = 1; user < 6; user++) {
    const registered = await json(client, { method: 'POST', path: `${API}/auth/register`, body: JSON.stringify({ email: `soak.${suffix}.jobs${user}@example.jo`, password: 'soak-test-password' }) });
    jobSubmitters.push({ authorization: `Bearer ${registered.accessToken}` });
  }
  const places = await json(client, { method: 'GET', path: `${API}/places?limit=50`, headers: apiKey });
  const placeSlugs = (places.items ?? places.data ?? []).map((place: { slug: string }) => place.slug).filter(Boolean);
  if (placeSlugs.length === 0) throw new Error('the catalogue answered no places to ask for');
  return { bearer, jobSubmitters, apiKey, projectId: project.id, placeSlugs };
}

/** Jobs submitted at their rate, each polled once a second until it is no longer running. */
function optimizationJobs(rate: number, client: HttpClient, recorder: OutcomeRecorder, callers: Callers, tally: SoakResult['jobs']): OpenLoopFamily {
  return {
    name: 'optimization-jobs',
    ratePerSecond: rate,
    async run(index, scheduledAt) {
      const stops = NASR_CITY_PAIRS.slice(0, 3 + (index % 4)).map(([lat, lng]) => ({ lat, lng }));
      const submitter = callers.jobSubmitters[index % callers.jobSubmitters.length]!;
      const submitted = await client.call({ method: 'POST', path: `${API}/optimize/jobs`, headers: { ...submitter, 'x-forwarded-for': clientAddress(index % 200) }, body: JSON.stringify({ kind: 'routes', stops, tier: 'fast' }) });
      recorder.record('optimization-jobs.submit', submitted.status, performance.now() - scheduledAt, submitted.failure ?? submitted.body.slice(0, 200));
      if (submitted.status !== 201) return;
      tally.accepted++;
      const { jobId } = JSON.parse(submitted.body) as { jobId: string };
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const polledAt = performance.now();
        const polled = await client.call({ method: 'GET', path: `${API}/optimize/jobs/${jobId}`, headers: submitter });
        recorder.record('optimization-jobs.poll', polled.status, performance.now() - polledAt, polled.failure ?? polled.body.slice(0, 200));
        if (polled.status !== 200) continue;
        const status = (JSON.parse(polled.body) as { status: string }).status;
        if (status === 'running') continue;
        if (status === 'completed') tally.completed++;
        else tally.failed++;
        tally.stillRunning = tally.accepted - tally.completed - tally.failed;
        recorder.record('optimization-jobs.done', status === 'completed' ? 200 : 500, performance.now() - scheduledAt, status);
        return;
      }
    },
  };
}

/** Key management: create a key, list the project's keys, revoke the new key. */
function keyManagement(rate: number, client: HttpClient, recorder: OutcomeRecorder, callers: Callers): OpenLoopFamily {
  return {
    name: 'keys',
    ratePerSecond: rate,
    async run(index, scheduledAt) {
      const headers = { ...callers.bearer, 'x-forwarded-for': clientAddress(1_000 + (index % 200)) };
      const created = await client.call({ method: 'POST', path: `${API}/developer/api-keys`, headers, body: JSON.stringify({ projectId: callers.projectId, label: `soak ${index}` }) });
      recorder.record('keys.create', created.status, performance.now() - scheduledAt, created.failure ?? created.body.slice(0, 200));
      let at = performance.now();
      const listed = await client.call({ method: 'GET', path: `${API}/developer/api-keys?projectId=${callers.projectId}`, headers });
      recorder.record('keys.list', listed.status, performance.now() - at, listed.failure ?? listed.body.slice(0, 200));
      if (created.status !== 201) return;
      at = performance.now();
      const revoked = await client.call({ method: 'DELETE', path: `${API}/developer/api-keys/${(JSON.parse(created.body) as { id: string }).id}`, headers });
      recorder.record('keys.revoke', revoked.status, performance.now() - at, revoked.failure ?? revoked.body.slice(0, 200));
    },
  };
}

function mix(scale: number, client: HttpClient, recorder: OutcomeRecorder, callers: Callers, jobs: SoakResult['jobs']): OpenLoopFamily[] {
  const keyed = (index: number) => ({ ...callers.apiKey, 'x-forwarded-for': clientAddress(index % 256) });
  const route = (index: number) => {
    const [a, b, c, d] = NASR_CITY_PAIRS[index % NASR_CITY_PAIRS.length]!;
    const from = index % 2 ? { lat: a, lon: b } : { lat: c, lon: d };
    const to = index % 2 ? { lat: c, lon: d } : { lat: a, lon: b };
    return [from, to];
  };
  return [
    requestFamily('autocomplete', BASE_MIX.autocomplete * scale, client, recorder, (index) => {
      const text = AUTOCOMPLETE_TEXTS[index % AUTOCOMPLETE_TEXTS.length]!;
      const { lat, lon } = movingPoint(index);
      return { method: 'GET', path: `${API}/geocode/autocomplete?q=${encodeURIComponent(text)}&lat=${lat}&lon=${lon}&limit=8`, headers: keyed(index) };
    }),
    requestFamily('search', BASE_MIX.search * scale, client, recorder, (index) => {
      const { lat, lon } = movingPoint(index * 7);
      return { method: 'GET', path: `${API}/search?q=${encodeURIComponent(SEARCH_TEXTS[index % SEARCH_TEXTS.length]!)}&near=${lat},${lon}`, headers: keyed(index) };
    }),
    requestFamily('place-detail', BASE_MIX.placeDetail * scale, client, recorder, (index) => ({ method: 'GET', path: `${API}/places/${callers.placeSlugs[index % callers.placeSlugs.length]}`, headers: keyed(index) })),
    requestFamily('tiles', BASE_MIX.tiles * scale, client, recorder, (index) => ({ method: 'GET', path: `${API}/tiles/vector/svc/planet/${TILES[index % TILES.length]}.pbf`, headers: keyed(index) })),
    requestFamily('routing', BASE_MIX.routing * scale, client, recorder, (index) => ({
      method: 'POST',
      path: `${API}/routing/route`,
      headers: keyed(index),
      body: JSON.stringify({ payload: { locations: route(index), costing: 'auto' } }),
    })),
    requestFamily('matrix', BASE_MIX.matrix * scale, client, recorder, (index) => ({
      method: 'POST',
      path: `${API}/routing/matrix`,
      headers: keyed(index),
      body: JSON.stringify({ payload: { locations: [...route(index), ...route(index + 3), movingPoint(index)] } }),
    })),
    optimizationJobs(BASE_MIX.optimizationJobs * scale, client, recorder, callers, jobs),
    keyManagement(BASE_MIX.keyManagement * scale, client, recorder, callers),
  ];
}

function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** Starts the deployment, runs the mix for the warm-up and the measured duration, and reports. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const deployment = await startDeployment(options);
  const client = new HttpClient('127.0.0.1', deployment.port);
  const recorder = new OutcomeRecorder();
  const jobs = { accepted: 0, completed: 0, failed: 0, stillRunning: 0 };
  try {
    const callers = await setUpCallers(client, deployment);
    const navigation = new SoakNavigation(client, deployment.port, callers.bearer, recorder, options.navigationSessions);
    await navigation.open();
    navigation.startStreaming();
    const pids = deployment.servers.map((server) => server.child.pid!);
    const sampler = new MemorySampler(
      pids.map((pid, index) => ({ pid, metricsPort: deployment.metricsPorts[index] })),
      options.sampleSeconds * 1000,
      (taken) => log(`memory ${taken.map((sample) => `pid ${sample.pid} rss ${round(sample.rssMb, 1)} MB heap ${round(sample.heapUsedMb, 1)} MB`).join(', ')}`),
    );
    const families = mix(options.scale, client, recorder, callers, jobs).filter((family) => !options.only || options.only.includes(family.name));
    const warmEnd = performance.now() + options.warmupSeconds * 1000;
    const stopAt = warmEnd + options.durationSeconds * 1000;
    let serverCpuStart = 0;
    let generatorCpuStart = 0;
    const warmTimer = setTimeout(() => {
      recorder.recording = true;
      serverCpuStart = pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? NaN), 0);
      generatorCpuStart = ownCpuSeconds();
      sampler.start();
    }, options.warmupSeconds * 1000);
    try {
      await driveOpenLoop(families, stopAt);
    } finally {
      clearTimeout(warmTimer);
    }
    const measuredSeconds = (performance.now() - warmEnd) / 1000;
    const serverCpuSeconds = (pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? NaN), 0) - serverCpuStart) / 1000;
    const generatorCpuSeconds = ownCpuSeconds() - generatorCpuStart;
    sampler.stop();
    const totals = await navigation.stop();
    recorder.recording = false;
    return {
      options,
      families: recorder.summary(),
      failureExamples: recorder.failureExamples(),
      navigation: totals,
      jobs,
      memory: sampler.samples,
      growth: sampler.growth(),
      serverCpuSeconds,
      generatorCpuSeconds,
      measuredSeconds,
    };
  } finally {
    client.close();
    for (const server of deployment.servers.reverse()) await server.stop();
  }
}

/** What must hold: no 5xx, no errors of any kind, no lost or duplicate navigation events, every job done. */
export function soakProblems(result: SoakResult, rssSlopeLimitMbPerMinute: number): string[] {
  const problems: string[] = [];
  for (const family of result.families) {
    if (family.serverErrors > 0) problems.push(`${family.family}: ${family.serverErrors} × 5xx`);
    if (family.clientErrors > 0) problems.push(`${family.family}: ${family.clientErrors} × 4xx`);
    if (family.failures > 0) problems.push(`${family.family}: ${family.failures} connection errors or timeouts`);
  }
  const nav = result.navigation;
  if (nav.lostEvents > 0) problems.push(`navigation: ${nav.lostEvents} events lost`);
  if (nav.duplicateEvents > 0) problems.push(`navigation: ${nav.duplicateEvents} duplicate events`);
  if (nav.errorFrames > 0) problems.push(`navigation: ${nav.errorFrames} error frames`);
  if (nav.socketFailures > 0 || nav.unexpectedCloses > 0) problems.push(`navigation: ${nav.socketFailures} sockets failed to open, ${nav.unexpectedCloses} closed by the server`);
  if (result.jobs.failed > 0) problems.push(`optimization jobs: ${result.jobs.failed} failed`);
  for (const growth of result.growth) {
    if (growth.rssMedianSlopeMbPerMinute > rssSlopeLimitMbPerMinute) problems.push(`process ${growth.pid}: RSS grows ${round(growth.rssMedianSlopeMbPerMinute, 1)} MB/min over the later half (Theil–Sen; limit ${rssSlopeLimitMbPerMinute})`);
  }
  return problems;
}

function print(result: SoakResult): void {
  const { options } = result;
  console.log(`# measured ${round(result.measuredSeconds, 0)} s at scale ${options.scale}: ${Object.entries(BASE_MIX).map(([name, rate]) => `${name} ${round(rate * options.scale, 2)}`).join(', ')} (per second; navigation: sessions at 1 fix/s)`);
  console.log('family,requests,per_s,p50_ms,p99_ms,max_ms,statuses');
  for (const family of result.families) {
    console.log([family.family, family.requests, round(family.requests / result.measuredSeconds, 2), round(family.p50Ms, 1), round(family.p99Ms, 1), round(family.maxMs, 0), JSON.stringify(family.statuses).replace(/,/g, ' ')].join(','));
  }
  const nav = result.navigation;
  console.log(`# navigation: ${nav.sessionsCreated} sessions created, ${nav.sessionsEnded} ended, ${nav.fixesSent} fixes, ${nav.progressFrames} progress frames, ${nav.unanswered} unanswered, ${nav.lostEvents} lost and ${nav.duplicateEvents} duplicate events, ${nav.errorFrames} error frames, ${nav.socketFailures} failed and ${nav.unexpectedCloses} unexpectedly closed sockets`);
  console.log(`# optimization jobs: ${result.jobs.accepted} accepted, ${result.jobs.completed} completed, ${result.jobs.failed} failed`);
  const requests = result.families.reduce((sum, family) => sum + family.requests, 0) + nav.fixesSent;
  console.log(`# CPU: servers ${round(result.serverCpuSeconds, 1)} s (${round((result.serverCpuSeconds / result.measuredSeconds) * 100, 0)} % of one core, ${round((result.serverCpuSeconds * 1e6) / Math.max(1, requests), 0)} µs per request or fix), load generator ${round(result.generatorCpuSeconds, 1)} s`);
  console.log('pid,samples,rss_first_mb,rss_last_mb,rss_max_mb,heap_first_mb,heap_last_mb,rss_slope_mb_per_min,rss_median_slope_mb_per_min,heap_slope_mb_per_min');
  for (const growth of result.growth) {
    console.log([growth.pid, growth.samples, round(growth.rssFirstMb, 1), round(growth.rssLastMb, 1), round(growth.rssMaxMb, 1), round(growth.heapFirstMb, 1), round(growth.heapLastMb, 1), round(growth.rssSlopeMbPerMinute, 2), round(growth.rssMedianSlopeMbPerMinute, 2), round(growth.heapSlopeMbPerMinute, 2)].join(','));
  }
  for (const [what, example] of Object.entries(result.failureExamples)) console.log(`# failure ${what}: ${example}`);
}

/** The RSS slope (Theil–Sen, MB/min over the later half) a 10-minute run may show and still count as bounded. */
const RSS_SLOPE_LIMIT = 2;

function optionsFromEnv(scale: number, durationSeconds: number): SoakOptions {
  return {
    durationSeconds,
    warmupSeconds: Number(process.env.LOAD_SOAK_WARMUP_SECONDS ?? 20),
    scale,
    navigationSessions: Number(process.env.LOAD_SOAK_SESSIONS ?? Math.round(BASE_MIX.navigationSessions * scale)),
    processes: Number(process.env.LOAD_SOAK_PROCESSES ?? 2),
    sampleSeconds: 10,
    serverScript: process.env.BENCH_SERVER_SCRIPT,
    only: process.env.LOAD_SOAK_ONLY ? process.env.LOAD_SOAK_ONLY.split(',') : undefined,
    log: (line) => console.log(`# ${line}`),
  };
}

/** The highest scale (1, 2, 3, …) whose 30-second step had no problem and every p99 within its bound. */
async function findSustainableScale(): Promise<number> {
  let sustainable = 0;
  for (let scale = 1; scale <= 16; scale++) {
    const result = await runSoak({ ...optionsFromEnv(scale, 30), warmupSeconds: 10, log: undefined });
    const overBound = result.families.filter((family) => family.p99Ms > (P99_BOUNDS_MS[family.family] ?? 1_000)).map((family) => `${family.family} p99 ${round(family.p99Ms, 0)} ms`);
    const problems = [...soakProblems(result, Infinity), ...overBound];
    console.log(`# step scale ${scale}: ${problems.length ? `broke (${problems.slice(0, 4).join('; ')})` : 'held'}`);
    if (problems.length) break;
    sustainable = scale;
  }
  console.log(`# sustainable scale: ${sustainable}`);
  return sustainable;
}

export async function runSoakLoad(): Promise<boolean> {
  console.log(
    conditions({
      scenario: 'mixed-load soak: open loop, latency from the scheduled send time; two server processes on one port (REUSE_PORT) on the real Postgres, Redis and NATS',
      cpus: 'not pinned: both server processes and the load generator share every core',
      load: `load average at start ${(await import('node:os')).loadavg().map((value) => round(value, 1)).join(' ')}`,
    }),
  );
  let scale = Number(process.env.LOAD_SOAK_SCALE ?? 1);
  if (process.env.LOAD_SOAK_FIND === '1') scale = Math.max(1, await findSustainableScale());
  const result = await runSoak(optionsFromEnv(scale, Number(process.env.LOAD_SOAK_SECONDS ?? 600)));
  print(result);
  const problems = soakProblems(result, RSS_SLOPE_LIMIT);
  console.log(problems.length ? `# verdict: missed — ${problems.join('; ')}` : '# verdict: held (0 × 5xx, 0 errors, no lost or duplicate events, memory bounded)');
  return problems.length === 0;
}
