/**
 * Creating under a parent deleted at the same moment (the fuzz run of 2026-11-28 met it as a 500): an
 * `insert … select … from parent` sees the parent in its snapshot, waits on the deleting transaction's row lock in
 * the foreign-key check, and fails 23503 once that commits. The repositories answer it as the parent not found.
 * Real Postgres only: PGlite runs one connection, so no second transaction can hold the delete open.
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import { ApiKeyRepository } from './api-keys.js';
import { ProjectRepository } from './projects.js';

const databaseUrl = process.env.DATABASE_URL;
const schema = `projects_race_${process.pid}_${Date.now().toString(36)}`;
let sql: SqlClient;
let other: postgres.Sql;

describe.skipIf(!databaseUrl)('creating under a parent deleted concurrently (real Postgres: needs two connections)', () => {
  beforeAll(async () => {
    sql = createPostgresClient({ url: databaseUrl!, schema });
    await applyMigrations(sql, schema, migrations);
    other = postgres(databaseUrl!, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  }, 60_000);
  afterAll(async () => {
    await other?.end();
    await sql?.exec(`drop schema if exists "${schema}" cascade`);
    await sql?.close();
  });

  /** Runs `create` while another transaction has deleted `table`'s row `id` and not committed yet, then commits it. */
  async function createDuringDelete<T>(table: 'organizations' | 'projects', id: string, create: () => Promise<T>): Promise<T> {
    let created: Promise<T> | undefined;
    await other.begin(async (tx) => {
      await tx.unsafe(`delete from ${table} where id = $1`, [id]);
      created = create();
      // the insert reaches its foreign-key check and waits on the deleted row's lock
      for (let waited = 0; waited < 100; waited++) {
        const [row] = await sql.query<{ waiting: number }>(`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into%'`);
        if (row!.waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    return created!;
  }

  async function owner(): Promise<{ userId: string; organizationId: string; projectId: string }> {
    const userId = randomUUID();
    const organizationId = randomUUID();
    const projectId = randomUUID();
    await sql.query(`insert into users (id, email) values ($1, $2)`, [userId, `${userId}@example.jo`]);
    await sql.query(`insert into organizations (id, owner_id, name, slug) values ($1, $2, 'o', $3)`, [organizationId, userId, organizationId]);
    await sql.query(`insert into projects (id, owner_id, organization_id, name) values ($1, $2, $3, 'p')`, [projectId, userId, organizationId]);
    return { userId, organizationId, projectId };
  }

  it('a project under an organization deleted meanwhile is not found (null), not an error', async () => {
    const { userId, organizationId } = await owner();
    const projects = new ProjectRepository(sql);
    const created = await createDuringDelete('organizations', organizationId, () => projects.create(userId, { id: randomUUID(), name: 'late', organizationId }));
    expect(created).toBeNull();
  });

  it('a key under a project deleted meanwhile is not found (null), not an error', async () => {
    const { userId, projectId } = await owner();
    const keys = new ApiKeyRepository(sql);
    const created = await createDuringDelete('projects', projectId, () =>
      keys.create(userId, { id: randomUUID(), projectId, keyHash: randomUUID(), lastFour: 'abcd', label: 'late', scopes: { places: true }, plan: 'free', quotaPerMinute: 10, quotaPerDay: 100, active: true, restrictions: null } as never),
    );
    expect(created).toBeNull();
  });
});
