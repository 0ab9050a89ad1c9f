import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { availableParallelism, cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
}

/** Runs autocannon once; a short warm-up first so JIT and pools are hot. */
export async function measure(name: string, options: LoadOptions): Promise<LoadResult> {
  await autocannon({ url: options.url, connections: options.connections, duration: 2, headers: options.headers });
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export interface StartedProcess {
  port: number;
  child: ChildProcess;
  /** Every process of a group started by startProcessGroup (the first is `child`). */
  pids?: number[];
  stop(): Promise<void>;
}

/** The server under test runs on this CPU, the load generator (this process) on the other one. */
const SERVER_CPU = 0;
const LOAD_CPU = 1;

/**
 * On a small machine the load generator and the server fight for the same
 * cores; pinning each to its own CPU (when taskset exists and there are two)
 * makes runs comparable. Returns a description for the conditions header.
 */
export function pinLoadGenerator(): string {
  if (availableParallelism() < 2) return 'not pinned (one CPU)';
  if (SERVER_PROCESSES > 1) return `not pinned: ${SERVER_PROCESSES} server processes and the load generator share every CPU`;
  // BENCH_PIN=0: the server's threads may use every core, as a deployment's would (the load generator shares them)
  if (process.env.BENCH_PIN === '0') return 'not pinned (BENCH_PIN=0): server and load generator share every core';
  try {
    // -a: every thread of this process, not only the main one; V8's GC and compiler threads and libuv's pool
    // were started before this call and would otherwise keep running on the server's CPU (concurrent marking
    // of the generator's heap then took the server's core for milliseconds at a time: docs/benchmarks.md)
    execFileSync('taskset', ['-a', '-cp', String(LOAD_CPU), String(process.pid)], { stdio: 'ignore' });
    pinning = true;
    return `server pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU} (taskset)`;
  } catch {
    return 'not pinned (taskset unavailable)';
  }
}
let pinning = false;

/** A port that was free a moment ago, for a server we start next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Inodes of the sockets listening on `port` (/proc/net/tcp and tcp6, state 0A). */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** Whether process `pid` itself holds a socket listening on `port` (with REUSE_PORT another may hold one too). */
function processListens(pid: number, port: number): boolean {
  try {
    const inodes = listeningInodes(port);
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}


async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  // a first start builds the pack and the geocoding index: under a load of 30 on two cores that passed 30 s
  const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS ?? process.env.SERVER_START_TIMEOUT_MS ?? 120_000);
  // where /proc tells, wait for this very process to listen (a port shared with REUSE_PORT is open already)
  const canTell = existsSync('/proc/net/tcp');
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (canTell) {
      if (processListens(child.pid!, port)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not listen on ${port}`);
}

/**
 * Starts a server process on `port` (pinned to `cpus`, a taskset list, when the load generator is pinned) with its output discarded at the file
 * level (as a log shipper would take it), so the load generator in this
 * process does not also pay for reading the server's logs.
 */
export async function startProcess(script: string, args: string[], port: number, env: Record<string, string> = {}, cpus: string = String(SERVER_CPU)): Promise<StartedProcess> {
  const command = pinning ? ['taskset', '-c', cpus, process.execPath] : [process.execPath];
  // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server under load
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(command[0]!, [...command.slice(1), ...nodeArgs, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT === 'inherit' ? 'inherit' : 'ignore', 'inherit'],
  });
  await waitForPort(port, child);
  return {
    port,
    child,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Server processes of the product behind one port, from BENCH_SERVER_PROCESSES (default 1). */
export const SERVER_PROCESSES = Math.max(1, Number(process.env.BENCH_SERVER_PROCESSES ?? 1) || 1);

/**
 * The environment of one deployment of several processes: shared Postgres, Redis and NATS under names of this
 * run's own, and one JWT secret (every process verifies the others' tokens). Processes on one port add REUSE_PORT.
 */
export function sharedDeploymentEnv(label: string): Record<string, string> {
  const suffix = `${label}_${process.pid}_${Date.now().toString(36)}`;
  return {
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    DATABASE_SCHEMA: suffix,
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `${suffix}:`,
    NATS_URL: process.env.NATS_URL || 'nats://127.0.0.1:4222',
    BUS_NAMESPACE: suffix,
    JWT_SECRET: `${suffix}-0123456789abcdef0123456789abcdef`,
  };
}

/**
 * Starts `count` processes of `script` on one port (the first creates the schema, the others join it); with more
 * than one they may run on both CPUs, as the OS places them. Stopping the group stops every process.
 */
export async function startProcessGroup(count: number, script: string, port: number, env: Record<string, string>): Promise<StartedProcess> {
  const processes: StartedProcess[] = [];
  try {
    for (let index = 0; index < count; index++) processes.push(await startProcess(script, [], port, env, count > 1 ? `${SERVER_CPU},${LOAD_CPU}` : String(SERVER_CPU)));
  } catch (error) {
    // one that did not start leaves none running behind the bench
    await Promise.all(processes.map((started) => started.stop()));
    throw error;
  }
  return {
    port,
    child: processes[0]!.child,
    pids: processes.map((started) => started.child.pid!),
    stop: async () => {
      await Promise.all(processes.map((started) => started.stop()));
    },
  };
}

/** A client address (X-Forwarded-For behind the trusted proxy) for request or client number `counter`. */
export function clientAddress(counter: number): string {
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

export function conditions(extra: Record<string, string | number>): string {
  const all = cpus();
  // cpus() lists every CPU of the machine, whatever this process is pinned to.
  return Object.entries({
    machine: `${all.length} cores (${all[0]?.model ?? 'unknown cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    ...extra,
  })
    .map(([key, value]) => `# ${key}: ${value}`)
    .join('\n');
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Clock ticks per second of /proc CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU ms a process (or one of its threads: `thread` = its id; the main thread's is the pid) has
 * used, from /proc: on a shared machine a server's CPU per request does not depend on what else
 * runs, where its latency does. Undefined where /proc is not there.
 */
export function processCpuMs(pid: number, thread?: number): number | undefined {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // fields after the parenthesised command name; utime and stime are the 14th and 15th of the line
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
