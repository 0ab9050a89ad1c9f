import postgres from 'postgres';
import type { QueryOptions, Row, SqlClient, SqlExecutor } from './sql-client.js';
import { SqlError } from './sql-error.js';

export interface PostgresClientOptions {
  url: string;
  schema: string;
  /** Pool size; the edge is I/O bound so a small pool per process suffices. */
  maxConnections?: number;
}

type Sql = postgres.Sql | postgres.TransactionSql;

const PREPARED = { prepare: true } as const;

function executorFor(sql: Sql): SqlExecutor {
  return {
    async query<T extends Row>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<T[]> {
      try {
        const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], options?.prepared ? PREPARED : undefined);
        return rows as unknown as T[];
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
  const base = executorFor(sql);
  return {
    kind: 'postgres',
    ...base,
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return (await sql.begin((tx) => work(executorFor(tx)))) as T;
    },
    async ping(): Promise<void> {
      await sql`select 1`;
    },
    async close(): Promise<void> {
      await sql.end({ timeout: 5 });
    },
  };
}
