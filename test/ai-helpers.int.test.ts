/**
 * The AI helpers and voice input black-box (spec part 3 §4.7, part 1 §8): search understanding, route
 * labels (on a real route of the embedded Nasr City data), constraints, the 30/min per-IP throttle,
 * and POST /ai/transcribe against a local fake OpenAI-compatible transcription engine.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

/** What the fake engine saw last: the form's model, language and file bytes' first four. */
let engineSaw: { model?: string; language?: string; magic?: string } = {};
let engineMode: 'ok' | 'slow' | 'error' = 'ok';
let engine: Server;
const env: Record<string, string> = { TRANSCRIBE_MODEL: 'fake-whisper', TRANSCRIBE_TIMEOUT_MS: '1000' };
beforeAll(async () => {
  engine = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData();
      const file = form.get('file') as Blob;
      engineSaw = { model: String(form.get('model')), language: form.get('language') === null ? undefined : String(form.get('language')), magic: Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1') };
      if (engineMode === 'error') return response.writeHead(500).end('{}');
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: ' take me home ', language: 'english' }));
      if (engineMode === 'slow') return void setTimeout(answer, 3_000);
      answer();
    });
  });
  await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
  env.TRANSCRIBE_URL = `http://127.0.0.1:${(engine.address() as AddressInfo).port}/v1/audio/transcriptions`;
});
afterAll(() => new Promise<void>((resolve) => engine.close(() => resolve())));

const fixture = useServer(env);
const api = fixture.api;
let token: string;
beforeAll(async () => {
  token = (await registerUser(api, 'helpers')).token;
});

describe('POST /ai/search-understanding', () => {
  it('answers strict JSON: intent, filters, category hints, locale, urgency', async () => {
    const response = await api.post('/ai/search-understanding', { query: 'cheap pharmacy open now near me, urgent' }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ model: 'svc-ai', unavailable: false, purpose: 'search_understanding', content: expect.any(String) });
    const content = JSON.parse(response.body.content);
    expect(content).toMatchObject({ intent: 'search', locale: 'en', urgency: 'high', filters: { openNow: true, nearby: true, price: 'low' } });
    expect(content.categoryHints).toContain('pharmacy');
    const arabic = JSON.parse((await api.post('/ai/search-understanding', { query: 'مطعم قريب تقييم فوق 4' }, token)).body.content);
    expect(arabic).toMatchObject({ locale: 'ar', script: 'arabic', urgency: 'normal', filters: { minRating: 4 } });
    expect(arabic.categoryHints).toContain('restaurant');
    expect((await api.post('/ai/search-understanding', {}, token)).status).toBe(400);
    expect((await api.post('/ai/search-understanding', { query: 'x' })).status).toBe(401);
  });
});

describe('POST /ai/route-labels', () => {
  it('labels a real routing envelope deterministically; an unusable trip gives empty content and null parsed', async () => {
    const routed = await api.post('/routing/route', { payload: { locations: [{ lat: 30.0626, lon: 31.3219 }, { lat: 30.07, lon: 31.34 }] }, includeLabels: false }, token);
    expect(routed.status).toBe(201);
    const first = await api.post('/ai/route-labels', { payload: routed.body }, token);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ model: 'svc-ai', unavailable: false, purpose: 'route_labels', parsed: { label: expect.stringMatching(/^(Via |Direct route)/), tip: expect.stringMatching(/turn/) } });
    expect(JSON.parse(first.body.content)).toEqual(first.body.parsed);
    expect((await api.post('/ai/route-labels', { payload: routed.body }, token)).body).toEqual(first.body);
    for (const payload of [{}, { provider: 'svc', available: false, path: '/route', reason: 'timeout' }, { data: { trip: { legs: [] } } }]) {
      expect((await api.post('/ai/route-labels', { payload }, token)).body, JSON.stringify(payload)).toEqual({ model: 'svc-ai', unavailable: false, purpose: 'route_labels', content: '', parsed: null });
    }
    expect((await api.post('/ai/route-labels', { payload: 'a route' }, token)).status).toBe(400);
  });
});

describe('POST /ai/constraints', () => {
  it('reads avoidances, time windows, vehicle limits, turn and area rules in English', async () => {
    const response = await api.post('/ai/constraints', { text: 'No tolls, deliver between 9am and 12pm, the truck is 4.2 m high and weighs 12 tons, no left turns; avoid the city centre. Also sing.' }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      model: 'svc-ai',
      purpose: 'constraints',
      plan: { avoid: ['tolls'], costing: 'truck', vehicle: { heightM: 4.2, weightT: 12 }, noLeftTurns: true, avoidAreas: ['city_centre'] },
      constraints: { avoid: ['tolls'], timeWindows: [{ start: '09:00', end: '12:00' }], vehicle: { heightM: 4.2, weightT: 12, hazmat: false }, noLeftTurns: true, avoidAreas: ['city_centre'] },
    });
    expect(response.body.unparsed).toEqual(['also sing']);
  });

  it('reads Arabic phrasings and gives a plan block /routing/plan accepts as it is', async () => {
    const response = await api.post('/ai/constraints', { text: 'بدون طرق سريعة، التوصيل بعد الساعة ٢ الظهر، بدون لف لليسار وتجنب وسط البلد، أقصر طريق' }, token);
    expect(response.body.constraints).toMatchObject({ avoid: ['highways'], timeWindows: [{ start: '14:00', end: null }], noLeftTurns: true, avoidAreas: ['city_centre'] });
    expect(response.body.plan).toMatchObject({ avoid: ['highways'], preference: 'shortest', noLeftTurns: true, avoidAreas: ['city_centre'] });
    expect(response.body.plan).not.toHaveProperty('timeWindows');
    const planned = await api.post('/routing/plan', { locations: [{ lat: 30.0626, lon: 31.3219 }, { lat: 30.07, lon: 31.34 }], ...response.body.plan }, token);
    expect(planned.status).toBe(201);
    expect((await api.post('/ai/constraints', { text: 'x'.repeat(2_001) }, token)).status).toBe(400);
  });
});

describe('the AI helpers throttle', () => {
  it('allows 30 requests a minute per client IP, then 429 RATE_LIMITED', async () => {
    let refused: any;
    let sent = 0;
    // a minute window restarts at :00; two windows' worth is enough to meet the limit inside one
    while (!refused && sent < 62) {
      const response = await api.post('/ai/constraints', { text: 'no tolls' }, token, { 'x-forwarded-for': '203.0.113.9' });
      sent++;
      expect(response.headers.get('x-ratelimit-limit')).toBe('30');
      if (response.status === 429) refused = response;
    }
    expect(refused?.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /ai/transcribe', () => {
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(200, 1)]);
  const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200, 2)]);
  const m4a = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(200, 3)]);
  const send = async (parts: { name: string; data: Buffer | string; filename?: string }[], query = '') => {
    const form = new FormData();
    for (const part of parts) {
      if (part.filename) form.append(part.name, new Blob([new Uint8Array(part.data as Buffer)]), part.filename);
      else form.append(part.name, String(part.data));
    }
    const response = await fetch(`${fixture.server.baseUrl}/api/v1/ai/transcribe${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('transcribes WebM, Ogg and MP4/M4A through the configured engine, sniffing the bytes', async () => {
    engineMode = 'ok';
    for (const [data, magic] of [[webm, '\x1a\x45\xdf\xa3'], [ogg, 'OggS'], [m4a, '\0\0\0\x20']] as const) {
      const response = await send([{ name: 'file', data, filename: 'clip.bin' }], '?language=AR');
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ text: 'take me home', language: 'ar', unavailable: false });
      expect(engineSaw).toEqual({ model: 'fake-whisper', language: 'ar', magic });
    }
    // an unknown language is clamped to auto (never 400) and the engine's detection is reported
    const auto = await send([{ name: 'file', data: webm, filename: 'a.webm' }], '?language=klingon');
    expect(auto).toMatchObject({ status: 201, body: { language: 'en', unavailable: false } });
    expect(engineSaw.language).toBeUndefined();
  });

  it('answers unavailable for an empty clip, a failing engine and a late one', async () => {
    expect((await send([{ name: 'file', data: Buffer.alloc(0), filename: 'a.webm' }])).body).toEqual({ text: '', language: 'auto', unavailable: true });
    engineMode = 'error';
    expect((await send([{ name: 'file', data: webm, filename: 'a.webm' }])).body).toMatchObject({ text: '', unavailable: true });
    engineMode = 'slow';
    const started = Date.now();
    expect((await send([{ name: 'file', data: ogg, filename: 'a.ogg' }])).body).toMatchObject({ text: '', unavailable: true });
    expect(Date.now() - started).toBeLessThan(2_500);
    engineMode = 'ok';
  });

  it('refuses non-multipart bodies, a missing file part and non-audio bytes with 400', async () => {
    const json = await api.post('/ai/transcribe', { file: 'x' }, token);
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Expected multipart/form-data' });
    const noFile = await send([{ name: 'language', data: 'en' }]);
    expect(noFile.status).toBe(400);
    expect(JSON.stringify(noFile.body.message)).toContain('file');
    const text = await send([{ name: 'file', data: Buffer.from('hello, this is not audio'), filename: 'a.webm' }]);
    expect(text.status).toBe(400);
    expect((await fetch(`${fixture.server.baseUrl}/api/v1/ai/transcribe`, { method: 'POST', body: new FormData() })).status).toBe(401);
  });
});
