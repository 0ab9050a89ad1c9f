import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { realServices, uniqueName, usingRealServices } from './services.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServerProcess {
  baseUrl: string;
  port: number;
  /** The metrics listener's port, when started with METRICS_PORT. */
  metricsPort: number | undefined;
  child: ChildProcess;
  /** Every line the process wrote, stdout and stderr. */
  output: string[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * How long a server may take to listen. A fresh embedded data directory boots PGlite and runs every migration
 * (12–22 s measured at a load average of 17–20 while other suites ran), so this is a harness
 * limit, not a start-up target (SERVER_START_TIMEOUT_MS overrides it).
 */
const START_TIMEOUT_MS = Number(process.env.SERVER_START_TIMEOUT_MS ?? 60_000);

/**
 * The time limit of a test whose own body starts `starts` servers (or runs them to their exit) and then does up to
 * `workMs` of work: each start may take the harness's whole allowance above, which vitest's default test timeout
 * (30 s, shorter than one allowance) does not leave it. In `it(name, { timeout: serverTestTimeout(2) }, ...)`.
 */
export function serverTestTimeout(starts: number, workMs = 30_000): number {
  return starts * START_TIMEOUT_MS + workMs;
}

/**
 * Starts the built server (`dist/main.js`) as a separate process on a free
 * port: the tests talk to it only over HTTP. It uses the real services when the
 * test run has their URLs in its environment, with names of its own so
 * parallel test files do not see each other's data.
 */
export async function startServerProcess(env: Record<string, string | undefined> = {}, options: { startTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  const isolation: Record<string, string> = usingRealServices
    ? { DATABASE_SCHEMA: uniqueName('t'), REDIS_PREFIX: `${uniqueName('t')}:`, BUS_NAMESPACE: uniqueName('t') }
    : {};
  const effectiveEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'info',
    WORKER_THREADS: '1',
    ...isolation,
    ...env,
  };
  // A private schema on a real database is dropped when the server stops.
  const privateSchema =
    effectiveEnv.DATABASE_URL && effectiveEnv.DATABASE_SCHEMA && effectiveEnv.DATABASE_SCHEMA !== 'public' ? effectiveEnv.DATABASE_SCHEMA : undefined;
  const child = spawn(process.execPath, [MAIN], {
    env: effectiveEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // 'close', not 'exit': 'exit' can come before the pipes have given up the process's last lines, which callers read
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const { port, metricsPort } = await new Promise<{ port: number; metricsPort?: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      // a server that never said it listens would otherwise outlive the test
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startTimeoutMs} ms:\n${output.join('\n')}`));
    }, startTimeoutMs);
    const onLine = (line: string) => {
      output.push(line);
      if (!line.includes('"msg":"listening"')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { port: number; metricsPort?: number });
    };
    collectLines(child.stdout!, onLine);
    collectLines(child.stderr!, (line) => output.push(line));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    metricsPort,
    child,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (privateSchema) await dropSchema(privateSchema);
      return code;
    },
  };
}

/** Removes a test server's private schema so repeated runs leave the shared database clean. */
async function dropSchema(schema: string): Promise<void> {
  const sql = postgres(realServices.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
  } finally {
    await sql.end();
  }
}

/** Runs the server expecting it to exit by itself (bad configuration, say). */
export async function runServerToExit(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, DATA_DIR: 'memory://', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  collectLines(child.stdout!, (line) => output.push(line));
  collectLines(child.stderr!, (line) => output.push(line));
  // after the pipes are drained too (see startServerProcess): the output asserted on ends with the last words
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])));
  return { code, signal, output: output.join('\n') };
}

function collectLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  });
}
