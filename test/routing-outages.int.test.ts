/**
 * The engine's own failures on the routing POSTs follow the availability envelope of spec part 1 §7 and
 * part 3 §4.1: a computation past its time budget answers 201 `{ provider, available: false, path, request,
 * reason: "timeout" }` with Retry-After, on every engine-backed routing endpoint, where it used to be 503
 * COMPUTATION_TIMEOUT. (A full waiting line, `reason: "busy"`, is in routing.int.test.ts; input the engine
 * cannot route stays a 400 there and in routing-analysis.int.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const A = { lat: 30.0626, lon: 31.3219 };
const B = { lat: 30.07, lon: 31.34 };
const C = { lat: 30.055, lon: 31.33 };

let server: ServerProcess;
let api: ApiClient;
let token: string;

beforeAll(async () => {
  // one worker and the smallest budget the configuration allows: whatever waits behind a long task runs out of time
  server = await startServerProcess({ WORKER_THREADS: '1', ROUTING_TIMEOUT_MS: '100' });
  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'outage')).token;
  // the start-up hierarchy build is over once a matrix (which waits for it) answers within the budget
  const deadline = Date.now() + 60_000;
  while ((await api.post('/routing/matrix', { locations: [A, B] }, token)).body?.available !== true) {
    if (Date.now() > deadline) throw new Error('the routing engine never became ready');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

/** Engine-backed routing POSTs with a body each, bare Valhalla payloads or `{ payload }` as the endpoint takes them. */
const REQUESTS: [path: string, body: Record<string, unknown>][] = [
  ['/routing/route', { payload: { locations: [A, B], costing: 'auto' } }],
  ['/routing/plan', { locations: [A, B], includeLabels: false }],
  ['/routing/matrix', { locations: [A, B, C] }],
  ['/routing/optimize', { locations: [A, B, C, A] }],
  ['/routing/route-attributes', { locations: [A, B] }],
  ['/routing/isochrone', { locations: [A], costing: 'pedestrian', contours: [{ time: 60 }] }],
  ['/routing/map-match', { shape: [A, { lat: 30.0631, lon: 31.3227 }, { lat: 30.0636, lon: 31.3235 }], costing: 'auto' }],
];

describe('a computation past its time budget', () => {
  it('answers 201 available: false with reason "timeout", the request and Retry-After on every engine-backed routing POST', async () => {
    // an hour's walk over all of Nasr City keeps the one worker busy for 70-300 ms; three in a row keep it busy well
    // past the 100 ms budget of the requests queued behind them, whichever of the three ran out of time itself
    const walk = { locations: [A], costing: 'pedestrian', contours: [{ time: 60 }] };
    const blockers = [1, 2, 3].map(() => api.post('/routing/isochrone', walk, token));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answers = await Promise.all(REQUESTS.map(([path, body]) => api.post(path, body, token)));
    const blocked = (await Promise.all(blockers)).filter((response) => response.body.available === false);
    expect(blocked.length).toBeGreaterThan(0);
    for (const response of blocked) {
      expect(response.body).toEqual({
        provider: 'svc',
        available: false,
        path: '/routing/isochrone',
        request: { ...walk, polygons: false, denoise: 1, generalize: 0, show_locations: false },
        reason: 'timeout',
        retryAfterSeconds: 1,
      });
    }
    answers.forEach((response, index) => expect(response.body.available, REQUESTS[index]![0]).toBe(false));
    for (const response of [...blocked, ...answers]) {
      expect(response.status).toBe(201);
      expect(response.headers.get('retry-after')).toBe('1');
    }
    answers.forEach((response, index) => {
      const [path, body] = REQUESTS[index]!;
      expect(response.body, path).toMatchObject({ provider: 'svc', available: false, path, reason: 'timeout', retryAfterSeconds: 1 });
      expect(response.body.data, path).toBeUndefined();
      // the request as the engine read it (defaults filled in; a map-matching trace as its points)
      const sent = (body.payload ?? body) as { locations?: unknown; shape?: unknown };
      if (sent.locations) expect(response.body.request.locations, path).toEqual(sent.locations);
      if (sent.shape) expect(response.body.request.points, path).toEqual(sent.shape);
    });
  });

  it('serves the next request once the line has drained', async () => {
    // a timed-out task's worker is ended and a new one started; a request that meets the restart may time out in
    // the line, but once the new worker is up (it warms the engine before taking tasks) routes answer again. A worker
    // that built its engine inside the first task's budget was ended by it, over and over: this never recovered.
    const deadline = Date.now() + 40_000;
    let answer = await api.post('/routing/route', { payload: { locations: [A, B] } }, token);
    while (answer.body.available !== true && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      answer = await api.post('/routing/route', { payload: { locations: [A, B] } }, token);
    }
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ available: true, path: '/routing/route' });
    expect(answer.headers.get('retry-after')).toBeNull();
  }, 60_000);
});
