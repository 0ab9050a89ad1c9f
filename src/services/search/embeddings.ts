/**
 * The optional embedding signal of meaning-based search (spec part 2 §4.3 `semantic=on`; docs/places.md
 * "Embeddings"). With EMBEDDINGS_URL set (an OpenAI-compatible `/embeddings` endpoint, operator
 * configuration checked at start: https or loopback http, no credentials in the URL), the taxonomy's
 * categories are embedded once (names, Arabic names and aliases), and each semantic query is embedded
 * within EMBEDDINGS_TIMEOUT_MS; the categories nearest the query by cosine similarity join the concept
 * index's. Any failure (timeout, error status, a body over the size cap, a malformed answer) is silent
 * for the search: it goes on with the concept index alone and reports `embeddings: "unavailable"`.
 */
import { readBoundedText } from '../../shared/bounded-body.js';
import type { Logger } from '../../shared/logger.js';

export interface EmbeddingsSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Largest answer read: 64 inputs × 3072 dimensions of JSON numbers fit well under it. */
export const MAX_EMBEDDINGS_RESPONSE_BYTES = 8 * 1024 * 1024;
const MAX_DIMENSIONS = 8_192;
/** Time the one-off category batch may take. */
const CATEGORY_BATCH_TIMEOUT_MS = 15_000;
/** After a failed category batch, the next search tries again at most this often. */
const CATEGORY_RETRY_MS = 30_000;
const QUERY_CACHE_SIZE = 500;
/** A category joins when its similarity is at least this and within TOP_BAND of the best. */
const MIN_SIMILARITY = 0.3;
const TOP_BAND = 0.08;
const TOP_CATEGORIES = 3;

export class EmbeddingsClient {
  constructor(private readonly settings: EmbeddingsSettings) {}

  /** One vector per input, in order; throws on any failure. */
  async embed(inputs: readonly string[], timeoutMs = this.settings.timeoutMs): Promise<number[][]> {
    const response = await fetch(this.settings.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.settings.model, input: inputs }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    const text = await readBoundedText(response, MAX_EMBEDDINGS_RESPONSE_BYTES);
    if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}`);
    return parseEmbeddings(text, inputs.length);
  }
}

/** The vectors of an OpenAI-style answer `{ data: [ { index, embedding: number[] } ] }`, checked. */
export function parseEmbeddings(text: string, expected: number): number[][] {
  const body = JSON.parse(text) as { data?: unknown };
  if (!Array.isArray(body.data) || body.data.length !== expected) throw new Error('embeddings answer has no data array of the inputs length');
  const vectors: number[][] = new Array(expected);
  let dimensions: number | undefined;
  body.data.forEach((item: unknown, position: number) => {
    const entry = item as { index?: unknown; embedding?: unknown };
    const index = typeof entry.index === 'number' ? entry.index : position;
    const vector = entry.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index]) throw new Error('embeddings answer has a bad index');
    if (!Array.isArray(vector) || vector.length === 0 || vector.length > MAX_DIMENSIONS || !vector.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new Error('embeddings answer has a bad vector');
    }
    dimensions ??= vector.length;
    if (vector.length !== dimensions) throw new Error('embeddings answer mixes dimensions');
    vectors[index] = vector as number[];
  });
  return vectors;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    na += a[index]! * a[index]!;
    nb += b[index]! * b[index]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export type EmbeddingStatus = 'off' | 'used' | 'unavailable';

export interface EmbeddingAnswer {
  status: EmbeddingStatus;
  /** Category slug → weight 0..1 (best 0.8, the others of the top band 0.6). */
  categories: Map<string, number>;
}

/**
 * Categories near a query by embedding. `categories` gives each category's text (names and aliases).
 */
export class EmbeddingSignal {
  private vectors?: { slug: string; vector: number[] }[];
  private loading?: Promise<void>;
  private failedAt = Number.NEGATIVE_INFINITY;
  private readonly cache = new Map<string, number[]>();

  constructor(
    private readonly client: EmbeddingsClient,
    private readonly categories: readonly { slug: string; text: string }[],
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts embedding the categories (at start; a failure is retried by a later search). */
  warm(): Promise<void> {
    if (this.vectors) return Promise.resolve();
    if (!this.loading) {
      this.loading = this.client
        .embed(this.categories.map((category) => category.text), CATEGORY_BATCH_TIMEOUT_MS)
        .then((vectors) => {
          this.vectors = this.categories.map((category, index) => ({ slug: category.slug, vector: vectors[index]! }));
          this.logger.info({ categories: vectors.length, dimensions: vectors[0]?.length }, 'search: category embeddings ready');
        })
        .catch((error: unknown) => {
          this.failedAt = this.now();
          this.logger.warn({ err: (error as Error).message }, 'search: category embeddings unavailable; semantic search uses the concept index alone');
        })
        .finally(() => {
          this.loading = undefined;
        });
    }
    return this.loading;
  }

  /** Categories near `query` within the time limit; `unavailable` on any failure, never a throw. */
  async categoriesFor(query: string): Promise<EmbeddingAnswer> {
    if (!this.vectors) {
      if (!this.loading && this.now() - this.failedAt >= CATEGORY_RETRY_MS) void this.warm();
      return { status: 'unavailable', categories: new Map() };
    }
    let vector = this.cache.get(query);
    if (!vector) {
      try {
        [vector] = await this.client.embed([query]);
      } catch (error) {
        this.logger.debug({ err: (error as Error).message }, 'search: query embedding unavailable');
        return { status: 'unavailable', categories: new Map() };
      }
      if (vector!.length !== this.vectors[0]!.vector.length) return { status: 'unavailable', categories: new Map() };
      if (this.cache.size >= QUERY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(query, vector!);
    }
    return { status: 'used', categories: nearestCategories(vector!, this.vectors) };
  }
}

/** The top band of categories by cosine similarity (at most TOP_CATEGORIES, each ≥ MIN_SIMILARITY). */
export function nearestCategories(query: readonly number[], categories: readonly { slug: string; vector: readonly number[] }[]): Map<string, number> {
  const scored = categories.map((category) => ({ slug: category.slug, similarity: cosine(query, category.vector) })).sort((a, b) => b.similarity - a.similarity);
  const best = scored[0]?.similarity ?? 0;
  const result = new Map<string, number>();
  if (best < MIN_SIMILARITY) return result;
  for (const entry of scored.slice(0, TOP_CATEGORIES)) {
    if (entry.similarity < MIN_SIMILARITY || best - entry.similarity > TOP_BAND) break;
    result.set(entry.slug, entry.similarity === best ? 0.8 : 0.6);
  }
  return result;
}
