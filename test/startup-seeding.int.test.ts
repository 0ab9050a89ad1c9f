/**
 * Two server processes of one deployment started together (docs/reliability.md, "Start-up seeding"): the
 * seeding phase runs under one advisory lock of the deployment, so the second waits for the first and then
 * finds the work done. Both start; the place catalogue, its categories and the search index have no
 * duplicates and nothing left unindexed; only one process seeded. Real services only: the embedded
 * database belongs to one process.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { PLACE_CATEGORIES } from '../src/services/places/place-taxonomy.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, sharedDeployment, usingRealServices } from './support/services.js';

describe.skipIf(!usingRealServices)('start-up seeding of two processes of one deployment started together', () => {
  const deployment = sharedDeployment('startup_seed');
  const schema = deployment.DATABASE_SCHEMA!;
  const servers: ServerProcess[] = [];
  const sql = postgres(realServices.databaseUrl, { max: 1, onnotice: () => {}, connection: { search_path: schema } });

  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL').catch(() => undefined);
    await sql.unsafe(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await sql.end();
  });

  it('both start, one seeds, and the catalogue, categories and search index have no duplicates', async () => {
    const started = await Promise.allSettled([startServerProcess({ ...deployment, JWT_SECRET: 'startup-seeding-secret-0123456789abcdef' }), startServerProcess({ ...deployment, JWT_SECRET: 'startup-seeding-secret-0123456789abcdef' })]);
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    expect(started.map((result) => (result.status === 'rejected' ? String(result.reason).slice(0, 2000) : 'started'))).toEqual(['started', 'started']);

    const [categories] = await sql<{ rows: string; slugs: string }[]>`select count(*) as rows, count(distinct slug) as slugs from place_categories`;
    expect([Number(categories!.rows), Number(categories!.slugs)]).toEqual([PLACE_CATEGORIES.length, PLACE_CATEGORIES.length]);
    const [places] = await sql<{ rows: string; elements: string; slugs: string; unindexed: string }[]>`
      select count(*) as rows, count(distinct (osm_type, osm_id)) as elements, count(distinct slug) as slugs,
             count(*) filter (where search_indexed_at is distinct from updated_at) as unindexed
      from places`;
    expect(Number(places!.rows)).toBeGreaterThan(100);
    expect(Number(places!.elements)).toBe(Number(places!.rows));
    expect(Number(places!.slugs)).toBe(Number(places!.rows));
    expect(Number(places!.unindexed)).toBe(0);
    const runs = await sql<{ source: string }[]>`select source from place_seed_runs`;
    expect(runs.map((run) => run.source)).toEqual(['map-pack']);
    // the second process waited for the lock and found the stamp: the catalogue was seeded once
    const seeded = servers.map((server) => server.output.filter((line) => line.includes('place catalogue seeded from the map data pack')).length);
    expect(seeded.sort()).toEqual([0, 1]);
    // and each answers on the one catalogue (the route's own auth decides the status, never a 500)
    for (const server of servers) {
      const response = await fetch(`${server.baseUrl}/api/v1/places/categories`);
      expect(response.status).toBeLessThan(500);
    }
  }, 600_000);
});
