/**
 * EV plan benchmark (part of `npm run bench -- journeys`, issue #26): POST
 * /ev/plan's service in process on the longest corridor the shipped extracts
 * allow, Andorra (graphhopper's 2013 extract, ODbL) from Pas de la Casa to
 * Sant Julià de Lòria. No shipped extract holds a charging station, so the
 * stations are SYNTHETIC (benchmark only): one every 4 km along the routed
 * corridor, alternately 50 and 150 kW, 150 m off the route. A 20 km range
 * needs several stops; every plan routes the corridor and asks the road graph
 * for the detours (one worker thread, as the server's pool does per request).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { MapPack } from '../src/datapack/map-pack.js';
import type { EvStation } from '../src/domain/ev-station.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import { corridorOf, pointAt } from '../src/services/ev/charging-plan.js';
import { EvService } from '../src/services/ev/ev-service.js';
import { HierarchyCache } from '../src/services/routing/hierarchy-cache.js';
import { RoutingService } from '../src/services/routing/routing-service.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import type { EvStationFilter, EvStationRepository } from '../src/store/pg/ev-stations.js';
import { conditions, round } from './support.js';
import polyline from '@mapbox/polyline';

const ANDORRA = fileURLToPath(new URL('../../../shared/data/osm/graphhopper_andorra.osm.pbf', import.meta.url));
const FROM = { lat: 42.5425, lng: 1.7335 };
const TO = { lat: 42.4636, lng: 1.4913 };
const PLANS = 60;
const SPACING_KM = 4;

export async function runEvPlanBenchmark(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-ev-'));
  const path = join(directory, 'andorra.svcpack');
  await ingestToFile({ input: ANDORRA }, path);
  const pack = MapPack.load(path);
  rmSync(directory, { recursive: true, force: true });
  const logger = pino({ level: 'silent' });
  const pool = new SolverPool({ threads: 1, shared: { mapPack: pack.buffer as SharedArrayBuffer } });
  try {
    const routing = new RoutingService({ solvers: pool, pack, hierarchies: new HierarchyCache(pool, logger), timeoutMs: 30_000 });
    const car = { costing: 'auto' as const, preference: 'balanced' as const, avoid: [] };
    const route = await routing.trip(car, [{ lat: FROM.lat, lon: FROM.lng }, { lat: TO.lat, lon: TO.lng }], { units: 'kilometers' });
    const points = route.trip.legs.flatMap((leg) => polyline.decode(leg.shape, 6)).map(([lat, lng]) => ({ lat, lng }));
    const corridor = corridorOf(points, route.trip.summary.length);
    const stations: EvStation[] = [];
    for (let km = SPACING_KM; km < corridor.totalKm; km += SPACING_KM) {
      const at = pointAt(corridor, km);
      const kw = stations.length % 2 ? 150 : 50;
      stations.push({ id: `synthetic:${km}`, name: `SYNTHETIC bench station km ${km}`, network: null, lat: at.lat + 0.00135, lng: at.lng, connectors: [{ type: 'CCS', kw, count: 1 }], maxKw: kw, status: 'operational', pricing: null, address: null, sources: [] });
    }
    // the repository's corridor query, over the synthetic stations
    const repository = {
      search: async (filter: EvStationFilter) => {
        const inside = stations.filter((s) => s.lat >= filter.minLat && s.lat <= filter.maxLat && s.lng >= filter.minLng && s.lng <= filter.maxLng);
        return { total: inside.length, stations: inside.slice(0, filter.limit) };
      },
    } as unknown as EvStationRepository;
    const service = new EvService(repository, routing);
    const body = { from: FROM, to: TO, rangeKm: 20, currentPercent: 80, reservePercent: 15, detourKm: 5, chargeToPercent: 80 };
    const first = await service.plan(body);
    const times: number[] = [];
    for (let i = 0; i < PLANS; i++) {
      const started = performance.now();
      await service.plan(body);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      conditions({
        data: `Andorra (${pack.nodeCount} nodes), corridor Pas de la Casa → Sant Julià de Lòria ${round(corridor.totalKm, 1)} km (no shipped extract has a 100 km corridor)`,
        stations: `${stations.length} SYNTHETIC stations (benchmark only), every ${SPACING_KM} km, 150 m off the route`,
        plans: `${PLANS} sequential after one warm-up; rangeKm 20, currentPercent 80, reservePercent 15, detourKm 5`,
        'load average': loadavg().map((value) => value.toFixed(2)).join(' '),
      }),
    );
    console.log('measure,value');
    console.log(`ev_corridor_km,${round(corridor.totalKm, 1)}`);
    console.log(`ev_plan_stops,${first.stopCount}`);
    console.log(`ev_plan_feasible,${first.feasible}`);
    console.log(`ev_plan_p50_ms,${round(times[Math.floor(times.length * 0.5)]!, 2)}`);
    console.log(`ev_plan_p99_ms,${round(times[Math.floor(times.length * 0.99)]!, 2)}`);
  } finally {
    await pool.close();
  }
}
