/** A row as returned by the driver: column name to value. */
export type Row = Record<string, unknown>;

export interface QueryOptions {
  /**
   * A statement run many times a second with the same text: the Postgres driver keeps it prepared on each
   * connection (one round trip per run). Unprepared, a statement with parameters takes two round trips (the driver
   * first asks the server for the parameter types). Only for fixed texts: every distinct text prepared stays on
   * its connection. PGlite runs in-process and ignores it.
   */
  prepared?: boolean;
}

/** What repositories need from a SQL database; both Postgres and PGlite implement it. */
export interface SqlExecutor {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<T extends Row = Row>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs statements without parameters (DDL scripts; may hold several statements). */
  exec(script: string): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction; rolls back if it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Holds a session-level advisory lock named `name` within this client's schema until `release`: another
   * process of the same deployment asking for it waits; other deployments sharing the database do not. On
   * Postgres it holds one pooled connection meanwhile (a process that dies releases it with its connection);
   * PGlite has one session, so the lock is trivially this process's.
   */
  sessionLock(name: string): Promise<SessionLock>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A held advisory lock; `release` may be called more than once. */
export interface SessionLock {
  release(): Promise<void>;
}

/** The text an advisory lock key is hashed from (`hashtext`): the schema names the deployment. */
export function sessionLockText(schema: string, name: string): string {
  return `${schema}:${name}`;
}
