/**
 * A `tier: "best"` flood on the synchronous route optimizer (issue #33, limits): each request holds every worker
 * thread for 20 s, so one process takes 4 at once (running or waiting their turn) and refuses one more at once with
 * 503 SERVER_BUSY and a Retry-After of the tier's length, where the line used to have no end. The accepted ones are
 * abandoned by their clients (which cancels their searches) so the test costs seconds, not minutes of both cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { LONG_SEARCH_STOPS, NASR_CITY_STOPS } from './support/optimization.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const FLOOD = 7;
const ADMITTED = 4;

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
});
afterAll(async () => {
  await server?.stop();
});

describe('a flood of best-tier route optimizations', () => {
  it(`admits ${ADMITTED} per process and refuses the rest at once with 503 SERVER_BUSY and Retry-After: 20`, { timeout: 180_000 }, async () => {
    const api = apiClient(server.baseUrl);
    const { token } = await registerUser(api, 'best-flood');
    const body = JSON.stringify({ stops: LONG_SEARCH_STOPS, numVehicles: 2, tier: 'best' });
    const clients = Array.from({ length: FLOOD }, () => new AbortController());
    const refused: { status: number; retryAfter: string | null; body: any }[] = [];
    const requests = clients.map((client) =>
      fetch(`${server.baseUrl}/api/v1/optimize/routes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
        signal: client.signal,
      }).then(
        async (response) => {
          refused.push({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() });
          return 'answered' as const;
        },
        () => 'abandoned' as const,
      ),
    );
    // the refusals come at once, long before any best search could end (20 s)
    await expect.poll(() => refused.length, { timeout: 15_000 }).toBe(FLOOD - ADMITTED);
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'SERVER_BUSY', details: { maxInFlight: ADMITTED } });
      expect(answer.retryAfter).toBe('20');
    }
    for (const client of clients) client.abort();
    expect((await Promise.all(requests)).filter((outcome) => outcome === 'abandoned')).toHaveLength(ADMITTED);

    // the abandoned searches give their places back: the server takes optimizations again
    const deadline = Date.now() + 60_000;
    let next = await api.post('/optimize/routes', { stops: NASR_CITY_STOPS.slice(0, 4), tier: 'fast' }, token);
    while (next.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      next = await api.post('/optimize/routes', { stops: NASR_CITY_STOPS.slice(0, 4), tier: 'fast' }, token);
    }
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body).toMatchObject({ feasible: true });
  });
});
