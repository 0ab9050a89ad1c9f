import { mkdir } from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DataDirLock } from './data-dir-lock.js';
import { sessionLockText, type Row, type SessionLock, type SqlClient, type SqlExecutor } from './sql-client.js';
import { SqlError } from './sql-error.js';

/**
 * Postgres's default buffer pool (128 MB) is set up inside PGlite's WASM memory at every start: ~0.4–0.6 s of
 * start-up and ~100 MiB of resident memory for a database that holds accounts, keys and session state. 32 MB
 * still caches all of that; what does not fit is one memory copy away (in-memory data) or in the OS page cache.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

export interface PgliteClientOptions {
  /** A directory, or `memory://` for a database that lives only as long as the process. */
  dataDir: string;
  schema: string;
}

function executorFor(db: PGlite | Transaction): SqlExecutor {
  return {
    async query<T extends Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      try {
        return (await db.query<T>(text, params as unknown[])).rows;
      } catch (error) {
        throw new SqlError(error, text);
      }
    },
    async exec(script: string): Promise<void> {
      try {
        await db.exec(script);
      } catch (error) {
        throw new SqlError(error, script);
      }
    },
  };
}

/**
 * Embedded Postgres (PGlite, real Postgres compiled to WASM) used when no
 * DATABASE_URL is configured. Same SQL, same migrations as production.
 */
export async function createPgliteClient(options: PgliteClientOptions): Promise<SqlClient> {
  let lock: DataDirLock | undefined;
  if (!options.dataDir.startsWith('memory://')) {
    await mkdir(options.dataDir, { recursive: true });
    lock = await DataDirLock.acquire(options.dataDir);
  }
  let db: PGlite | undefined;
  try {
    // pg_trgm: the place catalogue's name indexes (migration 013); PGlite loads contrib extensions only when named here
    db = await PGlite.create({ dataDir: options.dataDir, startParams: START_PARAMS, extensions: { pg_trgm } });
    await db.exec(`create schema if not exists "${options.schema}"; set search_path to "${options.schema}"`);
  } catch (error) {
    await db?.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
  const base = executorFor(db);
  return {
    kind: 'pglite',
    ...base,
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(executorFor(tx)));
    },
    async sessionLock(name: string): Promise<SessionLock> {
      // one session: the lock is ours at once, and only marks the span (a second process cannot open the data dir)
      const key = sessionLockText(options.schema, name);
      await db.query('select pg_advisory_lock(hashtext($1))', [key]);
      let held = true;
      return {
        async release() {
          if (!held) return;
          held = false;
          await db.query('select pg_advisory_unlock(hashtext($1))', [key]);
        },
      };
    },
    async ping(): Promise<void> {
      await db.query('select 1');
    },
    async close(): Promise<void> {
      try {
        await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
}
