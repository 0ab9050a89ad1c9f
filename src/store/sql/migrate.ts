import type { SqlClient } from './sql-client.js';

export interface Migration {
  /** Strictly increasing; never reused or edited once released. */
  version: number;
  name: string;
  sql: string;
}

/** Arbitrary constant that names the migration lock among Postgres advisory locks. */
const MIGRATION_LOCK_KEY = 7_240_119_301;

export interface MigrationReport {
  applied: number[];
  alreadyApplied: number[];
}

/**
 * Applies pending migrations in one transaction under a transaction-scoped
 * advisory lock, so two processes starting at once apply each migration exactly
 * once: the second waits for the first, then sees everything applied.
 */
export async function applyMigrations(
  sql: SqlClient,
  schema: string,
  migrations: readonly Migration[],
): Promise<MigrationReport> {
  assertOrdered(migrations);
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  return sql.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // Inside the lock: concurrent "create schema if not exists" can otherwise race on the catalog.
    await tx.exec(`create schema if not exists "${schema}"`);
    await tx.exec(
      `create table if not exists schema_migrations (
         version integer primary key,
         name text not null,
         applied_at timestamptz not null default now()
       )`,
    );
    const rows = await tx.query<{ version: number }>('select version from schema_migrations order by version');
    const done = new Set(rows.map((row) => Number(row.version)));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { applied, alreadyApplied: [...done].sort((a, b) => a - b) };
  });
}

function assertOrdered(migrations: readonly Migration[]): void {
  for (let index = 1; index < migrations.length; index++) {
    const previous = migrations[index - 1]!;
    const current = migrations[index]!;
    if (current.version <= previous.version) {
      throw new Error(`Migration ${current.name} (v${current.version}) is not after v${previous.version}`);
    }
  }
}
