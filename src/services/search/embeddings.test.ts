import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingSignal, EmbeddingsClient, MAX_EMBEDDINGS_RESPONSE_BYTES, nearestCategories, parseEmbeddings } from './embeddings.js';

/** A local OpenAI-style endpoint: vectors by keyword, and misbehaviours chosen by the input text. */
let server: Server;
let url: string;
const received: { authorization?: string; model?: string }[] = [];
const KEYWORDS = [['restaurant', 'sushi'], ['pharmacy', 'aspirin'], ['cafe', 'espresso']];
const vectorOf = (text: string) => [...KEYWORDS.map((group) => group.filter((word) => text.toLowerCase().includes(word)).length), 0.01];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      received.push({ authorization: request.headers.authorization, model: parsed.model });
      const first = parsed.input[0] ?? '';
      if (first === 'slow') return void setTimeout(() => response.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 0, 0, 0] }] })), 500);
      if (first === 'huge') return void response.end(JSON.stringify({ data: [{ index: 0, embedding: new Array(MAX_EMBEDDINGS_RESPONSE_BYTES / 4).fill(0.5) }] }));
      if (first === 'broken') return void response.end(JSON.stringify({ data: [{ index: 0, embedding: ['x'] }] }));
      if (first === 'fail') return void response.writeHead(500).end('{}');
      if (first === 'moved') return void response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data: parsed.input.map((text, index) => ({ index, embedding: vectorOf(text) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const categories = [
  { slug: 'restaurant', text: 'Restaurant: restaurants, dinner' },
  { slug: 'pharmacy', text: 'Pharmacy: chemist, drugstore' },
  { slug: 'cafe', text: 'Cafe: coffee' },
];
const logger = pino({ level: 'silent' });

describe('embeddings client', () => {
  it('embeds with the model and bearer key, one vector per input in order', async () => {
    const client = new EmbeddingsClient({ url, model: 'test-model', apiKey: 'secret-key', timeoutMs: 2_000 });
    expect(await client.embed(['sushi', 'aspirin'])).toEqual([[1, 0, 0, 0.01], [0, 1, 0, 0.01]]);
    expect(received.at(-1)).toEqual({ authorization: 'Bearer secret-key', model: 'test-model' });
  });

  it('refuses slow, oversized, malformed, failing and redirected answers', async () => {
    const client = new EmbeddingsClient({ url, model: 'm', timeoutMs: 200 });
    await expect(client.embed(['slow'])).rejects.toThrow(/timeout|aborted/i);
    await expect(client.embed(['huge'], 5_000)).rejects.toThrow(/over \d+ bytes/);
    await expect(client.embed(['broken'])).rejects.toThrow(/bad vector/);
    await expect(client.embed(['fail'])).rejects.toThrow(/500/);
    await expect(client.embed(['moved'])).rejects.toThrow();
  });

  it('checks the answer shape', () => {
    expect(() => parseEmbeddings('{"data":[]}', 1)).toThrow();
    expect(() => parseEmbeddings('{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}', 2)).toThrow(/index/);
    expect(() => parseEmbeddings('{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1,2]}]}', 2)).toThrow(/dimensions/);
  });
});

describe('embedding signal', () => {
  it('gives the categories nearest a query once the categories are embedded; unavailable before and on failure', async () => {
    const signal = new EmbeddingSignal(new EmbeddingsClient({ url, model: 'm', timeoutMs: 200 }), categories, logger);
    expect((await signal.categoriesFor('sushi')).status).toBe('unavailable');
    await signal.warm();
    const sushi = await signal.categoriesFor('sushi');
    expect(sushi.status).toBe('used');
    expect([...sushi.categories]).toEqual([['restaurant', 0.8]]);
    expect(await signal.categoriesFor('slow')).toEqual({ status: 'unavailable', categories: new Map() });
    expect((await signal.categoriesFor('nothing related')).categories.size).toBe(0);
  });

  it('keeps only the top band above the similarity floor', () => {
    const near = nearestCategories([1, 1, 0], [
      { slug: 'a', vector: [1, 1, 0] },
      { slug: 'b', vector: [1, 0.9, 0] },
      { slug: 'c', vector: [0, 0, 1] },
    ]);
    expect([...near]).toEqual([['a', 0.8], ['b', 0.6]]);
    expect(nearestCategories([0, 0, 1], [{ slug: 'a', vector: [1, 0, 0] }]).size).toBe(0);
  });
});
