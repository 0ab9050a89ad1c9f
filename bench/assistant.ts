/**
 * `npm run bench -- assistant`: the intent parser's accuracy on the held-back third of the labelled
 * corpus (every labelled field right), per action and overall, then POST /ai/agent latency (p50,
 * p99) against a started product server without a model (embedded PGlite, sequential requests over
 * one keep-alive connection, messages drawn from the corpus so every action and grounding runs).
 */
import { fileURLToPath } from 'node:url';
import { Agent, request as httpRequest } from 'node:http';
import { CORPUS, isHeldBack, matchesLabel } from '../src/services/assistant/corpus.js';
import { ASSISTANT_ACTIONS } from '../src/services/assistant/intent.js';
import { analyseMessage, parseIntent } from '../src/services/assistant/intent-parser.js';
import { spawn } from 'node:child_process';
import { conditions, freePort, pinLoadGenerator, round } from './support.js';

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

async function latency(): Promise<void> {
  const port = await freePort();
  // started here rather than with support.startProcess: its 30 s start limit is short on a loaded 2-core machine
  const child = spawn(process.execPath, [productMain], { env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKER_THREADS: '1', PORT: String(port), DATA_DIR: 'memory://' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const up = await fetch(`${base}/health`).then((response) => response.ok, () => false);
      if (up) break;
      if (Date.now() > deadline) throw new Error('server did not start within 180 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const registered = await post(agent, base, '/auth/register', { email: `bench.${Date.now()}@example.jo`, password: 'correct horse battery staple', name: 'Bench' }, '');
    const token = (JSON.parse(registered.text) as { accessToken: string }).accessToken;
    const samples: number[] = [];
    for (let index = 0; index < WARMUP + REQUESTS; index++) {
      const item = CORPUS[(index * 7) % CORPUS.length]!;
      const answer = await post(agent, base, '/ai/agent', { message: item.text, userName: 'Bench User' }, token);
      if (answer.status !== 201) throw new Error(`/ai/agent answered ${answer.status}: ${answer.text}`);
      if (index >= WARMUP) samples.push(answer.ms);
    }
    samples.sort((a, b) => a - b);
    console.log('# POST /ai/agent without a model (parser, place search, traffic model, conversation log)');
    console.log(conditions({ requests: REQUESTS, warmup: WARMUP, database: 'PGlite (embedded)', connection: 'one keep-alive, sequential' }));
    console.log('endpoint,p50_ms,p99_ms,max_ms,target_p99_ms');
    console.log(`/ai/agent,${round(samples[Math.floor(samples.length * 0.5)]!)},${round(samples[Math.floor(samples.length * 0.99)]!)},${round(samples.at(-1)!)},20`);
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

export async function runAssistantBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  console.log(`# ${pinned}`);
  accuracy();
  await latency();
}
