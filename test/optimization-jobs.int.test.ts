/**
 * Optimization jobs over HTTP (spec part 3 §3, §4.5): submit, poll, and the
 * same answer as the synchronous endpoint; unknown and foreign ids; input
 * checks; the per-caller cap on open jobs.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { LONG_SEARCH_STOPS, NASR_CITY_STOPS, waitForJob } from './support/optimization.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

let bearer: string | undefined;
async function token(): Promise<string> {
  bearer ??= (await registerUser(api, 'jobs')).token;
  return bearer;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function submit(body: Record<string, unknown>, auth?: string) {
  const response = await api.post('/optimize/jobs', body, auth ?? (await token()));
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { jobId: string; status: string; kind: string };
}

describe('POST /optimize/jobs then GET /optimize/jobs/{id}', () => {
  it('answers the job id at once and completes with the result the binpack endpoint gives', async () => {
    const problem = { itemWeights: [7, 5, 4, 4, 3, 2, 2, 1], binCapacities: [10, 10, 10, 10] };
    const accepted = await submit({ kind: 'binpack', ...problem });
    expect(accepted).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'running', kind: 'binpack' });
    const job = await waitForJob(api, accepted.jobId, await token());
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id: accepted.jobId, kind: 'binpack', status: 'completed' });
    expect(job.body.createdAt).toMatch(ISO);
    expect(job.body.finishedAt).toMatch(ISO);
    expect(Date.parse(job.body.finishedAt)).toBeGreaterThanOrEqual(Date.parse(job.body.createdAt));
    // kept about a day after it finished
    expect(Date.parse(job.body.expiresAt) - Date.parse(job.body.finishedAt)).toBe(24 * 3600 * 1000);
    const direct = await api.post('/optimize/binpack', problem, await token());
    expect(job.body.result).toEqual(direct.body);
    expect(job.body.result.binsUsed).toBe(3);
  });

  it('runs a roster job to the answer of the roster endpoint', async () => {
    const problem = { numDrivers: 3, numDays: 4, demand: [[1, 1], [2, 0], [1, 1], [1, 0]], minRestDays: 1 };
    const accepted = await submit({ kind: 'roster', ...problem });
    const job = await waitForJob(api, accepted.jobId, await token());
    const direct = await api.post('/optimize/roster', problem, await token());
    expect(job.body.status).toBe('completed');
    expect(job.body.result).toEqual(direct.body);
    expect(job.body.result.peakLoad).toBe(3);
  });

  it('treats a body without kind as a routes job and finds the plan the routes endpoint finds', { timeout: 60_000 }, async () => {
    const problem = { stops: NASR_CITY_STOPS.slice(0, 5), tier: 'fast' };
    const accepted = await submit(problem);
    expect(accepted.kind).toBe('routes');
    const [job, direct] = await Promise.all([waitForJob(api, accepted.jobId, await token()), api.post('/optimize/routes', problem, await token())]);
    expect(job.body.status, JSON.stringify(job.body)).toBe('completed');
    expect(direct.status).toBe(201);
    // four deliveries on one vehicle: both searches reach the optimal tour
    expect(job.body.result.objective).toEqual(direct.body.objective);
    expect(job.body.result).toMatchObject({ provider: 'svc-optimize', feasible: true, dropped: [] });
    const visited = job.body.result.routes[0].order.filter((stop: number) => stop !== 0);
    expect([...visited].sort()).toEqual([1, 2, 3, 4]);
  });

  it('reports a problem the routing engine refuses as a failed job with that error', async () => {
    const accepted = await submit({ kind: 'routes', stops: NASR_CITY_STOPS.slice(0, 3), costing: 'truck', tier: 'fast' });
    const job = await waitForJob(api, accepted.jobId, await token());
    expect(job.body).toMatchObject({ id: accepted.jobId, status: 'failed', error: { code: 'COSTING_UNAVAILABLE' } });
    expect(job.body.finishedAt).toMatch(ISO);
    expect(job.body).not.toHaveProperty('result');
  });

  it('answers the spec\'s "job not found" for unknown ids and for another caller\'s job', async () => {
    const unknown = { error: 'job not found', status: 'unknown' };
    for (const id of [randomUUID(), 'not-a-job-id']) {
      const response = await api.get(`/optimize/jobs/${id}`, await token());
      expect(response.status).toBe(200);
      expect(response.body).toEqual(unknown);
    }
    const accepted = await submit({ kind: 'binpack', itemWeights: [1, 2], binCapacities: [5] });
    const other = (await registerUser(api, 'jobs-other')).token;
    expect((await api.get(`/optimize/jobs/${accepted.jobId}`, other)).body).toEqual(unknown);
    expect((await waitForJob(api, accepted.jobId, await token())).body.status).toBe('completed');
  });

  it('rejects bad jobs with 400s naming the problem, and callers without credentials with 401', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'tsp', stops: NASR_CITY_STOPS }, 'kind must be one of'],
      [{ kind: 'routes' }, 'stops'],
      [{ stops: NASR_CITY_STOPS.slice(0, 1) }, 'stops'],
      [{ kind: 'binpack', itemWeights: [1], binCapacities: [2], stops: NASR_CITY_STOPS }, 'stops'],
      [{ kind: 'roster', numDrivers: 2, numDays: 2, demand: [[1, 1]] }, 'demand'],
      [{ kind: 'reoptimize', vehiclePositions: [NASR_CITY_STOPS[0]], remainingStops: NASR_CITY_STOPS, demands: [1] }, 'demands'],
    ];
    for (const [body, mentioned] of cases) {
      const response = await api.post('/optimize/jobs', body, await token());
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(response.body.message)).toContain(mentioned);
    }
    expect((await api.post('/optimize/jobs', { kind: 'binpack', itemWeights: [1], binCapacities: [2] })).status).toBe(401);
    expect((await api.get(`/optimize/jobs/${randomUUID()}`)).status).toBe(401);
  });

  it('refuses a body over the job size limit with 413', async () => {
    const response = await api.post('/optimize/jobs', { kind: 'binpack', itemWeights: new Array(300_000).fill(1), binCapacities: [1] }, await token());
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('documents both job endpoints in the OpenAPI document, the body as one schema per kind', async () => {
    const document = (await api.get('/openapi.json')).body;
    const submitOperation = document.paths['/api/v1/optimize/jobs'].post;
    const body = submitOperation.requestBody.content['application/json'].schema;
    const kinds = (body.oneOf ?? body.anyOf).map((member: { properties: { kind: { const: string } } }) => member.properties.kind.const);
    expect(kinds).toEqual(['routes', 'reoptimize', 'binpack', 'roster']);
    expect(document.paths['/api/v1/optimize/jobs/{id}'].get).toBeDefined();
  });

  // last: it leaves long searches queued on the server
  it('caps the open jobs of one caller with 429 until some finish', { timeout: 30_000 }, async () => {
    const busy = (await registerUser(api, 'jobs-busy')).token;
    const long = { stops: LONG_SEARCH_STOPS, tier: 'best' };
    for (let index = 0; index < 10; index++) await submit(long, busy);
    const refused = await api.post('/optimize/jobs', long, busy);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'too_many_open_jobs', limit: 10 } });
    // other callers are not held back by it
    await submit({ kind: 'binpack', itemWeights: [1], binCapacities: [2] });
  });
});
