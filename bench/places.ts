/**
 * Place catalogue benchmark (`npm run bench -- places`), issue #24: GET /places?near= and name
 * queries (`q`), sequentially (p50/p99, server CPU per request) and at 32 connections (req/s), on
 *  1. the default catalogue (the 201 Nasr City POIs seeded from the pack) on the embedded PGlite, and
 *     on Postgres;
 *  2. a catalogue grown to 100 000 places on Postgres: the real places copied to random points of a
 *     1° × 1° square around Cairo (seeded pseudo-random, names kept) — GENERATED rows, labelled so.
 * Target (issue #24): p99 ≤ 10 ms sequential at 100 000 places.
 *
 * The whole run takes about 17 minutes. While iterating:
 *  - BENCH_PLACES_ONLY=generated: only the 100 000 catalogue on Postgres (no PGlite, no default-catalogue rows);
 *  - BENCH_PLACES_REQUESTS=N: N sequential requests per query after N/7 warm-up (default 2 000 after 300);
 *  - BENCH_PLACES_SECONDS=S: the 32-connection load per query (default 10; 0 skips it, its columns stay empty).
 * The CSV header and conditions line say which were used.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { sequentialLatency } from './geocode.js';
import { conditions, freePort, pinLoadGenerator, processCpuMs, round, sharedDeploymentEnv, startProcess, type StartedProcess } from './support.js';
import { httpLoad } from './wrk.js';
import { pino } from 'pino';
import type { PlacesService } from '../src/services/places/places-service.js';
import { CategoryWords, ConceptIndex } from '../src/services/search/concept-index.js';
import type { LiveSearchIndex } from '../src/services/search/live-search-index.js';
import { SearchService } from '../src/services/search/search-service.js';
import { PlaceSearchRepository } from '../src/store/pg/place-search.js';
import { PlaceRepository } from '../src/store/pg/places.js';
import { createPostgresClient } from '../src/store/sql/postgres-client.js';
import type { SqlClient, SqlExecutor } from '../src/store/sql/sql-client.js';

const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const TARGET_P99_MS = 10;
const GROWN_TO = 100_000;
const SEQUENTIAL_REQUESTS = Number(process.env.BENCH_PLACES_REQUESTS ?? 2_000);
const WARMUP_REQUESTS = process.env.BENCH_PLACES_REQUESTS === undefined ? 300 : Math.ceil(SEQUENTIAL_REQUESTS / 7);
const SEQUENTIAL_WITH_WARMUP = SEQUENTIAL_REQUESTS + WARMUP_REQUESTS;
const LOAD_SECONDS = Number(process.env.BENCH_PLACES_SECONDS ?? 10);
/** `generated`: only the 100 000 catalogue on Postgres. */
const ONLY_GENERATED = process.env.BENCH_PLACES_ONLY === 'generated';
/** Nasr City's box, where the real places are (and the origins of `near`). */
const NASR = { west: 31.28, south: 30.03, east: 31.4, north: 30.11 };
/** Generated places: 1° × 1° around Cairo. */
const GROWN = { west: 30.8, south: 29.55, east: 31.8, north: 30.55 };

/** 64 origins on a grid over a box (a fixed set: runs compare). */
function origins(box: typeof NASR, count = 64): string[] {
  const side = Math.round(Math.sqrt(count));
  const points: string[] = [];
  for (let row = 0; row < side; row++) {
    for (let column = 0; column < side; column++) {
      const lat = box.south + ((row + 0.5) / side) * (box.north - box.south);
      const lng = box.west + ((column + 0.5) / side) * (box.east - box.west);
      points.push(`${lat.toFixed(5)},${lng.toFixed(5)}`);
    }
  }
  return points;
}

/** Name fragments people type, English and Arabic, present in the real data. */
const NAME_QUERIES = ['pharmacy', 'bank', 'cafe', 'hospital', 'school', 'صيدلية', 'بنك', 'مستشفى', 'مدرسة', 'كافيه', 'market', 'مول'].map(encodeURIComponent);

interface Row {
  catalogue: string;
  database: string;
  query: string;
  p50: number;
  p99: number;
  cpu: number | undefined;
  rps: number | undefined;
  loadP99: number | undefined;
  loadRun: boolean;
}

async function measureServer(server: StartedProcess, base: string, label: { catalogue: string; database: string }, rows: Row[]): Promise<void> {
  server.child.once('exit', (code, signal) => console.error(`# the server exited (code ${code}, signal ${signal}) during ${label.catalogue}, ${label.database}`));
  const queries: Record<string, string[]> = {
    'near (limit 50)': origins(label.catalogue.startsWith('generated') ? GROWN : NASR).map((origin) => `/api/v1/places?near=${origin}`),
    'near + radiusKm=2 (limit 20)': origins(label.catalogue.startsWith('generated') ? GROWN : NASR).map((origin) => `/api/v1/places?near=${origin}&radiusKm=2&limit=20`),
    'q name (limit 20)': NAME_QUERIES.map((q) => `/api/v1/places?q=${q}&limit=20`),
    ...searchQueries(label.catalogue.startsWith('generated') ? GROWN : NASR),
  };
  for (const [query, paths] of Object.entries(queries)) {
    console.error(`# ${label.catalogue}, ${label.database}: ${query}`);
    for (const path of paths) await fetch(`${base}${path}`).then((response) => response.text());
    const cpuBefore = processCpuMs(server.child.pid!);
    const latency = await sequentialLatency(base, paths, SEQUENTIAL_REQUESTS, WARMUP_REQUESTS);
    const cpuAfter = processCpuMs(server.child.pid!);
    const load = LOAD_SECONDS > 0 ? await httpLoad({ url: base, paths, connections: 32, durationSeconds: LOAD_SECONDS, clients: 1_000, warmupSeconds: 3 }) : undefined;
    rows.push({
      ...label,
      query,
      p50: latency.p50Ms,
      p99: latency.p99Ms,
      cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / SEQUENTIAL_WITH_WARMUP,
      rps: load && load.non2xx + load.errors === 0 ? load.requestsPerSecond : undefined,
      loadP99: load?.p99Ms,
      loadRun: load !== undefined,
    });
  }
}

/** Queries people type, in English, Arabic and Arabizi (chat alphabet), all names or words of the real data. */
const SEARCH_QUERIES = ['kfc', 'pizza hut', 'starbucks', 'tiba mall', 'pharmacy', 'bank', 'صيدلية ساندي', 'ورد الشام', 'مستشفى', 'بنك', '7amza', 'rab3a el 3adaweya', '2ahwa', 'ja3an'].map(encodeURIComponent);
/** Prefixes as typed letter by letter. */
const TYPEAHEAD = ['k', 'kf', 'st', 'sta', 'tib', 'pha', 'ph', 'ص', 'صي', 'صيد', 'مس', 'مست', 'ba', 'ban'].map(encodeURIComponent);
/** Needs rather than names (semantic=on: concept index; no embeddings endpoint in the bench). */
const MEANINGS = ['hungry', 'جوعان', 'ja3an', 'pharmacy open now', 'coffee', 'cash', 'sick', 'صيدلية مفتوح'].map(encodeURIComponent);

/** /search (issue #24, spec part 2 §4.3): text, typeahead, semantic, category near an origin, suggestions. */
function searchQueries(box: typeof NASR): Record<string, string[]> {
  const points = origins(box);
  return {
    'search q (limit 20)': SEARCH_QUERIES.map((q) => `/api/v1/search?q=${q}`),
    'search q + near (limit 20)': SEARCH_QUERIES.flatMap((q, index) => [`/api/v1/search?q=${q}&near=${points[(index * 5) % points.length]}`]),
    'search typeahead (limit 8)': TYPEAHEAD.map((q) => `/api/v1/search?q=${q}&mode=typeahead`),
    'search semantic=on + near (limit 20)': MEANINGS.map((q, index) => `/api/v1/search?q=${q}&semantic=on&near=${points[(index * 7) % points.length]}`),
    'search category=pharmacy,atm near sort=distance': points.map((origin) => `/api/v1/search?category=pharmacy,atm&near=${origin}&sort=distance`),
    'search/suggestions (empty and prefixes)': ['', 'ph', 'ka', 'صي', 'tib', 'مس'].map((q) => `/api/v1/search/suggestions?q=${encodeURIComponent(q)}`),
  };
}

/** Copies the seeded places to random points until the catalogue holds `target` places (generated rows). */
/** Grows the catalogue to `target` places: the real ones copied to random points of `box` (GENERATED rows). */
export async function grow(databaseUrl: string, schema: string, target: number, box: typeof GROWN = GROWN): Promise<{ ms: number; places: number }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  const started = performance.now();
  try {
    const count = Number((await sql`select count(*)::int as count from places`)[0]!.count);
    await sql`select setseed(0.24)`;
    // the copies keep their originals' names, so their search documents too (indexed as of now: updated_at = search_indexed_at)
    await sql.unsafe(
      `insert into places (id, osm_type, osm_id, slug, name_en, name_ar, name_en_source, name_ar_source, categories, canonical_category,
         lat, lng, country_code, time_zone, phone, website, opening_hours, hours_week_stable, amenities, tags, entrances,
         search_doc, search_names, search_prefixes, updated_at, search_indexed_at)
       select gen_random_uuid(), 'node', 1000000000000 + g, 'generated-' || g || '-' || p.slug, p.name_en, p.name_ar, p.name_en_source, p.name_ar_source,
         p.categories, p.canonical_category, ${box.south} + random() * ${box.north - box.south}, ${box.west} + random() * ${box.east - box.west},
         p.country_code, p.time_zone, p.phone, p.website, p.opening_hours, p.hours_week_stable, p.amenities, p.tags, p.entrances,
         p.search_doc, p.search_names, p.search_prefixes, now(), now()
       from generate_series(1, $1::int) g
       join (select *, row_number() over (order by slug) - 1 as n from places) p on p.n = g % $2::int`,
      [target - count, count],
    );
    await sql.unsafe('insert into place_open_intervals select p.id, i.start_minute, i.end_minute from places p join places o on o.slug = substring(p.slug from \'^generated-[0-9]+-(.*)$\') join place_open_intervals i on i.place_id = o.id where p.slug like \'generated-%\'');
    await sql`analyze places`;
    await sql`analyze place_open_intervals`;
    const total = Number((await sql`select count(*)::int as total from places`)[0]!.total);
    return { ms: performance.now() - started, places: total };
  } finally {
    await sql.end();
  }
}

/** EXPLAIN ANALYZE of the two queries at 100 000 places, for docs/places.md. */
async function explain(databaseUrl: string, schema: string): Promise<string[]> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  try {
    const plans: string[] = [];
    const distance = `(6371.0088 * 2 * asin(least(1, sqrt(power(sin(radians(p.lat - 30.05) / 2), 2) + cos(radians(30.05)) * cos(radians(p.lat)) * power(sin(radians(p.lng - 31.3) / 2), 2)))))`;
    for (const text of [
      `select p.slug, ${distance} as distance_km, count(*) over () from places p where point(p.lng, p.lat) <@ box(point(31.279, 30.032), point(31.321, 30.068)) and ${distance} <= 2 order by distance_km, p.slug limit 50`,
      `select p.slug from places p where (p.name_en_lower like '%pharmacy%' or p.name_ar_lower like '%pharmacy%') order by p.sponsored desc, p.rating desc, p.created_at desc, p.slug limit 20`,
      `select count(*) from places p where (p.name_en_lower like '%صيدلية%' or p.name_ar_lower like '%صيدلية%')`,
    ]) {
      const rows = await sql.unsafe(`explain (analyze, costs off, timing on) ${text}`);
      plans.push(`${text.replace(/\s+/g, ' ').slice(0, 160)}…\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
    }
    return plans;
  } finally {
    await sql.end();
  }
}

/**
 * EXPLAIN ANALYZE of the statements /search runs at 100 000 places: the real repository and service code
 * over a client that explains each read before running it (the sparse text plan, the typeahead prefix,
 * the dense nearest-first walk), for docs/places.md.
 */
async function explainSearch(databaseUrl: string, schema: string): Promise<string[]> {
  const client = createPostgresClient({ url: databaseUrl, schema, maxConnections: 1 });
  const plans: string[] = [];
  let label = '';
  const explaining = (executor: SqlExecutor): SqlExecutor => ({
    query: async <T extends Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]> => {
      if (/^\s*(select|with)\b/i.test(text) && !/unnest\(p\.categories\)|count\(price_level\)/.test(text)) {
        const rows = await executor.query<Record<string, string>>(`explain (analyze, buffers, costs off, timing on) ${text}`, params);
        plans.push(`${label}: ${text.replace(/\s+/g, ' ').slice(0, 200)}…\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
      }
      return executor.query<T>(text, params);
    },
    exec: (script) => executor.exec(script),
  });
  const recording: SqlClient = {
    kind: client.kind,
    ...explaining(client),
    sessionLock: (name) => client.sessionLock(name),
    transaction: (work) => client.transaction((tx) => work(explaining(tx))),
    ping: () => client.ping(),
    close: () => client.close(),
  };
  try {
    const places = new PlaceRepository(recording);
    const search = new PlaceSearchRepository(recording, places);
    const service = new SearchService({
      places: { openNowFilter: async () => ({ zones: [], openIrregularIds: [] }), shapeList: async () => [] } as unknown as PlacesService,
      placeRepository: places,
      repository: search,
      // the SQL store's plans: it answers while the in-memory index loads (docs/places.md)
      index: { candidates: (filter, cap) => search.candidates(filter, cap) } as Pick<LiveSearchIndex, 'candidates'> as LiveSearchIndex,
      concepts: ConceptIndex.standard(),
      categoryWords: new CategoryWords(),
      retentionDays: 30,
      logger: pino({ level: 'silent' }),
    });
    const base = { mode: 'full' as const, semantic: false, openNow: false, sort: 'relevance' as const, page: 1, limit: 20, locale: undefined, category: undefined, price: undefined, radiusKm: undefined, at: undefined, origin: undefined };
    for (const [name, query] of [
      ['q=kfc (sparse: GIN bitmaps, narrow sort)', { ...base, q: 'kfc' }],
      ['q=صيدلية (a word that is also a category)', { ...base, q: 'صيدلية' }],
      ['q=k, mode=typeahead (name-start prefix array)', { ...base, q: 'k', mode: 'typeahead' as const, limit: 8 }],
      ['q=bank, near (more than 1 000 match: the pool, then the nearest-first walk)', { ...base, q: 'bank', origin: { lat: 30.06, lng: 31.33 } }],
      ['q=hungry, semantic=on, near (dense: GiST nearest-first walk)', { ...base, q: 'hungry', semantic: true, origin: { lat: 30.06, lng: 31.33 } }],
    ] as const) {
      label = name;
      await service.search(query, 'en');
    }
    return plans;
  } finally {
    await client.close();
  }
}

export async function runPlacesBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const rows: Row[] = [];
  const env = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRUSTED_PROXIES: '127.0.0.1', WORKER_THREADS: '1' };

  // 1. default catalogue, embedded PGlite
  let port = await freePort();
  let server: StartedProcess;
  if (!ONLY_GENERATED) {
    server = await startProcess(productMain, [], port, { ...env, PORT: String(port), DATA_DIR: 'memory://' });
    try {
      await measureServer(server, `http://127.0.0.1:${port}`, { catalogue: 'default (201 real places)', database: 'PGlite (embedded)' }, rows);
    } finally {
      await server.stop();
    }
  }

  // 2. default catalogue, then grown to 100 000, on Postgres
  const deployment = sharedDeploymentEnv('places_bench');
  port = await freePort();
  server = await startProcess(productMain, [], port, { ...env, ...deployment, PORT: String(port) });
  let grown: { ms: number; places: number } | undefined;
  let plans: string[] = [];
  try {
    const base = `http://127.0.0.1:${port}`;
    if (!ONLY_GENERATED) await measureServer(server, base, { catalogue: 'default (201 real places)', database: 'Postgres 15' }, rows);
    grown = await grow(deployment.DATABASE_URL!, deployment.DATABASE_SCHEMA!, GROWN_TO);
    await measureServer(server, base, { catalogue: `generated: ${grown.places} (201 real, the rest copies at random points)`, database: 'Postgres 15' }, rows);
    plans = [...(await explain(deployment.DATABASE_URL!, deployment.DATABASE_SCHEMA!)), ...(await explainSearch(deployment.DATABASE_URL!, deployment.DATABASE_SCHEMA!))];
  } finally {
    await server.stop();
    const sql = postgres(deployment.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists "${deployment.DATABASE_SCHEMA}" cascade`).catch(() => undefined);
    await sql.end();
  }

  console.log(
    conditions({
      benchmark: 'places HTTP',
      pinning: pinned,
      sequential: `${SEQUENTIAL_REQUESTS} requests after ${WARMUP_REQUESTS} warm-up, one connection, one at a time; 64 origins on a grid (near) or 12 English/Arabic name fragments (q) in turn`,
      load: LOAD_SECONDS > 0 ? `32 connections for ${LOAD_SECONDS} s after 3 s warm-up (wrk when installed, else autocannon)` : 'not run (BENCH_PLACES_SECONDS=0)',
      catalogues: ONLY_GENERATED ? 'only the generated 100 000 on Postgres (BENCH_PLACES_ONLY=generated)' : 'default on PGlite and Postgres, generated 100 000 on Postgres',
      grown: grown ? `GENERATED: the real places copied to random points of ${JSON.stringify(GROWN)} up to ${grown.places} places (${round(grown.ms / 1000, 1)} s incl. ANALYZE)` : 'not run',
    }),
  );
  console.log(`# load average at the end: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other processes share both CPUs: latency measures them too; CPU per request does not)`);
  console.log('catalogue,database,query,p50_ms,p99_ms,server_cpu_ms_per_request,rps_32_connections,p99_ms_32_connections,target_p99_ms,verdict');
  for (const row of rows) {
    const judged = row.catalogue.startsWith('generated');
    console.log(
      [
        JSON.stringify(row.catalogue),
        row.database,
        JSON.stringify(row.query),
        round(row.p50, 3),
        round(row.p99, 3),
        row.cpu === undefined ? '' : round(row.cpu, 3),
        !row.loadRun ? '' : row.rps === undefined ? 'errors' : round(row.rps, 0),
        row.loadP99 === undefined ? '' : round(row.loadP99, 2),
        judged ? TARGET_P99_MS : '',
        judged ? (row.p99 <= TARGET_P99_MS ? 'met' : 'missed') : '',
      ].join(','),
    );
  }
  for (const plan of plans) console.log(`# EXPLAIN ANALYZE at ${GROWN_TO} places:\n${plan.replace(/^/gm, '# ')}`);
}
