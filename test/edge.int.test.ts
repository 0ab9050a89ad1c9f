import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryBoolean } from '../src/edge/input.js';
import { defineRoute, HttpReply, type MultipartForm } from '../src/edge/route.js';
import { ApiError } from '../src/shared/errors.js';
import { readJson } from './support/services.js';
import { startTestEdge, type TestEdge } from './support/test-edge.js';

const BIG_BODY_BYTES = 5 * 1024 * 1024;
const bigPayload = Buffer.alloc(BIG_BODY_BYTES, 'x');
let releaseSlow: (() => void) | undefined;

const routes = [
  defineRoute({
    method: 'POST',
    path: '/things',
    summary: 'create a thing',
    tags: ['test'],
    body: z.object({ name: z.string().min(1), count: z.number().int().min(0) }),
    handler: ({ body }) => ({ created: body.name, count: body.count }),
  }),
  defineRoute({
    method: 'POST',
    path: '/small',
    summary: 'tight body limit',
    tags: ['test'],
    bodyLimitBytes: 64,
    body: z.object({ text: z.string() }),
    handler: ({ body }) => ({ length: body.text.length }),
  }),
  defineRoute({
    method: 'GET',
    path: '/things/{thingId}/parts/{partId}',
    summary: 'path params and query booleans',
    tags: ['test'],
    params: z.object({ thingId: z.string(), partId: z.coerce.number().int() }),
    query: z.object({ verbose: queryBoolean().default(false), tag: z.union([z.string(), z.array(z.string())]).optional() }),
    handler: ({ params, query }) => ({ params, query }),
  }),
  defineRoute({
    method: 'POST',
    path: '/upload',
    summary: 'multipart',
    tags: ['test'],
    bodyKind: 'multipart',
    handler: ({ body }) => {
      const form = body as unknown as MultipartForm;
      return {
        fields: form.fields,
        files: form.files.map((file) => ({ field: file.field, filename: file.filename, type: file.contentType, bytes: file.data.length, text: file.data.toString('utf8') })),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/boom',
    summary: 'throws',
    tags: ['test'],
    handler: () => {
      throw new Error('secret database password is hunter2');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/teapot',
    summary: 'api error with headers',
    tags: ['test'],
    handler: () => {
      throw new ApiError('RATE_LIMITED', { details: { limit: 1 }, headers: { 'retry-after': '7' } });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/big',
    summary: 'large body',
    tags: ['test'],
    handler: () => HttpReply.content(bigPayload, 'application/octet-stream'),
  }),
  defineRoute({
    method: 'GET',
    path: '/slow',
    summary: 'waits until released',
    tags: ['test'],
    handler: async () => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      return { finished: true };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/nothing',
    summary: 'returns undefined',
    tags: ['test'],
    handler: () => undefined,
  }),
];

let edge: TestEdge;
beforeAll(async () => {
  edge = await startTestEdge(routes);
});
afterAll(async () => {
  await edge.close();
});

const url = (path: string) => `${edge.baseUrl}/api/v1${path}`;

function expectErrorShape(body: Record<string, unknown>, status: number, code: string) {
  expect(body.statusCode).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(typeof body.requestId).toBe('string');
  expect((body.requestId as string).length).toBeGreaterThan(0);
}

describe('routing and status codes', () => {
  it('answers POST with 201 and the handler result', async () => {
    const response = await fetch(url('/things'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pump', count: 3 }),
    });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toEqual({ created: 'pump', count: 3 });
  });

  it('decodes path parameters and spec booleans in the query', async () => {
    for (const [raw, expected] of [['true', true], ['1', true], ['yes', true], ['ON', true], ['false', false], ['0', false], ['no', false], ['off', false]] as const) {
      const response = await fetch(url(`/things/caf%C3%A9/parts/42?verbose=${raw}&tag=a&tag=b`));
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({ params: { thingId: 'café', partId: 42 }, query: { verbose: expected, tag: ['a', 'b'] } });
    }
  });

  it('refuses a non-boolean flag with a 400 naming the query field', async () => {
    const response = await fetch(url('/things/a/parts/1?verbose=maybe'));
    const body = await readJson(response);
    expect(response.status).toBe(400);
    expectErrorShape(body, 400, 'VALIDATION_ERROR');
    expect(body.message).toEqual([expect.stringContaining('query.verbose')]);
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    const response = await fetch(url('/no/such/route'));
    const body = await readJson(response);
    expect(response.status).toBe(404);
    expectErrorShape(body, 404, 'NOT_FOUND');
    expect(body.error).toBe('Not Found');
    expect(body.message).toBe('Cannot GET /api/v1/no/such/route');
    expect(response.headers.get('x-request-id')).toBe(body.requestId);
  });

  it('answers a handler returning nothing with JSON null', async () => {
    const response = await fetch(url('/nothing'));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('null');
  });
});

describe('input validation', () => {
  it('gives 400 VALIDATION_ERROR with a message array on schema failures', async () => {
    const response = await fetch(url('/things'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', count: -1, extra: true }),
    });
    const body = await readJson(response);
    expect(response.status).toBe(400);
    expectErrorShape(body, 400, 'VALIDATION_ERROR');
    expect(body.error).toBe('Bad Request');
    expect(Array.isArray(body.message)).toBe(true);
    expect(body.message).toHaveLength(2);
    expect(body.message.join(' ')).toMatch(/name/);
    expect(body.message.join(' ')).toMatch(/count/);
  });

  it('gives 400 (not 500) on malformed JSON', async () => {
    const response = await fetch(url('/things'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": "x",' });
    const body = await readJson(response);
    expect(response.status).toBe(400);
    expectErrorShape(body, 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual({ reason: 'malformed_json' });
  });

  it('gives 400 on a missing body where one is required', async () => {
    const response = await fetch(url('/things'), { method: 'POST' });
    expect(response.status).toBe(400);
    expectErrorShape(await readJson(response), 400, 'VALIDATION_ERROR');
  });

  it('gives 415 for a body that is not JSON', async () => {
    const response = await fetch(url('/things'), { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' });
    expect(response.status).toBe(415);
    expectErrorShape(await readJson(response), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('body limits', () => {
  it('answers 413 in the error shape when Content-Length is over the route limit', async () => {
    const response = await fetch(url('/small'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(200) }),
    });
    const body = await readJson(response);
    expect(response.status).toBe(413);
    expectErrorShape(body, 413, 'PAYLOAD_TOO_LARGE');
    expect(body.details).toEqual({ limitBytes: 64 });
  });

  it('answers 413 for a chunked body that grows past the default limit', async () => {
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(url('/things'), { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      const chunk = Buffer.alloc(256 * 1024, ' ');
      for (let sent = 0; sent < 2 * 1024 * 1024; sent += chunk.length) request.write(chunk);
      request.end();
    });
    expect(result.status).toBe(413);
    expectErrorShape(JSON.parse(result.body), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a body right at the limit', async () => {
    const text = 'y'.repeat(64 - JSON.stringify({ text: '' }).length);
    const response = await fetch(url('/small'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toEqual({ length: text.length });
  });
});

describe('multipart', () => {
  it('parses fields and files', async () => {
    const form = new FormData();
    form.set('language', 'ar');
    form.set('audio', new Blob([Buffer.from('RIFF....WAVE')], { type: 'audio/wav' }), 'clip.wav');
    const response = await fetch(url('/upload'), { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toEqual({
      fields: { language: 'ar' },
      files: [{ field: 'audio', filename: 'clip.wav', type: 'audio/wav', bytes: 12, text: 'RIFF....WAVE' }],
    });
  });

  it('refuses a JSON body on a multipart route with 415', async () => {
    const response = await fetch(url('/upload'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(415);
  });
});

describe('errors', () => {
  it('turns unexpected exceptions into a 500 that leaks nothing but the request id', async () => {
    const response = await fetch(url('/boom'));
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('hunter2');
    const body = JSON.parse(text);
    expectErrorShape(body, 500, 'INTERNAL_ERROR');
    expect(body.message).toBe('Internal server error');
  });

  it('sends the headers an ApiError carries', async () => {
    const response = await fetch(url('/teapot'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    const body = await readJson(response);
    expectErrorShape(body, 429, 'RATE_LIMITED');
    expect(body.details).toEqual({ limit: 1 });
  });
});

describe('request id', () => {
  it('echoes a sane caller request id', async () => {
    const response = await fetch(url('/no-route'), { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-abc.123');
    expect((await readJson(response)).requestId).toBe('trace-abc.123');
  });

  it('replaces an unsafe request id with a fresh one', async () => {
    const response = await fetch(url('/no-route'), { headers: { 'x-request-id': 'x'.repeat(300) } });
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('cross-origin', () => {
  it('reflects Origin and exposes the quota headers', async () => {
    const response = await fetch(url('/things/a/parts/1'), { headers: { origin: 'https://maps.example.jo' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://maps.example.jo');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = response.headers.get('access-control-expose-headers') ?? '';
    for (const header of ['x-svc-quota-remaining-minute', 'X-RateLimit-Remaining', 'Retry-After', 'x-request-id']) {
      expect(exposed).toContain(header);
    }
  });

  it('answers preflight for any path with the allowed headers', async () => {
    const response = await fetch(url('/things'), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.sa', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.sa');
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const header of ['x-api-key', 'authorization', 'content-type', 'x-svc-source']) expect(allowed).toContain(header);
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('adds no CORS headers without an Origin', async () => {
    const response = await fetch(url('/things/a/parts/1'));
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('large responses and aborted clients', () => {
  it('delivers a multi-megabyte body intact to a slow reader', async () => {
    const received = await new Promise<Buffer>((resolve, reject) => {
      httpRequest(url('/big'), (response) => {
        const chunks: Buffer[] = [];
        response.pause();
        // Read slowly at first so the server meets a full socket and must wait for drain.
        setTimeout(() => response.resume(), 300);
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(received.length).toBe(BIG_BODY_BYTES);
    expect(received.equals(bigPayload)).toBe(true);
  });

  it('survives a client that disconnects while a large answer waits for the socket to drain', async () => {
    const socket = connect(edge.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // never read: the answer (written inside the handler) stops at a full socket and waits for it to drain
    socket.write('GET /api/v1/big HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const response = await fetch(url('/things/a/parts/1'));
    expect(response.status).toBe(200);
  });

  it('survives a client that disconnects mid-request and keeps serving', async () => {
    const socket = connect(edge.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /api/v1/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseSlow?.();
    const response = await fetch(url('/things/a/parts/1'));
    expect(response.status).toBe(200);
  });
});

describe('metrics', () => {
  it('counts requests per route pattern and status', async () => {
    await fetch(url('/things/x/parts/7'));
    const { text } = await edge.metrics.render();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/things\/\{thingId\}\/parts\/\{partId\}",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="unmatched",status="404"\}/);
  });
});
