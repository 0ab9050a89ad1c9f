/**
 * Journeys benchmark (`npm run bench -- journeys`), issue #26: a transit plan
 * (RAPTOR on the Cairo metro feed, frequencies expanded, with walking access,
 * egress and transfers) from a random point near one station to a random point
 * near another at a random time of the service day, in process, one at a time.
 * Target p99 ≤ 20 ms. The feed (CC BY-NC) is read from ../shared/data for the
 * benchmark only. Then the EV plan benchmark (bench/ev-plan.ts).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { GtfsTable } from '../src/domain/transit.js';
import { readGtfsFeed } from '../src/ingest/gtfs/gtfs-reader.js';
import { silentProgress } from '../src/ingest/progress.js';
import { TransitService } from '../src/services/transit/transit-service.js';
import { createLogger } from '../src/shared/logger.js';
import type { TransitFeedData, TransitFeedRecord, TransitFeedRepository } from '../src/store/pg/transit-feeds.js';
import { conditions, round } from './support.js';
import { runEvPlanBenchmark } from './ev-plan.js';
import { runItineraryAutoBenchmark } from './itinerary-auto.js';

const FEED = fileURLToPath(new URL('../../../shared/data/gtfs/cairo-metro', import.meta.url));
const TARGET_P99_MS = 20;
const WARMUP = 200;
const QUERIES = 3_000;

/** A deterministic generator (mulberry32): the same queries on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function runJourneysBenchmark(): Promise<void> {
  const collected = {} as Record<GtfsTable, unknown[]>;
  for (const table of ['agency', 'stops', 'routes', 'trips', 'stopTimes', 'frequencies', 'calendar', 'calendarDates', 'shapes'] as GtfsTable[]) collected[table] = [];
  await readGtfsFeed(FEED, async (table, rows) => void collected[table].push(...rows), silentProgress);
  const rows = collected as TransitFeedData['rows'];
  const feed: TransitFeedRecord = { id: '1', name: 'cairo-metro', source: FEED, importedAt: new Date().toISOString() };
  // the rows as the repository would load them after `npm run ingest -- --gtfs`
  const repository = { version: async () => '1', list: async () => [feed], load: async () => ({ feed, rows }) } as unknown as TransitFeedRepository;
  const service = new TransitService(repository, createLogger({ LOG_LEVEL: 'silent' }));
  const loadStarted = performance.now();
  await service.start();
  const loadMs = performance.now() - loadStarted;
  const stations = rows.stops.filter((stop) => stop.locationType === 1);
  const next = random(26);
  const near = () => {
    const station = stations[Math.floor(next() * stations.length)]!;
    // up to ~600 m away: a walk to the platform on each end
    return { lat: station.lat + (next() - 0.5) * 0.01, lng: station.lng + (next() - 0.5) * 0.01 };
  };
  const dayStart = Date.parse('2016-03-01T06:30:00+02:00');
  const query = () => ({ from: near(), to: near(), departAt: new Date(dayStart + Math.floor(next() * 16 * 3_600_000)).toISOString() });
  const firstDay = performance.now();
  await service.plan(query());
  const dayBuildMs = performance.now() - firstDay;
  for (let i = 0; i < WARMUP; i++) await service.plan(query());
  const times: number[] = [];
  let found = 0;
  let transfers = 0;
  const reasons = new Map<string, number>();
  for (let i = 0; i < QUERIES; i++) {
    const q = query();
    const started = performance.now();
    const plan = await service.plan(q);
    times.push(performance.now() - started);
    if (plan.found) {
      found++;
      transfers += plan.transfers;
    } else reasons.set(plan.reason, (reasons.get(plan.reason) ?? 0) + 1);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length * 0.5)]!;
  const p99 = times[Math.floor(times.length * 0.99)]!;
  console.log(
    conditions({
      feed: `cairo-metro (${stations.length} stations, ${rows.routes.length} routes, frequencies 104–162 s, 06:00–24:30)`,
      queries: `${QUERIES} sequential in process after ${WARMUP} warm-up; random points within ~600 m of random stations, random departAt 06:30–22:30`,
      'load average': loadavg().map((value) => value.toFixed(2)).join(' '),
      note: 'the machine is shared with other helpers',
    }),
  );
  console.log('measure,value');
  console.log(`feed_load_ms,${round(loadMs, 1)}`);
  console.log(`first_day_timetable_ms,${round(dayBuildMs, 1)}`);
  console.log(`found_share,${round(found / QUERIES, 3)}`);
  for (const [reason, count] of reasons) console.log(`not_found_${reason},${count}`);
  console.log(`mean_transfers_when_found,${round(transfers / Math.max(1, found), 2)}`);
  console.log(`plan_p50_ms,${round(p50, 3)}`);
  console.log(`plan_p99_ms,${round(p99, 3)}`);
  console.log(`target_p99_ms,${TARGET_P99_MS}`);
  console.log(`verdict,${p99 <= TARGET_P99_MS ? 'met' : 'missed'}`);
  console.log('');
  await runEvPlanBenchmark();
  await runItineraryAutoBenchmark();
}
