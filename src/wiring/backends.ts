import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { Bus } from '../actors/runtime/bus/bus.js';
import { MemoryBus } from '../actors/runtime/bus/memory-bus.js';
import type { WorkQueue, WorkQueueOptions } from '../actors/runtime/work-queue/work-queue.js';
import { MemoryWorkQueue } from '../actors/runtime/work-queue/memory-work-queue.js';
import type { CounterStore } from '../store/counters/counter-store.js';
import { MemoryCounterStore } from '../store/counters/memory-counter-store.js';
import { BatchingCounterStore } from '../store/counters/batching-counter-store.js';
import { applyMigrations } from '../store/sql/migrate.js';
import { migrations } from '../store/sql/migrations/index.js';
import type { SqlClient } from '../store/sql/sql-client.js';

/** The three stateful dependencies; each is real when its URL is configured and embedded otherwise. */
export interface Backends {
  sql: SqlClient;
  counters: CounterStore;
  bus: Bus;
  /** Durable work queues: JetStream beside the NATS bus, in-process beside the memory bus. */
  workQueue: WorkQueueFactory;
}

/** Makes a work queue; `subject` is its JetStream subject (unused in process). */
export type WorkQueueFactory = (options: WorkQueueOptions & { subject: string }) => WorkQueue;

/** How long start-up waits for Redis/NATS before serving anyway (readiness then reports them). */
const STARTUP_CONNECT_WAIT_MS = 3_000;

// The client libraries of the backends (postgres, PGlite, redis, NATS) are imported when chosen: a process loads
// only the ones it uses, which takes a third off start-up's module loading (redis alone ~200 ms).

export async function openSql(config: Config): Promise<SqlClient> {
  if (config.DATABASE_URL) {
    const { createPostgresClient } = await import('../store/sql/postgres-client.js');
    return createPostgresClient({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, statementTimeoutMs: config.DATABASE_TIMEOUT_MS });
  }
  const { createPgliteClient } = await import('../store/sql/pglite-client.js');
  return createPgliteClient({ dataDir: pgliteDir(config.DATA_DIR), schema: config.DATABASE_SCHEMA });
}

function pgliteDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? 'memory://' : `${dataDir.replace(/\/$/, '')}/pglite`;
}

/**
 * Opens every backend. The database must be reachable (its schema is a
 * precondition, so a failure stops start-up); Redis and NATS may come later:
 * the process serves and `/ready` names what is missing.
 */
export async function openBackends(config: Config, logger: Logger): Promise<Backends> {
  // opened side by side: the connections' round trips overlap (Redis and NATS wait for their servers at most
  // STARTUP_CONNECT_WAIT_MS and then serve without them)
  const [sql, counters, bus] = await Promise.allSettled([openMigratedSql(config, logger), openCounters(config, logger), openBus(config, logger)]);
  if (sql.status === 'fulfilled' && counters.status === 'fulfilled' && bus.status === 'fulfilled') return { sql: sql.value, counters: counters.value, bus: bus.value.bus, workQueue: bus.value.workQueue };
  // one did not open (the database, which is a precondition, or a client that could not even be made): close the
  // others, then fail start-up with the first error
  const closers = [sql.status === 'fulfilled' && sql.value, counters.status === 'fulfilled' && counters.value, bus.status === 'fulfilled' && bus.value.bus];
  await Promise.allSettled(closers.map((backend) => (backend ? closeWithinBound(backend.close()) : undefined)));
  throw [sql, counters, bus].find((backend) => backend.status === 'rejected')!.reason;
}

async function openMigratedSql(config: Config, logger: Logger): Promise<SqlClient> {
  const sql = await openSql(config);
  try {
    const report = await applyMigrations(sql, config.DATABASE_SCHEMA, migrations);
    logger.info({ sql: sql.kind, applied: report.applied, schema: config.DATABASE_SCHEMA }, 'database migrated');
    return sql;
  } catch (error) {
    await sql.close().catch(() => undefined);
    throw new Error(`Database unavailable (${sql.kind}): ${(error as Error).message}`, { cause: error });
  }
}

async function openCounters(config: Config, logger: Logger): Promise<CounterStore> {
  if (!config.REDIS_URL) return new MemoryCounterStore();
  const { RedisCounterStore } = await import('../store/counters/redis-counter-store.js');
  const redis = new RedisCounterStore({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger });
  await redis.connect(STARTUP_CONNECT_WAIT_MS);
  // while Redis is away, limits and lockouts are counted per process (docs/reliability.md)
  const { LocalFallbackCounterStore } = await import('../store/counters/local-fallback-counter-store.js');
  return new LocalFallbackCounterStore(new BatchingCounterStore(redis), logger);
}

async function openBus(config: Config, logger: Logger): Promise<{ bus: Bus; workQueue: WorkQueueFactory }> {
  if (!config.NATS_URL) {
    return { bus: new MemoryBus((error, subject) => logger.error({ err: error, subject }, 'bus handler failed')), workQueue: (options) => new MemoryWorkQueue(options) };
  }
  const [{ NatsBus }, { JetStreamWorkQueue }] = await Promise.all([import('../actors/runtime/bus/nats-bus.js'), import('../actors/runtime/work-queue/jetstream-work-queue.js')]);
  const nats = new NatsBus({ servers: config.NATS_URL, name: `svc-edge-${process.pid}`, logger });
  await nats.waitUntilConnected(STARTUP_CONNECT_WAIT_MS);
  return { bus: nats, workQueue: (options) => new JetStreamWorkQueue({ ...options, connection: () => nats.whenConnected(), logger }) };
}

/** A backend that does not close within this bound is abandoned; the process is exiting anyway. */
const CLOSE_TIMEOUT_MS = 5_000;

const closeWithinBound = (work: Promise<void>) =>
  Promise.race([work, new Promise<void>((_, reject) => setTimeout(() => reject(new Error('close timed out')), CLOSE_TIMEOUT_MS).unref())]);

export async function closeBackends(backends: Backends, logger: Logger): Promise<void> {
  const results = await Promise.allSettled([closeWithinBound(backends.bus.close()), closeWithinBound(backends.counters.close()), closeWithinBound(backends.sql.close())]);
  for (const result of results) {
    if (result.status === 'rejected') logger.warn({ err: result.reason }, 'backend did not close cleanly');
  }
}

export function describeBackends(backends: Backends): Record<string, string> {
  return { sql: backends.sql.kind, counters: backends.counters.kind, bus: backends.bus.kind };
}
