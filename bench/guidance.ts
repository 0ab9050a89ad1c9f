/**
 * Guidance cost: buildTrip (maneuvers, narrative, polyline6) plus the
 * navigation view, per leg, on legs found by the test-support Dijkstra
 * between random points of the real Nasr City and Monaco packs (car), in
 * English and Arabic. No target in the issue; the number shows what guidance
 * adds to a route request next to the search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MapPack } from '../src/datapack/map-pack.js';
import { TravelMode } from '../src/datapack/pack-layout.js';
import { ingestToFile } from '../src/ingest/ingest.js';
import type { LegPath } from '../src/solvers/routing/leg-path.js';
import { navigationRoute } from '../src/solvers/routing/guidance/navigation-view.js';
import { locationOnEdge, shortestLeg } from '../test/support/guidance/shortest-path.js';
import { buildTrip } from '../src/solvers/routing/guidance/trip.js';
import { conditions, round } from './support.js';

const LEGS = 200;
const ROUNDS = 5;
const EXTRACTS = {
  'Nasr City': fileURLToPath(new URL('../../../shared/data/osm/egypt_cairo_nasr-city.osm.pbf', import.meta.url)),
  Monaco: fileURLToPath(new URL('../../../shared/data/osm/osrm_monaco.osm.pbf', import.meta.url)),
};

function randomLegs(pack: MapPack): LegPath[] {
  let seed = 3;
  const random = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const edges: number[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) if (pack.sections['graph.edgeAccess'][edge]! & TravelMode.car) edges.push(edge);
  const pick = (): number => edges[Math.floor(random() * edges.length)]!;
  const legs: LegPath[] = [];
  while (legs.length < LEGS) {
    const leg = shortestLeg(pack, locationOnEdge(pack, pick(), random(), 5), locationOnEdge(pack, pick(), random(), 5));
    if (leg) legs.push(leg);
  }
  return legs;
}

export async function runGuidanceBenchmark(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'guidance-bench-'));
  console.log(conditions({ legs: `${LEGS} random car legs per extract, ${ROUNDS} rounds, single thread` }));
  console.log('extract,language,edges_per_leg,maneuvers_per_leg,ms_per_leg,legs_per_s');
  try {
    for (const [name, input] of Object.entries(EXTRACTS)) {
      const file = join(workDir, 'pack.svcpack');
      await ingestToFile({ input }, file);
      const pack = MapPack.load(file);
      const legs = randomLegs(pack);
      const edgesPerLeg = legs.reduce((total, leg) => total + leg.edges.length, 0) / legs.length;
      for (const language of ['en-US', 'ar']) {
        for (const leg of legs.slice(0, 50)) navigationRoute(buildTrip(pack, [leg], { language }));
        let maneuvers = 0;
        const startedAt = process.hrtime.bigint();
        for (let round = 0; round < ROUNDS; round++) {
          for (const leg of legs) {
            const trip = buildTrip(pack, [leg], { language });
            maneuvers += trip.legs[0]!.maneuvers.length;
            navigationRoute(trip);
          }
        }
        const ms = Number(process.hrtime.bigint() - startedAt) / 1e6 / (ROUNDS * legs.length);
        console.log([name, language, round(edgesPerLeg, 1), round(maneuvers / ROUNDS / legs.length, 1), round(ms, 3), Math.round(1000 / ms)].join(','));
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
