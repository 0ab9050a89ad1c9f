import { describe, expect, it } from 'vitest';
import { defineRoute } from '../src/edge/route.js';
import { readJson } from './support/services.js';
import { startTestEdge } from './support/test-edge.js';

describe('graceful shutdown', () => {
  it('finishes an in-flight request, then refuses new connections', async () => {
    let release: () => void = () => {};
    let started: () => void = () => {};
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const edge = await startTestEdge([
      defineRoute({
        method: 'GET',
        path: '/work',
        summary: 'slow work',
        tags: ['test'],
        handler: async () => {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          return { done: true };
        },
      }),
    ]);
    const inFlight = fetch(`${edge.baseUrl}/api/v1/work`);
    await handlerStarted;
    const shutdown = edge.server.shutdown(5_000);
    // The listening socket is closed at once: a new connection is refused.
    await expect(fetch(`${edge.baseUrl}/api/v1/work`, { headers: { connection: 'close' } })).rejects.toThrow();
    expect(edge.server.inFlight).toBe(1);
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ done: true });
    expect(response.headers.get('connection')).toBe('close');
    expect(await shutdown).toEqual({ timedOut: false });
  });

  it('gives up waiting after the grace period', async () => {
    const edge = await startTestEdge([
      defineRoute({
        method: 'GET',
        path: '/stuck',
        summary: 'never answers',
        tags: ['test'],
        handler: () => new Promise(() => {}),
      }),
    ]);
    void fetch(`${edge.baseUrl}/api/v1/stuck`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await edge.server.shutdown(200)).toEqual({ timedOut: true });
  });
});
