/** `npm run bench -- <name>`: runs one benchmark (or all) and prints CSV rows with their conditions. */
import { runEdgeBenchmark } from './edge.js';
import { runKeysBenchmark } from './keys.js';
import { runIngestBenchmark } from './ingest.js';
import { runRoutingBenchmark } from './routing.js';
import { runGuidanceBenchmark } from './guidance.js';
import { runRoutingAnalysisBenchmark } from './routing-analysis.js';
import { runGeocodeBenchmark } from './geocode.js';
import { runVrpBenchmark } from './vrp.js';
import { runBinPackBenchmark } from './binpack.js';
import { runCalendarsBenchmark } from './calendars.js';
import { runTilesBenchmark } from './tiles.js';
import { runPlacesBenchmark } from './places.js';
import { runMapDataBenchmark } from './mapdata.js';
import { runJourneysBenchmark } from './journeys.js';
import { runTrafficBenchmark } from './traffic.js';
import { runIncidentsBenchmark } from './incidents.js';
import { runAssistantBenchmark } from './assistant.js';
import { runGeofencesBenchmark } from './geofences.js';
import { runEdgeCpuBenchmark } from './edge-cpu.js';
import { runNavigationFixPathBenchmark } from './navigation-fix-path.js';

const benchmarks: Record<string, () => Promise<void>> = {
  edge: runEdgeBenchmark,
  keys: runKeysBenchmark,
  ingest: runIngestBenchmark,
  routing: runRoutingBenchmark,
  guidance: runGuidanceBenchmark,
  'map-match': runRoutingAnalysisBenchmark,
  geocode: runGeocodeBenchmark,
  vrp: runVrpBenchmark,
  binpack: runBinPackBenchmark,
  calendars: runCalendarsBenchmark,
  tiles: runTilesBenchmark,
  places: runPlacesBenchmark,
  mapdata: runMapDataBenchmark,
  journeys: runJourneysBenchmark,
  traffic: runTrafficBenchmark,
  incidents: runIncidentsBenchmark,
  assistant: runAssistantBenchmark,
  geofences: runGeofencesBenchmark,
  'edge-cpu': runEdgeCpuBenchmark,
  'navigation-fix-path': runNavigationFixPathBenchmark,
};

const requested = process.argv.slice(2);
const names = requested.length ? requested : Object.keys(benchmarks);
for (const name of names) {
  const run = benchmarks[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`);
    process.exit(2);
  }
  await run();
}
