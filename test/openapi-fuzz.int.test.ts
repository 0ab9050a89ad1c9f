import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, statusName } from '../src/shared/errors.js';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, PASSWORD, registerUser, type ApiClient } from './support/api-client.js';
import { NoAnswer, send, type RawRequest, type RawResponse } from './support/fuzz/raw-http.js';
import { isExpensive, operationsOf, RequestArbitraries, SELF_DESTRUCTIVE, type Credentials, type FuzzInput, type Operation, type Pools } from './support/fuzz/requests.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, uniqueName, usingRealServices } from './support/services.js';

/**
 * The OpenAPI fuzz test (issue #22): every operation of the document the server serves gets generated path
 * parameters, query strings, bodies, content types and credentials (values that fit the schema, values pushed
 * past it, and values no field may hold: wrong types, NUL, unpaired surrogates, 1e308 and 1e400, -0, nesting
 * up to 100 000 deep, 1 MiB strings, unknown and prototype-named fields). Every answer must be a 2xx or a 4xx,
 * a 4xx (or any non-2xx) with the error body of spec part 1 §7 whose code belongs to its status, a 2xx that says
 * JSON must be JSON, and every request is answered within its deadline (none is a hang).
 *
 * One real server; the fuzzer is a super_admin with an unlimited key of every scope, so most inputs get past
 * the gate; some go with no credentials, garbage ones or a second account's token. Nothing is excluded; two
 * operations are never sent with the fuzzer's own credentials because they would end its session or account:
 * DELETE /auth/me and POST /auth/logout (requests.ts SELF_DESTRUCTIVE). Ids of the fuzzer's own account, first
 * session and key are never put into a path, so the admin and developer routes cannot disable or delete them.
 *
 * FUZZ_SEED reproduces a run (printed at the start and with every failure); FUZZ_INPUTS sets the count
 * (default 10 000); FUZZ_ONLY=<index> sends only that input of the seed's sequence.
 */

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 10_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const CONCURRENCY = 8;
/** Inputs generated per fast-check sample: input `i` is sample `floor(i / CHUNK)` (seed SEED + that), item `i % CHUNK`. */
const CHUNK = 250;
/** No answer within this is a hang. The longest budget a request may spend is the optimizer's best tier, 20 s. */
const DEADLINE_MS = 45_000;

// The operator CLI and the server share one database: a private schema on the real services, or the embedded
// database in a directory of this file's own (the server is stopped while the CLI holds it).
let dataDir: string | undefined;
const deployment: Record<string, string> = usingRealServices
  ? { DATABASE_URL: realServices.databaseUrl, DATABASE_SCHEMA: uniqueName('fz'), REDIS_PREFIX: `${uniqueName('fz')}:`, BUS_NAMESPACE: uniqueName('fz') }
  : {};
let server: ServerProcess;
let credentials: Credentials;
let pools: Pools;

beforeAll(async () => {
  if (!usingRealServices) {
    dataDir = await mkdtemp(join(tmpdir(), 'fuzz-'));
    deployment.DATA_DIR = dataDir;
  }
  server = await startServerProcess(deployment);
  let api = apiClient(server.baseUrl);
  const fuzzer = await registerUser(api, 'fuzzer');
  const other = await registerUser(api, 'other');
  await api.post('/developer/enroll', undefined, fuzzer.token);
  const organization = (await api.post('/developer/organizations', { name: 'Fuzz' }, fuzzer.token)).body;
  const project = (await api.post('/developer/projects', { name: 'Fuzz', organizationId: organization.id }, fuzzer.token)).body;
  const scopes = Object.fromEntries(['search', 'geocode', 'places', 'routing', 'traffic', 'telemetry', 'tiles', 'imagery', 'geo', 'insights', 'optimize'].map((scope) => [scope, true]));
  const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'fuzz', scopes }, fuzzer.token)).body;
  expect(key.key, JSON.stringify(key)).toEqual(expect.any(String));

  if (dataDir) await server.stop();
  const cli = { ...process.env, ...deployment } as Record<string, string>;
  for (const args of [
    ['grant-role', fuzzer.email, 'super_admin'],
    ['key-unlimited', key.id, 'on'],
  ]) {
    const result = await runAdminCli(args, cli);
    expect(result.code, result.stderr).toBe(0);
  }
  if (dataDir) {
    server = await startServerProcess(deployment);
    api = apiClient(server.baseUrl);
  }
  // Tokens minted now carry the new role; the first session stays the fuzzer's own.
  const login = async (email: string) => (await api.post('/auth/login', { email, password: PASSWORD })).body;
  const main = await login(fuzzer.email);
  const second = await login(fuzzer.email);
  const otherSession = await login(other.email);
  credentials = { token: main.accessToken, key: key.key, otherToken: otherSession.accessToken };
  expect((await api.get('/auth/me', credentials.token)).body.user.roles).toContain('super_admin');

  pools = await createResources(api, credentials, { otherUserId: other.userId, otherToken: otherSession.accessToken, secondSessionId: second.sessionId });
});

afterAll(async () => {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Resources whose ids the fuzzer puts into paths and bodies: its own extra ones and the other account's. */
async function createResources(api: ApiClient, own: Credentials, other: { otherUserId: string; otherToken: string; secondSessionId: string }): Promise<Pools> {
  const ids = new Set<string>([other.otherUserId, other.secondSessionId]);
  const tokens = new Set<string>();
  const keep = (response: { status: number; body: any }, what: string, into = ids, fields = ['id', 'sessionId', 'fleetId', 'jobId']) => {
    const value = fields.map((field) => response.body?.[field]).find((found) => typeof found === 'string');
    if (typeof value !== 'string') throw new Error(`setup: ${what} gave ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    into.add(value);
    return value;
  };
  const organization = keep(await api.post('/developer/organizations', { name: 'Spare' }, own.token), 'organization');
  const project = keep(await api.post('/developer/projects', { name: 'Spare', organizationId: organization }, own.token), 'project');
  keep(await api.post('/developer/api-keys', { projectId: project, label: 'spare' }, own.token), 'spare key');
  for (const token of [own.token, other.otherToken]) {
    keep(await api.post('/me/saved-places', { name: 'Home', lat: 30.0626, lng: 31.3219 }, token), 'saved place');
    keep(await api.post('/me/saved-lists', { name: 'Favourites' }, token), 'saved list');
    keep(await api.post('/me/history', { kind: 'search', query: 'مطعم' }, token), 'history entry');
    const share = await api.post('/me/live-shares', { lat: 30.0626, lng: 31.3219 }, token);
    keep(share, 'live share');
    keep(share, 'live share token', tokens, ['shareToken']);
    const pushToken = `fuzz-push-${Math.random().toString(36).slice(2)}`;
    await api.post('/me/push-tokens', { token: pushToken, platform: 'android' }, token);
    tokens.add(pushToken);
    keep(await api.post('/navigation/sessions', { origin: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 } }, token), 'navigation session');
  }
  const fleet = await api.post(
    '/optimize/fleets',
    { name: 'Fuzz', vehicles: [{ id: 'v1', start: { lat: 30.0626, lng: 31.3219 } }], stops: [{ id: 's1', lat: 30.07, lng: 31.34 }] },
    own.token,
  );
  keep(fleet, 'fleet');
  const job = await api.post('/optimize/jobs', { stops: [{ lat: 30.0626, lng: 31.3219 }, { lat: 30.07, lng: 31.34 }], tier: 'fast' }, own.token);
  keep(job, 'optimization job');
  return { ids: [...ids], tokens: [...tokens] };
}

interface Failure {
  index: number;
  input: FuzzInput;
  problem: string;
  response?: RawResponse;
}

/** What is wrong with an answer, or undefined when it keeps the contract. */
function problemWith(operation: Operation, response: RawResponse): string | undefined {
  const { status } = response;
  if (status >= 500) return `status ${status}`;
  // the browser legs of social sign-in redirect; the document says so (302 with a Location)
  if (status >= 300 && status < 400 && operation.documented.includes(String(status)) && response.headers.location) return undefined;
  if (status < 200 || (status >= 300 && status < 400)) return `status ${status} (neither a 2xx nor a 4xx)`;
  const contentType = String(response.headers['content-type'] ?? '');
  if (status < 300) {
    if (!contentType.includes('json') || status === 204) return undefined;
    try {
      JSON.parse(response.body.toString('utf8'));
    } catch {
      return `a ${status} says ${contentType} but its body is not JSON`;
    }
    return undefined;
  }
  if (!contentType.startsWith('application/json')) return `a ${status} with content-type "${contentType}"`;
  let body: any;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `a ${status} whose body is not JSON`;
  }
  const keys = Object.keys(body ?? {}).filter((key) => !['statusCode', 'message', 'error', 'code', 'details', 'requestId'].includes(key));
  if (keys.length) return `error body has fields outside part 1 §7: ${keys.join(', ')}`;
  if (body.statusCode !== status) return `error body statusCode ${body.statusCode} on a ${status}`;
  if (body.error !== statusName(status)) return `error body error "${body.error}" on a ${status}`;
  if (typeof body.code !== 'string' || !(body.code in errorCodes)) return `error body code ${JSON.stringify(body.code)} is not in the registry`;
  if (errorCodes[body.code as keyof typeof errorCodes].status !== status) return `code ${body.code} belongs to ${errorCodes[body.code as keyof typeof errorCodes].status}, answered ${status}`;
  const message = body.message;
  if (!(typeof message === 'string' || (Array.isArray(message) && message.every((item) => typeof item === 'string')))) return 'error body message is neither a string nor strings';
  if (body.details !== undefined && (typeof body.details !== 'object' || body.details === null || Array.isArray(body.details))) return 'error body details is not an object';
  if (typeof body.requestId !== 'string' || body.requestId !== response.headers['x-request-id']) return `requestId ${JSON.stringify(body.requestId)} differs from x-request-id ${response.headers['x-request-id']}`;
  return undefined;
}

function describeRequest(request: RawRequest): string {
  const body = request.body ? request.body.subarray(0, 600).toString('utf8') + (request.body.length > 600 ? `… (${request.body.length} bytes)` : '') : '(none)';
  const target = request.target.length > 400 ? `${request.target.slice(0, 400)}… (${request.target.length} chars)` : request.target;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, value.length > 120 ? `${value.slice(0, 120)}… (${value.length} chars)` : value]));
  return `${request.method} ${target}\n    headers ${JSON.stringify(headers)}\n    body ${JSON.stringify(body)}`;
}

function report(failure: Failure): string {
  const answer = failure.response ? `\n    answer ${failure.response.status} ${failure.response.body.subarray(0, 400).toString('utf8')}` : '';
  return `#${failure.index} [${failure.input.operation.method} ${failure.input.operation.path}, credential ${failure.input.credential}] ${failure.problem}\n    ${describeRequest(failure.input.request)}${answer}\n    replay: FUZZ_SEED=${SEED} FUZZ_ONLY=${failure.index}`;
}

describe('every operation of the OpenAPI document, fuzzed', () => {
  it(`answers ${INPUTS} generated requests with a 2xx or a 4xx and the error body, never a 5xx or a hang (seed ${SEED})`, { timeout: 900_000 }, async () => {
    console.log(`openapi fuzz: FUZZ_SEED=${SEED}, ${INPUTS} inputs, ${usingRealServices ? 'real services' : 'embedded'}`);
    const document = JSON.parse((await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).text()));
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(100);
    for (const destructive of SELF_DESTRUCTIVE) expect(operations.map((operation) => `${operation.method} ${operation.path}`)).toContain(destructive);
    const arbitraries = new RequestArbitraries(credentials, pools);
    const inputs = arbitraries.inputs(operations);
    // every operation gets a handful of inputs of its own first, so none depends on the draw
    const perOperation = operations.map((operation) => arbitraries.input(operation));
    const COVERAGE = 3;
    const coverageInputs = operations.length * COVERAGE;

    const inputAt = (() => {
      let chunkIndex = -1;
      let chunk: FuzzInput[] = [];
      return (index: number): FuzzInput => {
        if (index < coverageInputs) {
          const operation = Math.floor(index / COVERAGE);
          return fc.sample(perOperation[operation]!, { seed: SEED + 1_000_000 + index, numRuns: 1 })[0]!;
        }
        const at = index - coverageInputs;
        const wanted = Math.floor(at / CHUNK);
        if (wanted !== chunkIndex) {
          chunk = fc.sample(inputs, { seed: SEED + wanted, numRuns: CHUNK });
          chunkIndex = wanted;
        }
        return chunk[at % CHUNK]!;
      };
    })();

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    const byCredential = new Map<string, number>();
    const reachedOk = new Set<string>();
    const latencies: number[] = [];
    let crashed: string | undefined;
    const exited = (code: number | null) => (crashed = `the server exited with ${code}`);
    server.child.once('exit', exited);

    const indices = ONLY === undefined ? Array.from({ length: INPUTS }, (_, index) => index) : [ONLY];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < indices.length && !crashed && failures.length < 20) {
        const index = indices[next++]!;
        const input = inputAt(index);
        let response: RawResponse;
        try {
          response = await send(agent, server.port, input.request, DEADLINE_MS);
        } catch (error) {
          if (!(error instanceof NoAnswer)) throw error;
          if (error.kind === 'timeout') {
            failures.push({ index, input, problem: `hang: ${error.message}` });
            continue;
          }
          // a kept-alive socket the server closed just as it was reused: once more on a fresh connection
          try {
            response = await send(new http.Agent({ keepAlive: false }), server.port, input.request, DEADLINE_MS);
          } catch (again) {
            failures.push({ index, input, problem: `no answer: ${(again as Error).message}` });
            continue;
          }
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const byKind = `${input.credential} ${response.status}`;
        byCredential.set(byKind, (byCredential.get(byKind) ?? 0) + 1);
        latencies.push(response.ms);
        if (response.status < 300) reachedOk.add(`${input.operation.method} ${input.operation.path}`);
        const problem = problemWith(input.operation, response);
        if (problem) failures.push({ index, input, problem, response });
      }
    };
    // the first inputs of each chunk are generated by whichever worker gets there; the sequence stays the same
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    server.child.off('exit', exited);

    latencies.sort((a, b) => a - b);
    const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
    const sent = latencies.length + failures.filter((failure) => !failure.response).length;
    const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
    const expensive = operations.filter(isExpensive).length;
    console.log(
      `openapi fuzz: ${sent} inputs over ${operations.length} operations (${expensive} expensive) in ${seconds.toFixed(1)} s ` +
        `(${(sent / seconds).toFixed(0)}/s, p50 ${percentile(0.5)} ms, p99 ${percentile(0.99)} ms, max ${percentile(1)} ms); ` +
        `answers ${histogram}; ${reachedOk.size} operations answered a 2xx at least once`,
    );
    console.log(`openapi fuzz: by credential ${[...byCredential.entries()].sort().map(([kind, count]) => `${kind}×${count}`).join(' ')}`);
    const neverOk = operations.map((operation: Operation) => `${operation.method} ${operation.path}`).filter((name) => !reachedOk.has(name));
    if (neverOk.length) console.log(`openapi fuzz: never a 2xx: ${neverOk.join(', ')}`);
    const unhandled = server.output.filter((line) => line.includes('"unhandled error"'));

    const summary = [
      crashed ? `${crashed}\n${server.output.slice(-20).join('\n')}` : '',
      ...failures.map(report),
      ...unhandled.slice(0, 5).map((line) => `server log: ${line.slice(0, 1_500)}`),
    ].filter(Boolean);
    expect(summary, `FUZZ_SEED=${SEED}\n${summary.join('\n\n')}`).toEqual([]);
    if (ONLY === undefined) expect(sent).toBe(INPUTS);
  });
});
