import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runServerToExit, startServerProcess, type ServerProcess, serverTestTimeout } from './support/server-process.js';
import { freePort } from '../bench/support.js';
import { realServices, sharedDeployment } from './support/services.js';

// Which process owns a port and a database directory: one, unless the operator asks for several with shared state.
const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' };
/** Two embedded servers (PGlite start-up each) in one test. */
const TWO_STARTS_MS = serverTestTimeout(2);
const started: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop('SIGKILL')));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  started.push(server);
  return server;
}

/** GET /health on a new connection each time, so SO_REUSEPORT may hand it to either process. */
function healthOnNewConnection(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path: '/health', agent: false, headers: { connection: 'close' } }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    call.once('error', reject);
    call.end();
  });
}

const requestLines = (server: ServerProcess) => server.output.filter((line) => line.includes('"msg":"request"') && line.includes('/health')).length;

describe('one port, one process by default', () => {
  it('a second server on a port already taken exits with a message instead of sharing it silently', async () => {
    const first = await start(EMBEDDED);
    const second = await runServerToExit({ ...EMBEDDED, HOST: '127.0.0.1', PORT: String(first.port) });
    expect(second.code).toBe(1);
    expect(second.output).toMatch(new RegExp(`Cannot listen on 127.0.0.1:${first.port}.*REUSE_PORT=true`));
    expect(await healthOnNewConnection(first.port)).toBe(200);
  }, TWO_STARTS_MS);

  it('REUSE_PORT=true is refused without shared Postgres, Redis and NATS', { timeout: serverTestTimeout(1) }, async () => {
    const refused = await runServerToExit({ ...EMBEDDED, REDIS_URL: realServices.redisUrl, REUSE_PORT: 'true', PORT: '0' });
    expect(refused.code).toBe(78);
    expect(refused.output).toMatch(/REUSE_PORT: needs shared state: set DATABASE_URL, NATS_URL/);
  });

  it('with REUSE_PORT=true and shared services, two processes serve one port and either carries on alone', async () => {
    const shared = {
      ...sharedDeployment('t'),
      REUSE_PORT: 'true',
      // uSockets shares a port only when it is named: port 0 is always bound exclusively
      PORT: String(await freePort()),
    };
    const first = await start(shared);
    const second = await start(shared);
    expect(second.port).toBe(first.port);
    for (let index = 0; index < 40; index++) expect(await healthOnNewConnection(first.port)).toBe(200);
    // the kernel spreads connections over both (each of 40 lands on either: all on one has odds 2^-39)
    // request lines reach stdout in batches (4 KiB or every 200 ms): wait for them
    await vi.waitFor(
      () => {
        expect(requestLines(first) + requestLines(second)).toBe(40);
        expect(requestLines(first)).toBeGreaterThan(0);
        expect(requestLines(second)).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 100 },
    );
    // killed, not stopped: stop() would drop the schema the second process still uses
    const gone = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await gone;
    for (let index = 0; index < 5; index++) expect(await healthOnNewConnection(first.port)).toBe(200);
  });
});

describe('one process per embedded database directory', () => {
  it('refuses a second server on the same DATA_DIR, and takes the directory over once its holder is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'exclusive-data-'));
    dirs.push(dataDir);
    const first = await start({ ...EMBEDDED, DATA_DIR: dataDir });
    const second = await runServerToExit({ ...EMBEDDED, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.output).toContain(`is in use by process ${first.child.pid}`);
    await first.stop('SIGKILL');
    const after = await start({ ...EMBEDDED, DATA_DIR: dataDir });
    expect(await healthOnNewConnection(after.port)).toBe(200);
  }, TWO_STARTS_MS);
});
