import postgres from 'postgres';
import { sessionLockText, type QueryOptions, type Row, type SessionLock, type SqlClient, type SqlExecutor } from './sql-client.js';
import { isConnectionFailure, SqlError, STATEMENT_TIMEOUT } from './sql-error.js';

export interface PostgresClientOptions {
  url: string;
  schema: string;
  /** Pool size; the edge is I/O bound so a small pool per process suffices. */
  maxConnections?: number;
  /** Longest a statement may take, waiting for a connection included (default 10 s); scripts (`exec`) are not bounded. */
  statementTimeoutMs?: number;
}


type Sql = postgres.Sql | postgres.TransactionSql;

/**
 * Why every statement has a deadline: while the database cannot be reached, postgres.js keeps a statement that
 * asked for a new connection waiting and reconnects for it until the database is back (seen: 13 of 15 concurrent
 * statements failed at once with ECONNRESET, the other two, and every later one, waited the whole outage), and a
 * statement on a connection whose peer went silent (a partition) waits forever. At the deadline the statement is
 * cancelled — one still queued, or waiting for its connection, is dropped and never runs later — and fails as an
 * outage (503 with Retry-After). One already sent cannot be recalled: it may still commit after the caller was told
 * 503, as after any lost answer.
 */
function withDeadline<T>(pending: postgres.PendingQuery<postgres.Row[]>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      pending.cancel();
      reject(Object.assign(new Error(`no answer from the database within ${timeoutMs} ms`), { code: STATEMENT_TIMEOUT }));
    }, timeoutMs);
  });
  return Promise.race([pending as unknown as Promise<T>, deadline]).finally(() => clearTimeout(timer));
}

const PREPARED = { prepare: true } as const;

function executorFor(sql: Sql, statementTimeoutMs: number): SqlExecutor {
  return {
    async query<T extends Row>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<T[]> {
      try {
        return await withDeadline<T[]>(sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], options?.prepared ? PREPARED : undefined), statementTimeoutMs);
      } catch (error) {
        throw new SqlError(error, text);
      }
    },
    async exec(script: string): Promise<void> {
      try {
        // `simple()` uses the simple query protocol, which accepts several statements.
        await sql.unsafe(script).simple();
      } catch (error) {
        throw new SqlError(error, script);
      }
    },
  };
}

/** Postgres through the `postgres` driver, used when DATABASE_URL is set. */
export function createPostgresClient(options: PostgresClientOptions): SqlClient {
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    connect_timeout: 10,
    connection: { search_path: options.schema, application_name: 'svc-edge' },
    // Dates stay ISO strings and bigints stay exact; repositories convert explicitly.
    types: { bigint: postgres.BigInt },
  });
  const statementTimeoutMs = options.statementTimeoutMs ?? 10_000;
  const base = executorFor(sql, statementTimeoutMs);
  return {
    kind: 'postgres',
    ...base,
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      // BEGIN waits for a connection like any statement; a transaction that gets one only after its deadline (the
      // caller was answered 503 meanwhile) rolls back before any of its statements runs
      let abandoned = false;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abandoned = true;
          reject(Object.assign(new Error(`no connection to the database within ${statementTimeoutMs} ms`), { code: STATEMENT_TIMEOUT }));
        }, statementTimeoutMs);
      });
      try {
        const transaction = sql.begin((tx) => {
          clearTimeout(timer);
          if (abandoned) throw Object.assign(new Error('transaction abandoned: its caller was answered at the deadline'), { code: STATEMENT_TIMEOUT });
          return work(executorFor(tx, statementTimeoutMs));
        });
        // a transaction that started after all still settles (and rolls back); nothing waits for it
        transaction.catch(() => undefined);
        return (await Promise.race([transaction, deadline])) as T;
      } catch (error) {
        // BEGIN or COMMIT on a connection that is gone fails in the driver, outside `work`'s statements
        if (!(error instanceof SqlError) && isConnectionFailure((error as { code?: unknown } | null)?.code as string | undefined)) throw new SqlError(error, 'begin … commit');
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    async sessionLock(name: string): Promise<SessionLock> {
      // a connection of its own: a session lock belongs to the connection that took it, and the pool would hand
      // that one to other statements (which would then share it) and could close it (which would drop it)
      const reserved = await sql.reserve();
      const key = sessionLockText(options.schema, name);
      try {
        // no deadline: the holder may seed for minutes, and dies with its connection if it dies
        await reserved`select pg_advisory_lock(hashtext(${key}))`;
      } catch (error) {
        reserved.release();
        throw new SqlError(error, 'select pg_advisory_lock(hashtext($1))');
      }
      let held = true;
      return {
        async release() {
          if (!held) return;
          held = false;
          try {
            await reserved`select pg_advisory_unlock(hashtext(${key}))`;
          } finally {
            reserved.release();
          }
        },
      };
    },
    async ping(): Promise<void> {
      await sql`select 1`;
    },
    async close(): Promise<void> {
      await sql.end({ timeout: 5 });
    },
  };
}
