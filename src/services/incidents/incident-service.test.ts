import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteClient } from '../../store/sql/pglite-client.js';
import { createPostgresClient } from '../../store/sql/postgres-client.js';
import { applyMigrations } from '../../store/sql/migrate.js';
import { migrations } from '../../store/sql/migrations/index.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { IncidentRepository } from '../../store/pg/incidents.js';
import type { UserPrincipal } from '../../domain/principal.js';
import { IncidentService } from './incident-service.js';

/** With DATABASE_URL set (the real-services run) the same test runs on Postgres in a schema of its own. */
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `incident_service_test_${process.pid}_${Date.now().toString(36)}` : 'incident_service_test';
let sql: SqlClient;
let service: IncidentService;

const user = (userId: string): UserPrincipal => ({ kind: 'user', userId, sessionId: `s-${userId}`, roles: [] });
const NASR_CITY = { west: 31.3, south: 30.04, east: 31.36, north: 30.09 };

beforeAll(async () => {
  sql = databaseUrl ? createPostgresClient({ url: databaseUrl, schema }) : await createPgliteClient({ dataDir: 'memory://', schema });
  await applyMigrations(sql, schema, migrations);
  service = new IncidentService(new IncidentRepository(sql), () => Date.now());
}, 30_000);
afterAll(async () => {
  if (databaseUrl) await sql.exec(`drop schema if exists "${schema}" cascade`);
  await sql.close();
});

describe('IncidentService: the shared copy of blocking incidents', () => {
  it('shows a report and a clearing made through this process to the very next look', async () => {
    // a copy taken now, well within its second of life for the looks below
    expect(await service.recentBlockingIn(NASR_CITY)).toEqual([]);
    const closure = await service.report(user('ahmed'), { incidentType: 'closure', lat: 30.0612, lng: 31.3305 });
    expect((await service.recentBlockingIn(NASR_CITY)).map((incident) => incident.id)).toEqual([closure.id]);
    // a hazard does not block the road: never in the copy
    await service.report(user('ahmed'), { incidentType: 'hazard', lat: 30.0701, lng: 31.3402 });
    expect((await service.recentBlockingIn(NASR_CITY)).map((incident) => incident.id)).toEqual([closure.id]);
    await service.vote(user('mona'), closure.id, 'clear');
    expect(await service.recentBlockingIn(NASR_CITY)).toEqual([]);
  });
});
