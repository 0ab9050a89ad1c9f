/**
 * A sign-in flood (issue #33, limits): scrypt (32 MiB, ~0.1 s a hash) is computed for at most one core less than the
 * machine has at once, with a waiting line of 32; a flood past that is refused at once with 503 SERVER_BUSY and
 * Retry-After, so sign-in cannot take the cores and the thread pool from the rest of the API. The flood comes
 * from 100 client addresses (behind a trusted proxy), so the per-address lockout (50 failures) does not cut it first.
 * /health is sampled meanwhile: it must keep answering; its latencies are printed for docs/reliability.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, PASSWORD, uniqueEmail, type ApiResponse } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const FLOOD = 100;

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({ TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await server?.stop();
});

describe('a sign-in flood', () => {
  it('hashes a bounded number at once and refuses the rest with 503 SERVER_BUSY, while /health keeps answering', { timeout: 180_000 }, async () => {
    const api = apiClient(server.baseUrl);
    const user = await registerUser(api, 'flood');
    let flooding = true;
    const healthMs: number[] = [];
    const sampler = (async () => {
      while (flooding) {
        const startedAt = performance.now();
        const response = await fetch(`${server.baseUrl}/health`);
        expect(response.status).toBe(200);
        healthMs.push(performance.now() - startedAt);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const answers: ApiResponse[] = await Promise.all(
      Array.from({ length: FLOOD }, (_, index) =>
        api.post('/auth/login', { email: uniqueEmail('nobody'), password: 'a wrong password' }, undefined, { 'x-forwarded-for': `198.51.100.${index + 1}` }),
      ),
    );
    flooding = false;
    await sampler;

    const busy = answers.filter((response) => response.status === 503);
    const checked = answers.filter((response) => response.status === 400);
    expect(busy.length + checked.length).toBe(FLOOD);
    for (const response of checked) expect(response.body.details).toEqual({ reason: 'invalid_credentials' });
    expect(busy.length).toBeGreaterThan(0);
    for (const response of busy) {
      expect(response.body).toMatchObject({ code: 'SERVER_BUSY', details: { maxQueued: 32 } });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    healthMs.sort((x, y) => x - y);
    const at = (q: number) => healthMs[Math.min(healthMs.length - 1, Math.floor(q * healthMs.length))]!.toFixed(1);
    console.log(`login flood: ${FLOOD} logins, ${checked.length} checked, ${busy.length} refused busy; /health n=${healthMs.length} p50=${at(0.5)} ms p99=${at(0.99)} ms max=${at(1)} ms`);
    expect(healthMs.length).toBeGreaterThan(0);
    // once the flood is over, sign-in works (a refused attempt did not count toward any lockout)
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(201);
  });
});
