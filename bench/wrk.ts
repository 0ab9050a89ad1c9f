/**
 * HTTP load with wrk (C, epoll: one thread drives ~100 k req/s here) when it is installed (`apt-get install wrk`),
 * else autocannon. On this 2-core machine the load generator shares the box with the server: autocannon (Node)
 * saturates its core at 30–45 k req/s and its own pauses show up in the server's tail, so a p99 target of a few
 * milliseconds at 100 connections can only be judged with wrk.
 *
 * Requests cycle through `paths`; each carries an X-Forwarded-For from a pool of client addresses (a trusted proxy
 * in front, as in production), so per-client throttles see many clients, as they would, and no counter key is made
 * per request.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { clientAddress } from './support.js';

export interface HttpLoadOptions {
  url: string;
  paths: readonly string[];
  method?: 'GET' | 'POST';
  /** Request bodies, cycled independently of the paths (POST). */
  bodies?: readonly string[];
  /** Headers every request carries (besides X-Forwarded-For). */
  headers?: Readonly<Record<string, string>>;
  connections: number;
  durationSeconds: number;
  /** Distinct client addresses the requests come from (X-Forwarded-For). */
  clients: number;
  /** Load before the measured run (default WARMUP_SECONDS). */
  warmupSeconds?: number;
  /** Called between the warm-up and the measured run (e.g. to read CPU counters). */
  beforeMeasuring?: () => void;
}

export interface HttpLoadResult {
  tool: 'wrk' | 'autocannon';
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Requests completed in the measured run. */
  requests: number;
  non2xx: number;
  errors: number;
}

export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk prints its usage and exits 1 on --version: it is there
    return (error as { status?: number }).status === 1;
  }
}

export async function httpLoad(options: HttpLoadOptions): Promise<HttpLoadResult> {
  // BENCH_HTTP_TOOL=autocannon compares the two load generators on the same server
  return process.env.BENCH_HTTP_TOOL !== 'autocannon' && wrkAvailable() ? runWrk(options) : runAutocannon(options);
}

const luaList = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(',\n');

function luaScript(options: HttpLoadOptions): string {
  const fixed = Object.entries(options.headers ?? {})
    .map(([name, value]) => `[${JSON.stringify(name.toLowerCase())}] = ${JSON.stringify(value)}`)
    .join(', ');
  const bodies = options.bodies ?? [];
  return `local paths = {\n${luaList(options.paths)}\n}
local bodies = {\n${luaList(bodies)}\n}
local counter = 0
request = function()
  counter = counter + 1
  local c = counter % ${options.clients}
  local headers = { ${fixed ? `${fixed}, ` : ''}["x-forwarded-for"] = string.format("10.%d.%d.%d", math.floor(c / 65536) % 256, math.floor(c / 256) % 256, c % 256) }
  local body = nil
  if #bodies > 0 then body = bodies[(counter % #bodies) + 1] end
  return wrk.format("${options.method ?? 'GET'}", paths[(counter % #paths) + 1], headers, body)
end
`;
}

/**
 * Seconds of load before the measured run (BENCH_WARMUP_SECONDS, default 10): the JIT compiles the request path
 * and the solver tasks during the first seconds (on this machine a route request's p99 still came from that
 * at 2–4 s), and the targets are about the server in its steady state.
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`wrk: unreadable latency ${text}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
}

/** Reads wrk's `--latency` report. */
export function parseWrkReport(report: string): Omit<HttpLoadResult, 'tool'> {
  const percentile = (label: string) => {
    const match = new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(report);
    if (!match) throw new Error(`wrk: no ${label}% line in\n${report}`);
    return durationMs(match[1]!);
  };
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(report);
  if (!rate) throw new Error(`wrk: no Requests/sec in\n${report}`);
  const requests = /(\d+) requests in/.exec(report);
  // a run where nothing was answered is a failed run, not a latency of 0
  if (!requests || Number(requests[1]) === 0) throw new Error(`wrk: no request completed:\n${report}`);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    requestsPerSecond: Number(rate[1]),
    p50Ms: percentile('50'),
    p90Ms: percentile('90'),
    p99Ms: percentile('99'),
    requests: Number(requests?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0,
  };
}

async function runWrk(options: HttpLoadOptions): Promise<HttpLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'requests.lua');
    writeFileSync(script, luaScript(options));
    const args = (seconds: number, latency: boolean) => ['-t1', `-c${options.connections}`, `-d${seconds}s`, ...(latency ? ['--latency'] : []), '-s', script, options.url];
    execFileSync('wrk', args(options.warmupSeconds ?? WARMUP_SECONDS, false), { stdio: 'ignore' });
    options.beforeMeasuring?.();
    const report = execFileSync('wrk', args(options.durationSeconds, true), { encoding: 'utf8' });
    return { tool: 'wrk', ...parseWrkReport(report) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runAutocannon(options: HttpLoadOptions): Promise<HttpLoadResult> {
  let counter = 0;
  const settings = {
    url: options.url,
    connections: options.connections,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          counter++;
          return {
            ...request,
            method: options.method ?? 'GET',
            path: options.paths[counter % options.paths.length]!,
            ...(options.bodies?.length ? { body: options.bodies[counter % options.bodies.length] } : {}),
            headers: { ...options.headers, 'x-forwarded-for': clientAddress(counter % options.clients) },
          };
        },
      },
    ],
  };
  await autocannon({ ...settings, duration: options.warmupSeconds ?? WARMUP_SECONDS });
  options.beforeMeasuring?.();
  const result = await autocannon({ ...settings, duration: options.durationSeconds });
  return {
    tool: 'autocannon',
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
