/**
 * The server's map data, black-box: the embedded default built on first start
 * and reused afterwards, DATA_PACK, and GET /api/v1/map/readiness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestToFile } from '../src/ingest/ingest.js';
import { runServerToExit, startServerProcess, serverTestTimeout } from './support/server-process.js';
import { readJson } from './support/services.js';
import { useServer } from './support/server-fixture.js';
import { OSM_FILES } from './support/osm-data.js';

const workDir = mkdtempSync(join(tmpdir(), 'map-data-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('GET /api/v1/map/readiness on the embedded default', () => {
  const fixture = useServer();

  it('reports the Nasr City pack: checks, counts and attribution', async () => {
    const response = await fetch(`${fixture.server.baseUrl}/api/v1/map/readiness`);
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.ready).toBe(true);
    expect(body.checks).toMatchObject({ roadGraphLoaded: true, roadGraphConnected: true, arabicRoadNames: true, geocodingSources: true, attributionPresent: true });
    expect(body.summary.dataset.source).toBe('egypt_cairo_nasr-city.osm.pbf');
    expect(body.summary.graph.ways).toBe(860);
    expect(body.summary.graph.edges).toBeGreaterThan(body.summary.graph.nodes);
    // Jordan's governorates, districts and sub-districts ship with the default
    expect(body.summary.layers.admin_area).toBe(12 + 51 + 89);
    expect(body.attribution).toContain('© OpenStreetMap contributors');
  });

  it('reports each map capability as served or not, apart from the data the pack holds', async () => {
    const body = await readJson(await fetch(`${fixture.server.baseUrl}/api/v1/map/readiness`));
    const openApi = await readJson(await fetch(`${fixture.server.baseUrl}/api/v1/openapi.json`));
    const documented = (method: string, path: string) => Boolean(openApi.paths[`/api/v1${path}`]?.[method.toLowerCase()]);
    for (const [name, expected] of Object.entries({
      routing: ['POST', '/routing/route'],
      navigation: ['POST', '/navigation/sessions'],
      optimization: ['POST', '/optimize/routes'],
      geocoding: ['GET', '/geocode/search'],
      addressing: ['GET', '/geo/pluscode'],
      placeCatalogue: ['GET', '/places'],
      placeSearch: ['GET', '/search'],
      vectorTiles: ['GET', '/tiles/vector/svc/planet/{z}/{x}/{y}.pbf'],
      mapPoi: ['GET', '/map/poi'],
      weather: ['GET', '/map/weather/geojson'],
      staticMaps: ['GET', '/static/map'],
    })) {
      const capability = body.capabilities[name];
      // served means answered by this server: the same endpoint is in its OpenAPI document
      expect({ name, served: capability.served }).toEqual({ name, served: documented(expected[0]!, expected[1]!) });
      expect(capability.ready).toBe(capability.served && capability.data);
    }
    expect(body.capabilities.routing).toEqual({ served: true, data: true, ready: true });
    // the default pack has building footprints, yet no tile endpoint serves them yet
    expect(body.capabilities.vectorTiles.data).toBe(true);
    expect(body.capabilities.vectorTiles.served).toBe(documented('GET', '/tiles/vector/svc/planet/{z}/{x}/{y}.pbf'));
  });

  it('rejects an unknown method with the spec error body', async () => {
    const response = await fetch(`${fixture.server.baseUrl}/api/v1/map/readiness`, { method: 'DELETE' });
    const body = await readJson(response);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(body).toMatchObject({ statusCode: response.status, code: expect.any(String), requestId: expect.any(String) });
  });
});

describe('where the map data comes from', () => {
  it('builds the default pack on first start into DATA_DIR and reuses it on the next start', { timeout: serverTestTimeout(2) }, async () => {
    const dataDir = join(workDir, 'var');
    const first = await startServerProcess({ DATA_DIR: dataDir });
    await first.stop();
    expect(first.output.some((line) => line.includes('building the default map data pack'))).toBe(true);
    expect(first.output.some((line) => line.includes('ingest nodes: 100%'))).toBe(true); // progress while building

    const second = await startServerProcess({ DATA_DIR: dataDir });
    try {
      expect(second.output.some((line) => line.includes('building the default map data pack'))).toBe(false);
      const loaded = second.output.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'map data loaded');
      expect(loaded).toMatchObject({ pack: join(dataDir, 'packs', 'egypt_cairo_nasr-city.svcpack'), source: 'egypt_cairo_nasr-city.osm.pbf' });
      const body = await readJson(await fetch(`${second.baseUrl}/api/v1/map/readiness`));
      expect(body.ready).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('serves the pack named by DATA_PACK', { timeout: serverTestTimeout(1) }, async () => {
    const pack = join(workDir, 'monaco.svcpack');
    await ingestToFile({ input: OSM_FILES.monaco }, pack);
    const server = await startServerProcess({ DATA_PACK: pack });
    try {
      const body = await readJson(await fetch(`${server.baseUrl}/api/v1/map/readiness`));
      expect(body.summary.dataset.source).toBe('osrm_monaco.osm.pbf');
      expect(body.summary.graph.turnRestrictions).toBeGreaterThan(0);
      expect(body.checks.arabicRoadNames).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start on a DATA_PACK that does not exist or is not a pack, naming it', { timeout: serverTestTimeout(2) }, async () => {
    const missing = await runServerToExit({ DATA_PACK: join(workDir, 'missing.svcpack') });
    expect(missing.code).not.toBe(0);
    expect(missing.output).toMatch(/missing\.svcpack: no such data pack/);
    const wrong = await runServerToExit({ DATA_PACK: OSM_FILES.nasrCityPbf });
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/not a map data pack/);
  });
});
