import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import type { Bus } from './actors/runtime/bus/bus.js';
import { MemoryBus } from './actors/runtime/bus/memory-bus.js';
import { NatsBus } from './actors/runtime/bus/nats-bus.js';
import type { CounterStore } from './store/counters/counter-store.js';
import { MemoryCounterStore } from './store/counters/memory-counter-store.js';
import { RedisCounterStore } from './store/counters/redis-counter-store.js';
import { BatchingCounterStore } from './store/counters/batching-counter-store.js';
import { applyMigrations } from './store/sql/migrate.js';
import { migrations } from './store/sql/migrations/index.js';
import { createPgliteClient } from './store/sql/pglite-client.js';
import { createPostgresClient } from './store/sql/postgres-client.js';
import type { SqlClient } from './store/sql/sql-client.js';

/** The three stateful dependencies; each is real when its URL is configured and embedded otherwise. */
export interface Backends {
  sql: SqlClient;
  counters: CounterStore;
  bus: Bus;
}

/** How long start-up waits for Redis/NATS before serving anyway (readiness then reports them). */
const STARTUP_CONNECT_WAIT_MS = 3_000;

export async function openSql(config: Config): Promise<SqlClient> {
  return config.DATABASE_URL
    ? createPostgresClient({ url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA })
    : createPgliteClient({ dataDir: pgliteDir(config.DATA_DIR), schema: config.DATABASE_SCHEMA });
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
  const sql = await openSql(config);
  try {
    const report = await applyMigrations(sql, config.DATABASE_SCHEMA, migrations);
    logger.info({ sql: sql.kind, applied: report.applied, schema: config.DATABASE_SCHEMA }, 'database migrated');
  } catch (error) {
    await sql.close().catch(() => undefined);
    throw new Error(`Database unavailable (${sql.kind}): ${(error as Error).message}`, { cause: error });
  }

  let counters: CounterStore;
  if (config.REDIS_URL) {
    const redis = new RedisCounterStore({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger });
    await redis.connect(STARTUP_CONNECT_WAIT_MS);
    counters = new BatchingCounterStore(redis);
  } else {
    counters = new MemoryCounterStore();
  }

  let bus: Bus;
  if (config.NATS_URL) {
    const nats = new NatsBus({ servers: config.NATS_URL, name: `svc-edge-${process.pid}`, logger });
    await nats.waitUntilConnected(STARTUP_CONNECT_WAIT_MS);
    bus = nats;
  } else {
    bus = new MemoryBus((error, subject) => logger.error({ err: error, subject }, 'bus handler failed'));
  }
  return { sql, counters, bus };
}

/** A backend that does not close within this bound is abandoned; the process is exiting anyway. */
const CLOSE_TIMEOUT_MS = 5_000;

export async function closeBackends(backends: Backends, logger: Logger): Promise<void> {
  const bounded = (work: Promise<void>) =>
    Promise.race([
      work,
      new Promise<void>((_, reject) => setTimeout(() => reject(new Error('close timed out')), CLOSE_TIMEOUT_MS).unref()),
    ]);
  const results = await Promise.allSettled([
    bounded(backends.bus.close()),
    bounded(backends.counters.close()),
    bounded(backends.sql.close()),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') logger.warn({ err: result.reason }, 'backend did not close cleanly');
  }
}

export function describeBackends(backends: Backends): Record<string, string> {
  return { sql: backends.sql.kind, counters: backends.counters.kind, bus: backends.bus.kind };
}
