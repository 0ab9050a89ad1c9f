import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPgliteClient } from '../sql/pglite-client.js';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import type { FleetRecord } from '../../domain/fleet.js';
import { FleetRepository } from './fleets.js';

/** With DATABASE_URL set (the real-services run) the same test runs on Postgres in a schema of its own. */
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `fleets_test_${process.pid}_${Date.now().toString(36)}` : 'fleets_test';
let sql: SqlClient;

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
}, 30_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

function fleet(updatedAt: string): FleetRecord {
  return {
    id: randomUUID(),
    owner: { kind: 'key', id: 'key-1' },
    definition: { vehicles: [], stops: [] } as unknown as FleetRecord['definition'],
    plan: null,
    changeSeq: 0,
    revision: 1,
    createdAt: updatedAt,
    updatedAt,
  };
}

describe('FleetRepository retention', () => {
  it('deletes only fleets unchanged since the cut-off', async () => {
    const repository = new FleetRepository(sql);
    const stale = fleet('2026-11-01T08:00:00.000Z');
    const recent = fleet('2026-11-20T08:00:00.000Z');
    await repository.insert(stale, 'p');
    await repository.insert(recent, 'p');
    expect(await repository.deleteIdleBefore(new Date('2026-11-16T00:00:00.000Z'))).toBe(1);
    expect(await repository.load(stale.id)).toBeUndefined();
    expect(await repository.load(recent.id)).toBeDefined();
  });
});
