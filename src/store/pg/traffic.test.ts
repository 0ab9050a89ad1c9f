import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPgliteClient } from '../sql/pglite-client.js';
import { createPostgresClient } from '../sql/postgres-client.js';
import { applyMigrations } from '../sql/migrate.js';
import { migrations } from '../sql/migrations/index.js';
import type { SqlClient } from '../sql/sql-client.js';
import type { FiledObservation } from '../../domain/traffic.js';
import { TrafficRepository } from './traffic.js';
import { packFixes, unpackFixes } from './trip-fixes.js';

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
    const rows = await sql.query<{ fixes: unknown; fix_data: unknown; status: string }>('select fixes, fix_data, status from traffic_trips where id = $1', [queued.id]);
    expect(rows[0]).toEqual({ fixes: null, fix_data: null, status: 'done' });
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

  it('stores the fixes packed (24 bytes a fix) and reads back exactly what was sent', async () => {
    const fixes = [
      { lat: 30.062612345678912, lng: 31.321987654321098, t: 1_795_766_400_000 },
      { lat: -33.9, lng: -0.000001, t: 1_795_766_401_234 },
      { lat: 1 / 3, lng: Math.PI, t: Number.MAX_SAFE_INTEGER },
    ];
    expect(unpackFixes(packFixes(fixes))).toEqual(fixes);
    const queued = { ...trip(), fixes };
    await repository.insertTrip(queued);
    const [row] = await sql.query<{ bytes: number; fixes: unknown; fix_count: number }>('select octet_length(fix_data) as bytes, fixes, fix_count from traffic_trips where id = $1', [queued.id]);
    expect({ bytes: Number(row!.bytes), fixes: row!.fixes, count: Number(row!.fix_count) }).toEqual({ bytes: 72, fixes: null, count: 3 });
    expect(await repository.unfinishedTripIds(0, 1000)).toContain(queued.id);
    const claimed = await repository.claimTrip(queued.id, 60_000);
    expect(claimed).toEqual({ trip: { id: queued.id, contributor: 'c1', simulated: false, holdout: false, attempts: 1, fixes } });
    expect(await repository.claimTrip(queued.id, 60_000)).toMatchObject({ state: 'leased' });
    await repository.failTrip(queued.id, 1, 'test');
    const [failed] = await sql.query<{ fixes: unknown; fix_data: unknown; status: string }>('select fixes, fix_data, status from traffic_trips where id = $1', [queued.id]);
    expect(failed).toEqual({ fixes: null, fix_data: null, status: 'failed' });
    expect(await repository.claimTrip(queued.id, 60_000)).toEqual({ state: 'finished' });
  });

  it('a trip stored before migration 028 (JSON fixes) is still swept, claimed and filed', async () => {
    const id = randomUUID();
    await sql.query(
      `insert into traffic_trips (id, owner_kind, owner_id, contributor, simulated, holdout, fix_count, fixes, status)
       values ($1, 'user', 'u1', 'c-old', false, false, 2, $2::text::jsonb, 'queued')`,
      [id, JSON.stringify([[30, 31, 1], [30.001, 31, 2000]])],
    );
    expect(await repository.unfinishedTripIds(0, 1000)).toContain(id);
    const claimed = await repository.claimTrip(id, 60_000);
    expect(claimed).toEqual({ trip: { id, contributor: 'c-old', simulated: false, holdout: false, attempts: 1, fixes: trip().fixes } });
    expect(await repository.fileTrip((claimed as { trip: Parameters<TrafficRepository['fileTrip']>[0] }).trip, [{ ...observation, segmentKey: 'w9:1-2' }], { segments: 1 })).toBe(true);
    const [row] = await sql.query<{ fixes: unknown; status: string }>('select fixes, status from traffic_trips where id = $1', [id]);
    expect(row).toEqual({ fixes: null, status: 'done' });
    expect(await repository.profilesOfSegment('w9:1-2')).toHaveLength(1);
  });

  it('files a held-out trip into the held-out set and its contributor marks, not the profiles', async () => {
    const queued = { ...trip(), holdout: true, contributor: 'c-held' };
    await repository.insertTrip(queued);
    const claimed = await repository.claimTrip(queued.id, 60_000);
    if (!('trip' in claimed)) throw new Error('not claimed');
    const observedAt = Date.UTC(2026, 10, 20, 6, 30, 15, 250);
    const held = { ...observation, segmentKey: 'w7:8-9', speedKph: 33.25, freeFlowKph: 61.5, lat: 30.0123456789, lng: 31.9876543211, observedAt };
    expect(await repository.fileTrip(claimed.trip, [held, { ...held, speedKph: 12.5 }], { segments: 2 })).toBe(true);
    expect(await repository.profilesOfSegment('w7:8-9')).toEqual([]);
    const holdout = (await sql.query<{ segment_key: string; country: string; observed_at: unknown; speed_kph: number; free_flow_kph: number }>(
      'select segment_key, country, observed_at, speed_kph, free_flow_kph from traffic_holdout where trip_id = $1 order by speed_kph',
      [queued.id],
    )).map((row) => ({ ...row, observed_at: new Date(row.observed_at as string).getTime(), speed_kph: Number(row.speed_kph), free_flow_kph: Number(row.free_flow_kph) }));
    expect(holdout).toEqual([
      { segment_key: 'w7:8-9', country: 'EG', observed_at: observedAt, speed_kph: 12.5, free_flow_kph: 61.5 },
      { segment_key: 'w7:8-9', country: 'EG', observed_at: observedAt, speed_kph: 33.25, free_flow_kph: 61.5 },
    ]);
    expect(await repository.contributorsInBox({ minLng: 31.98, minLat: 30.01, maxLng: 31.99, maxLat: 30.02 }, 10)).toEqual([{ lat: 30.0123456789, lng: 31.9876543211, contributor: 'c-held' }]);
  });

  it('the claim and the filing commit without waiting for the WAL flush, and only they: the session keeps its setting', async () => {
    // one connection, so the statements after the claim and the filing run on the session that ran them
    const single = databaseUrl ? createPostgresClient({ url: databaseUrl, schema, maxConnections: 1 }) : sql;
    const own = new TrafficRepository(single);
    const setting = async () => (await single.query<{ value: string }>(`select current_setting('synchronous_commit') as value`))[0]!.value;
    const queued = trip();
    await own.insertTrip(queued);
    const claimed = await own.claimTrip(queued.id, 60_000);
    if (!('trip' in claimed)) throw new Error('not claimed');
    expect(await setting()).toBe('on');
    expect(await own.fileTrip(claimed.trip, [observation], {})).toBe(true);
    expect(await setting()).toBe('on');
    if (databaseUrl) await single.close();
  });

  it('sums one trip\'s observations per profile key and keeps the exact values', async () => {
    const queued = trip();
    await repository.insertTrip(queued);
    const claimed = await repository.claimTrip(queued.id, 60_000);
    if (!('trip' in claimed)) throw new Error('not claimed');
    const base = { ...observation, segmentKey: 'w5:6-7', lat: 30.062612345678912, lng: 31.321987654321098, freeFlowKph: 50 };
    const speeds = [21.123456789012345, 33.3, 47.77777777777778];
    expect(await repository.fileTrip(claimed.trip, [...speeds.map((speedKph) => ({ ...base, speedKph })), { ...base, hour: 9, speedKph: 10 }], {})).toBe(true);
    const profiles = await repository.profilesOfSegment('w5:6-7');
    expect(profiles.map((p) => p.hour).sort()).toEqual([8, 9]);
    const eight = profiles.find((p) => p.hour === 8)!;
    expect(eight).toMatchObject({ sampleCount: 3, simulatedCount: 0, lat: base.lat, lng: base.lng, freeFlowKph: 50 });
    expect(eight.speedSum).toBe(speeds[0]! + speeds[1]! + speeds[2]!);
    expect(eight.speedSqSum).toBe(speeds[0]! ** 2 + speeds[1]! ** 2 + speeds[2]! ** 2);
    expect(eight.ratioSum).toBe(speeds[0]! / 50 + speeds[1]! / 50 + speeds[2]! / 50);
  });
});
