import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPgliteClient } from '../sql/pglite-client.js';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import type { FiledObservation } from '../../domain/traffic.js';
import { TrafficRepository } from './traffic.js';

/** With DATABASE_URL set (the real-services run) the same test runs on Postgres in a schema of its own. */
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `traffic_test_${process.pid}_${Date.now().toString(36)}` : 'traffic_test';
let sql: SqlClient;
let repository: TrafficRepository;
const DAY = 86_400_000;

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
  repository = new TrafficRepository(sql);
}, 30_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

const trip = (id = randomUUID()) => ({ id, ownerKind: 'user', ownerId: 'u1', contributor: 'c1', simulated: false, holdout: false, fixes: [{ lat: 30, lng: 31, t: 1 }, { lat: 30.001, lng: 31, t: 2000 }] });
const observation: FiledObservation = { segmentKey: 'w1:2-3', profileType: 'typical', dow: 2, hour: 8, country: 'EG', lat: 30, lng: 31, speedKph: 30, freeFlowKph: 50, observedAt: Date.now() };

describe('TrafficRepository', () => {
  it('a stored trip is claimed once, filed once, and its raw fixes are dropped when done', async () => {
    const queued = trip();
    await repository.insertTrip(queued);
    const [claimed] = await repository.claim(10, 60_000);
    expect(claimed).toMatchObject({ id: queued.id, attempts: 1, fixes: queued.fixes });
    expect(await repository.claim(10, 60_000)).toEqual([]);
    expect(await repository.fileTrip(claimed!, [observation, { ...observation, speedKph: 40 }], { segments: 2 })).toBe(true);
    // a second filing of the same claim (a processor that lost its lease) files nothing
    expect(await repository.fileTrip(claimed!, [observation], { segments: 1 })).toBe(false);
    const [profile] = await repository.profilesOfSegment('w1:2-3');
    expect(profile).toMatchObject({ sampleCount: 2, speedSum: 70 });
    const rows = await sql.query<{ fixes: unknown; status: string }>('select fixes, status from traffic_trips where id = $1', [queued.id]);
    expect(rows[0]).toEqual({ fixes: null, status: 'done' });
  });

  it('a trip whose processor died (lease ran out) is claimed again', async () => {
    const queued = trip();
    await repository.insertTrip(queued);
    const [first] = await repository.claim(1, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [again] = await repository.claim(1, 60_000);
    expect(again).toMatchObject({ id: first!.id, attempts: 2 });
    expect(await repository.fileTrip(first!, [observation], {})).toBe(false);
    expect(await repository.fileTrip(again!, [], {})).toBe(true);
  });

  it('purges trips (with any raw fixes) after the retention, keeps younger ones', async () => {
    const old = trip();
    const young = trip();
    await repository.insertTrip(old);
    await repository.insertTrip(young);
    await sql.query(`update traffic_trips set received_at = clock_timestamp() - interval '8 days' where id = $1`, [old.id]);
    const purged = await repository.purge(7 * DAY, 90 * DAY);
    expect(purged.trips).toBe(1);
    const left = await sql.query<{ id: string }>('select id from traffic_trips where id = any($1::uuid[])', [[old.id, young.id]]);
    expect(left.map((row) => row.id)).toEqual([young.id]);
  });
});
