/**
 * Meaning-based search with an embeddings endpoint (spec part 2 §4.3 `semantic=on`; docs/places.md
 * "Embeddings"): a local OpenAI-compatible fake started by this test embeds by keyword groups; the
 * server embeds its categories at start, then each semantic query within EMBEDDINGS_TIMEOUT_MS. A query
 * the concept index does not know ("sushi") finds restaurants through it; a slow or failing endpoint
 * is skipped silently (`embeddings: "unavailable"`, the concept index alone).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess, serverTestTimeout } from './support/server-process.js';

const API_KEY = 'embeddings-test-key-5f2c';
/** Words of each dimension: the fake's whole "model". */
const GROUPS = [['restaurant', 'sushi', 'مطعم', 'ramen'], ['pharmacy', 'aspirin', 'صيدلية'], ['cafe', 'café', 'coffee', 'latte']];
const requests: { authorization: string | undefined; model: string; inputs: number }[] = [];
let fake: Server;
let server: ServerProcess;
let api: ApiClient;

function vectorOf(text: string): number[] {
  const lowered = text.toLowerCase();
  // a constant last dimension keeps vectors non-zero; unrelated texts stay far from every category
  return [...GROUPS.map((words) => words.reduce((sum, word) => sum + (lowered.includes(word) ? 1 : 0), 0)), 0.05];
}

beforeAll(async () => {
  fake = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      requests.push({ authorization: request.headers.authorization, model: parsed.model, inputs: parsed.input.length });
      const answer = () => response.end(JSON.stringify({ object: 'list', data: parsed.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })) }));
      if (parsed.input[0] === 'ramen') return void setTimeout(answer, 1_500); // slower than the server waits
      if (parsed.input[0]?.startsWith('aspirin')) return void response.writeHead(503).end('{"error":"overloaded"}');
      answer();
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1/embeddings`;
  server = await startServerProcess({ EMBEDDINGS_URL: url, EMBEDDINGS_API_KEY: API_KEY, EMBEDDINGS_MODEL: 'fake-embed-1', EMBEDDINGS_TIMEOUT_MS: '400' });
  api = apiClient(server.baseUrl);
  // the categories are embedded in the background after start
  for (let attempt = 0; attempt < 100 && !server.output.some((line) => line.includes('category embeddings ready')); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
}, 180_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await new Promise<void>((resolve) => fake?.close(() => resolve()));
});

describe('semantic search with an embeddings endpoint', () => {
  it('embedded the categories once at start with the configured model and key', () => {
    expect(requests[0]).toMatchObject({ authorization: `Bearer ${API_KEY}`, model: 'fake-embed-1' });
    expect(requests[0]!.inputs).toBeGreaterThan(50);
    expect(server.output.join('\n')).not.toContain(API_KEY);
  });

  it('a query the concept index does not know finds restaurants by embedding (index.mode hybrid)', async () => {
    const response = await api.get('/search?q=sushi&semantic=on&limit=50');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ semantic: true, index: { mode: 'hybrid', concepts: [], embeddings: 'used' } });
    expect(response.body.total).toBeGreaterThan(5);
    expect(response.body.items.every((item: any) => item.categories.includes('restaurant'))).toBe(true);
    expect(response.body.items[0].match).toMatchObject({ kind: 'meaning', meaning: 0.8 });
    // without semantic=on the endpoint is not asked
    const before = requests.length;
    expect((await api.get('/search?q=sushi')).body).toMatchObject({ total: 0, index: { mode: 'text', embeddings: 'off' } });
    expect(requests.length).toBe(before);
  });

  it('goes on without the signal when the endpoint is slow or failing', async () => {
    const started = performance.now();
    const slow = await api.get('/search?q=ramen&semantic=on');
    expect(performance.now() - started).toBeLessThan(1_400);
    expect(slow.body).toMatchObject({ total: 0, index: { mode: 'text', embeddings: 'unavailable' } });
    const failing = await api.get('/search?q=aspirin&semantic=on');
    expect(failing.status).toBe(200);
    expect(failing.body.index.embeddings).toBe('unavailable');
    // the concept index still answers: "sick" is a concept of its own
    const sick = await api.get('/search?q=aspirin%20sick&semantic=on');
    expect(sick.body.index).toMatchObject({ mode: 'hybrid', embeddings: 'unavailable' });
    expect(sick.body.items[0].categories).toContain('pharmacy');
  });
});

describe('start-up checks', () => {
  it('refuses an embeddings URL that is plain http off loopback or carries credentials', { timeout: serverTestTimeout(2) }, async () => {
    for (const url of ['http://10.1.2.3/v1/embeddings', 'https://user:pw@api.example.com/v1/embeddings']) {
      await expect(startServerProcess({ EMBEDDINGS_URL: url })).rejects.toThrow(/EMBEDDINGS_URL/);
    }
  });
});
