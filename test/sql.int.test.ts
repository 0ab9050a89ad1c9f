import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, type Migration } from '../src/store/sql/migrate.js';
import { createPgliteClient } from '../src/store/sql/pglite-client.js';
import { createPostgresClient } from '../src/store/sql/postgres-client.js';
import type { SqlClient } from '../src/store/sql/sql-client.js';
import { realServices, uniqueName } from './support/services.js';

const clients: SqlClient[] = [];
const schemasToDrop: string[] = [];

afterAll(async () => {
  if (schemasToDrop.length) {
    const admin = createPostgresClient({ url: realServices.databaseUrl, schema: 'public' });
    for (const schema of schemasToDrop) await admin.exec(`drop schema if exists "${schema}" cascade`);
    await admin.close();
  }
  await Promise.all(clients.map((client) => client.close()));
});

async function postgresClient(schema: string): Promise<SqlClient> {
  const client = createPostgresClient({ url: realServices.databaseUrl, schema, maxConnections: 4 });
  clients.push(client);
  // Fails (not skips) when Postgres is missing.
  await client.ping();
  return client;
}

async function pgliteClient(schema: string): Promise<SqlClient> {
  const client = await createPgliteClient({ dataDir: 'memory://', schema });
  clients.push(client);
  return client;
}

const migrations: Migration[] = [
  { version: 1, name: 'places', sql: 'create table places (id serial primary key, name text not null, name_ar text)' },
  { version: 2, name: 'places_index', sql: 'create index places_name on places (name)' },
];

describe.each([
  ['pglite', pgliteClient],
  ['postgres', postgresClient],
])('SqlClient on %s', (kind, makeClient) => {
  const newSchema = () => {
    const schema = uniqueName('s').toLowerCase();
    if (kind === 'postgres') schemasToDrop.push(schema);
    return schema;
  };

  it('applies migrations once and is idempotent on the next start', async () => {
    const schema = newSchema();
    const sql = await makeClient(schema);
    expect(await applyMigrations(sql, schema, migrations)).toEqual({ applied: [1, 2], alreadyApplied: [] });
    expect(await applyMigrations(sql, schema, migrations)).toEqual({ applied: [], alreadyApplied: [1, 2] });
    const more = [...migrations, { version: 3, name: 'places_city', sql: 'alter table places add column city text' }];
    expect(await applyMigrations(sql, schema, more)).toEqual({ applied: [3], alreadyApplied: [1, 2] });
  });

  it('applies each migration exactly once when several starts race', async () => {
    const schema = newSchema();
    // Postgres: three connections pools, as three processes would have. PGlite is one
    // process's database, so its race is three concurrent starts on the same instance.
    const racers =
      kind === 'postgres'
        ? await Promise.all([makeClient(schema), makeClient(schema), makeClient(schema)])
        : await makeClient(schema).then((client) => [client, client, client]);
    const reports = await Promise.all(racers.map((sql) => applyMigrations(sql, schema, migrations)));
    expect(reports.flatMap((report) => report.applied).sort()).toEqual([1, 2]);
    const rows = await racers[0]!.query<{ count: string | number | bigint }>('select count(*) as count from schema_migrations');
    expect(Number(rows[0]!.count)).toBe(2);
  });

  it('binds parameters, so hostile strings are stored verbatim', async () => {
    const schema = newSchema();
    const sql = await makeClient(schema);
    await applyMigrations(sql, schema, migrations);
    const hostile = "Robert'); drop table places; --";
    await sql.query('insert into places (name, name_ar) values ($1, $2)', [hostile, 'شارع الطيران']);
    const rows = await sql.query<{ name: string; name_ar: string }>('select name, name_ar from places');
    expect(rows).toEqual([{ name: hostile, name_ar: 'شارع الطيران' }]);
  });

  it('stores JSON passed as text and reads it back as an object', async () => {
    // Repositories pass JSON as text and cast in SQL ($1::text::jsonb): a bare $1::jsonb
    // parameter makes the postgres driver encode the string once more.
    const schema = newSchema();
    const sql = await makeClient(schema);
    await applyMigrations(sql, schema, [{ version: 1, name: 'documents', sql: 'create table documents (body jsonb not null)' }]);
    await sql.query('insert into documents (body) values ($1::text::jsonb)', [JSON.stringify({ name: 'مدينة نصر', tags: ['a'] })]);
    expect(await sql.query('select body from documents')).toEqual([{ body: { name: 'مدينة نصر', tags: ['a'] } }]);
  });

  it('rolls a failed transaction back', async () => {
    const schema = newSchema();
    const sql = await makeClient(schema);
    await applyMigrations(sql, schema, migrations);
    await expect(
      sql.transaction(async (tx) => {
        await tx.query('insert into places (name) values ($1)', ['kept?']);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await sql.query('select * from places')).toEqual([]);
    const name = await sql.transaction(async (tx) => {
      const [row] = await tx.query<{ name: string }>('insert into places (name) values ($1) returning name', ['kept']);
      return row!.name;
    });
    expect(name).toBe('kept');
    expect(await sql.query('select name from places')).toEqual([{ name: 'kept' }]);
  });

  it('throws errors that carry no parameter into the log: the SQLSTATE code and the statement instead', async () => {
    const schema = newSchema();
    const sql = await makeClient(schema);
    await applyMigrations(sql, schema, [{ version: 1, name: 'accounts', sql: 'create table accounts (email text primary key, password_hash text not null)' }]);
    const email = 'secret.person@example.jo';
    const hash = 'scrypt$32768$8$1$c2FsdA$c2VjcmV0LWhhc2gtdmFsdWU';
    await sql.query('insert into accounts (email, password_hash) values ($1, $2)', [email, hash]);
    // Run one after another: a statement started early would reject before its handler is attached.
    const failures = [
      // a unique violation: the server's detail line quotes the row's key
      () => sql.query('insert into accounts (email, password_hash) values ($1, $2)', [email, hash]),
      // a data exception: the message quotes the offending value
      () => sql.query('select * from accounts where email = $1 and $2::uuid is not null', [email, hash]),
      // NUL, which text cannot hold
      () => sql.query('insert into accounts (email, password_hash) values ($1, $2)', ['other@example.jo', `${hash}\u0000`]),
    ];
    const lines: string[] = [];
    const log = pino({ serializers: { err: pino.stdSerializers.err } }, { write: (line: string) => lines.push(line) });
    const codes: unknown[] = [];
    for (const failure of failures) {
      const error = await failure().then(() => expect.fail('the statement should fail'), (thrown: unknown) => thrown);
      codes.push((error as { code?: unknown }).code);
      log.error({ err: error }, 'unhandled error');
    }
    expect(codes).toEqual(['23505', '22P02', '22021']);
    for (const line of lines) {
      expect(line).not.toContain(hash.slice(7));
      expect(line).not.toContain('secret.person');
      expect(JSON.parse(line).err).toMatchObject({ type: 'SqlError', code: expect.any(String), statement: expect.stringMatching(/^(insert into|select \* from) accounts/) });
    }
  });

  it('refuses migrations out of order', async () => {
    const schema = newSchema();
    const sql = await makeClient(schema);
    await expect(applyMigrations(sql, schema, [migrations[1]!, migrations[0]!])).rejects.toThrow(/not after/);
  });
});
