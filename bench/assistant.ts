/**
 * `npm run bench -- assistant`: the intent parser's accuracy on the held-back third of the labelled
 * corpus (every labelled field right), per action and overall, then POST /ai/agent latency (p50,
 * p99) and the server's CPU per request against a started product server without a model (embedded
 * PGlite, sequential requests over one keep-alive connection, messages drawn from the corpus so every
 * action and grounding runs). BENCH_REFERENCE_SCRIPT (a previous build's dist/main.js) adds it as
 * server A, measured in rounds A B B A with the load average beside each round.
 */
import { fileURLToPath } from 'node:url';
import { Agent, request as httpRequest } from 'node:http';
import { CORPUS, isHeldBack, matchesLabel } from '../src/services/assistant/corpus.js';
import { ASSISTANT_ACTIONS } from '../src/services/assistant/intent.js';
import { analyseMessage, parseIntent } from '../src/services/assistant/intent-parser.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { conditions, freePort, pinLoadGenerator, processCpuMs, round } from './support.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const WARMUP = 100;
const REQUESTS = Number(process.env.BENCH_REPETITIONS ?? 600);

function accuracy(): void {
  console.log('# parser accuracy (held-back third: index % 3 === 2; rules tuned on the rest)');
  console.log('split,action,utterances,arabic_or_arabizi,correct,accuracy_pct');
  for (const split of ['held-back', 'tuning'] as const) {
    const items = CORPUS.filter((_, index) => isHeldBack(index) === (split === 'held-back'));
    const row = (action: string, subset: typeof items) => {
      const correct = subset.filter((item) => matchesLabel(item, parseIntent(item.text))).length;
      const arabic = subset.filter((item) => analyseMessage(item.text).language === 'ar').length;
      console.log(`${split},${action},${subset.length},${arabic},${correct},${round((100 * correct) / subset.length, 1)}`);
    };
    if (split === 'held-back') for (const action of ASSISTANT_ACTIONS) row(action, items.filter((item) => item.action === action));
    row('all', items);
  }
}

function post(agent: Agent, base: string, path: string, body: unknown, token: string): Promise<{ ms: number; status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const started = process.hrtime.bigint();
    const call = httpRequest(`${base}/api/v1${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': payload.length, ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.statusCode ?? 0, text }));
    });
    call.on('error', reject);
    call.end(payload);
  });
}

interface ServerUnderTest { label: string; script: string; child: ChildProcess; base: string; agent: Agent; token: string }

async function startServer(label: string, script: string): Promise<ServerUnderTest> {
  const port = await freePort();
  // started here rather than with support.startProcess: its 30 s start limit is short on a loaded 2-core machine;
  // BENCH_SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKER_THREADS: '1', PORT: String(port), DATA_DIR: 'memory://' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${label} exited with ${child.exitCode}`);
    const up = await fetch(`${base}/health`).then((response) => response.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server ${label} did not start within 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const registered = await post(agent, base, '/auth/register', { email: `bench.${label}.${Date.now()}@example.jo`, password: 'correct horse battery staple', name: 'Bench' }, '');
  const token = (JSON.parse(registered.text) as { accessToken: string }).accessToken;
  return { label, script, child, base, agent, token };
}

async function stopServer(server: ServerUnderTest): Promise<void> {
  server.agent.destroy();
  await new Promise<void>((resolve) => {
    if (server.child.exitCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** `count` sequential /ai/agent requests from corpus position `from`: latencies (ms) and the server's CPU µs per request. */
async function agentRound(server: ServerUnderTest, from: number, count: number): Promise<{ samples: number[]; cpuMicrosPerRequest: number | undefined }> {
  const samples: number[] = [];
  const cpuBefore = processCpuMs(server.child.pid!);
  for (let index = from; index < from + count; index++) {
    const item = CORPUS[(index * 7) % CORPUS.length]!;
    const answer = await post(server.agent, server.base, '/ai/agent', { message: item.text, userName: 'Bench User' }, server.token);
    if (answer.status !== 201) throw new Error(`/ai/agent answered ${answer.status}: ${answer.text}`);
    samples.push(answer.ms);
  }
  const cpuAfter = processCpuMs(server.child.pid!);
  return { samples, cpuMicrosPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / count };
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
const loadAverage = () => loadavg().map((value) => round(value, 1)).join(' ');

/**
 * Latency and the server's CPU per request (all its threads, from /proc). With BENCH_REFERENCE_SCRIPT (a
 * previous build's dist/main.js) the two servers run in rounds A B B A, so both see the same machine load.
 */
async function latency(): Promise<void> {
  const scripts: Array<[string, string]> = [['B', process.env.BENCH_SERVER_SCRIPT ?? productMain]];
  if (process.env.BENCH_REFERENCE_SCRIPT) scripts.unshift(['A', process.env.BENCH_REFERENCE_SCRIPT]);
  const servers: ServerUnderTest[] = [];
  try {
    for (const [label, script] of scripts) servers.push(await startServer(label, script));
    for (const server of servers) await agentRound(server, 0, WARMUP);
    const order = servers.length === 2 ? [servers[0]!, servers[1]!, servers[1]!, servers[0]!] : [servers[0]!];
    const perRound = servers.length === 2 ? Math.ceil(REQUESTS / 2) : REQUESTS;
    const all = new Map<string, number[]>(servers.map((server) => [server.label, []]));
    console.log('# POST /ai/agent without a model (parser, place search, traffic model, conversation log)');
    console.log(conditions({ requests: REQUESTS, warmup: WARMUP, database: 'PGlite (embedded)', connection: 'one keep-alive, sequential', servers: servers.map((server) => `${server.label}=${server.script}`).join(' ') }));
    console.log('round,server,requests,cpu_us_per_request,p50_ms,p99_ms,load_average');
    for (const [index, server] of order.entries()) {
      const { samples, cpuMicrosPerRequest } = await agentRound(server, WARMUP + index * perRound, perRound);
      all.get(server.label)!.push(...samples);
      const sorted = [...samples].sort((a, b) => a - b);
      console.log(`${index + 1},${server.label},${perRound},${cpuMicrosPerRequest === undefined ? '' : Math.round(cpuMicrosPerRequest)},${round(percentile(sorted, 0.5))},${round(percentile(sorted, 0.99))},${loadAverage()}`);
    }
    console.log('endpoint,server,p50_ms,p99_ms,max_ms,target_p99_ms,load_average');
    for (const [label, samples] of all) {
      samples.sort((a, b) => a - b);
      console.log(`/ai/agent,${label},${round(percentile(samples, 0.5))},${round(percentile(samples, 0.99))},${round(samples.at(-1)!)},20,${loadAverage()}`);
    }
  } finally {
    for (const server of servers) await stopServer(server);
  }
}

export async function runAssistantBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  console.log(`# ${pinned}`);
  accuracy();
  await latency();
}
