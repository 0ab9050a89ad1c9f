/**
 * `npm run bench -- incidents`: POST /routing/plan's cost with 0, 10 and 100 live avoidances near the
 * route's corridor (acknowledged blocking feedback reports spread along the first route's shape), through
 * the planner's service (RoutingEndpoints.plan with its constraint source on PGlite, one solver worker;
 * HTTP not included). With none near it the plan is one hierarchy search; with some, the planner
 * re-plans with the engine's exact search and the avoidances as excluded edges (up to 4 re-plans), which
 * is the exact fallback's cost this benchmark shows.
 */
import { loadavg } from 'node:os';
import polyline from '@mapbox/polyline';
import { pino } from 'pino';
import { loadMapData } from '../src/services/map-data/map-data-source.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { HierarchyCache } from '../src/services/routing/hierarchy-cache.js';
import { RoutingService } from '../src/services/routing/routing-service.js';
import { RoutingEndpoints } from '../src/services/routing/routing-endpoints.js';
import { EngineOutages } from '../src/services/routing/engine-envelope.js';
import { planRequestSchema } from '../src/services/routing/plan-request.js';
import { createPgliteClient } from '../src/store/sql/pglite-client.js';
import { applyMigrations } from '../src/store/sql/migrate.js';
import { migrations } from '../src/store/sql/migrations/index.js';
import { FeedbackRepository } from '../src/store/pg/feedback.js';
import { IncidentRepository } from '../src/store/pg/incidents.js';
import { RoadEditRepository } from '../src/store/pg/road-edits.js';
import { FeedbackService } from '../src/services/feedback/feedback-service.js';
import { IncidentService } from '../src/services/incidents/incident-service.js';
import { RoadEditService } from '../src/services/incidents/road-edit-service.js';
import { CommunityConstraints } from '../src/services/incidents/community-constraints.js';
import { conditions, round } from './support.js';

const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 100);
const COUNTS = [0, 10, 100];
const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
const PRINCIPAL = { kind: 'user' as const, userId: '00000000-0000-4000-8000-000000000001', sessionId: 's', roles: [] };

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)]!, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! };
}

export async function runIncidentsBenchmark(): Promise<void> {
  const logger = pino({ level: 'warn' });
  const { pack } = await loadMapData({ dataPack: process.env.DATA_PACK, dataDir: process.env.DATA_DIR ?? './var', logger });
  const solvers = new SolverPool({ threads: 1, shared: { mapPack: pack.buffer as SharedArrayBuffer } });
  try {
    const hierarchies = new HierarchyCache(solvers, logger);
    const routing = new RoutingService({ solvers, pack, hierarchies, timeoutMs: 30_000 });
    await hierarchies.get({ costing: 'auto', preference: 'balanced', avoid: [] });
    console.log(
      conditions({
        data: `embedded Nasr City pack (${pack.nodeCount} nodes, ${pack.edgeCount} directed edges)`,
        workload: `POST /routing/plan body (auto, balanced, no labels) ${REPETITIONS} times per case after 10 warm-up calls; one solver worker; PGlite in memory; HTTP excluded`,
        'load average at start': loadavg().map((value) => value.toFixed(1)).join(' '),
        note: 'shared 2-core machine: other engineers ran builds and tests at the same time',
      }),
    );
    console.log('case,avoidances_near_corridor,plans_per_request,avoided,p50_ms,p99_ms,route_km');
    const body = planRequestSchema.parse({ locations: [FROM, TO], includeLabels: false });
    let base: [number, number][] = [];
    for (const count of COUNTS) {
      const sql = await createPgliteClient({ dataDir: 'memory://', schema: `bench_incidents_${count}` });
      await applyMigrations(sql, `bench_incidents_${count}`, migrations);
      const now = () => Date.now();
      const feedback = new FeedbackService(new FeedbackRepository(sql), now);
      const constraints = new CommunityConstraints(new IncidentService(new IncidentRepository(sql), now), feedback, new RoadEditService(new RoadEditRepository(sql), now));
      const endpoints = new RoutingEndpoints(routing, undefined, new EngineOutages(logger), constraints);
      const plan = async () => {
        const answer = (await endpoints.plan('/routing/plan', body, undefined, PRINCIPAL)) as any;
        if (!answer.available) throw new Error(`unavailable: ${answer.reason}`);
        return answer;
      };
      if (!base.length) base = polyline.decode((await plan()).data.trip.legs[0].shape, 6) as [number, number][];
      // acknowledged road_closed reports spread evenly along the first route (past its first and last 10 %)
      for (let index = 0; index < count; index++) {
        const at = base[Math.floor(base.length * (0.1 + (0.8 * index) / Math.max(1, count)))]!;
        const { id } = await feedback.report(PRINCIPAL, { source: 'editor', category: 'road_closed', severity: 3, lat: at[0], lng: at[1], context: {} });
        await feedback.move(id, 'ack', undefined);
      }
      let last: any;
      for (let index = 0; index < 10; index++) last = await plan();
      const wall: number[] = [];
      for (let index = 0; index < REPETITIONS; index++) {
        const started = performance.now();
        last = await plan();
        wall.push(performance.now() - started);
      }
      const { p50, p99 } = percentiles(wall);
      const avoided = last.reportedConstraints.avoided.length;
      console.log(`plan_with_${count}_avoidances,${count},${last.exactFallback.plans},${avoided},${round(p50)},${round(p99)},${round(last.data.trip.summary.length, 3)}`);
      await sql.close();
    }
  } finally {
    await solvers.close();
  }
}
