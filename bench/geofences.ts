/**
 * Geofence evaluation benchmark (`npm run bench -- geofences`), issue #28: one device fix evaluated against a
 * project of 10 000 zones (half circles of 50–500 m, half polygons of 6–12 vertices) in process: the
 * Flatbush search of the zones whose hysteresis band may hold the fix, then the exact signed distance of
 * each. Two layouts: zones spread over a 30 km city, and packed into 5 km (more candidates per fix).
 * Target: ≤ 50 µs per fix. The HTTP call around it (state read and event write in SQL) is not included.
 */
import { GeofenceIndex, type IndexedZone } from '../src/solvers/geofences/geofence-index.js';
import { random as seeded } from './journeys.js';
import { conditions, round } from './support.js';

const ZONES = 10_000;
const TARGET_US = 50;
const FIXES_PER_BATCH = 1_000;
const BATCHES = 500;
const M_PER_DEG = 111_320;

/** Zones around Amman (31.95 N, 35.93 E) within `spanKm`. */
function zonesOver(spanKm: number, random: () => number): IndexedZone[] {
  const half = (spanKm * 1000) / 2;
  const kx = M_PER_DEG * Math.cos((31.95 * Math.PI) / 180);
  return Array.from({ length: ZONES }, (_, index): IndexedZone => {
    const lat = 31.95 + ((random() * 2 - 1) * half) / M_PER_DEG;
    const lng = 35.93 + ((random() * 2 - 1) * half) / kx;
    if (index % 2 === 0) return { id: `z${index}`, shape: { type: 'circle', center: { lat, lng }, radiusM: 50 + random() * 450 }, hysteresisM: 10 };
    const vertices = 6 + Math.floor(random() * 7);
    const radius = 50 + random() * 350;
    const coordinates = Array.from({ length: vertices }, (_, vertex): [number, number] => {
      const angle = (vertex / vertices) * 2 * Math.PI;
      const r = radius * (0.6 + 0.4 * random());
      return [lng + (Math.cos(angle) * r) / kx, lat + (Math.sin(angle) * r) / M_PER_DEG];
    });
    return { id: `z${index}`, shape: { type: 'polygon', coordinates }, hysteresisM: 10 };
  });
}

function run(label: string, spanKm: number): string {
  const random = seeded(spanKm * 7919);
  const zones = zonesOver(spanKm, random);
  const builtAt = performance.now();
  const index = new GeofenceIndex(zones);
  const buildMs = performance.now() - builtAt;
  const half = (spanKm * 1000) / 2;
  const kx = M_PER_DEG * Math.cos((31.95 * Math.PI) / 180);
  const fixes = Array.from({ length: 20_000 }, () => [31.95 + ((random() * 2 - 1) * half) / M_PER_DEG, 35.93 + ((random() * 2 - 1) * half) / kx] as const);
  // a device inside two zones (one of them far away): the leave path is exercised too
  const inside = new Set(['z0', 'z1']);
  let transitions = 0;
  let cursor = 0;
  const step = () => {
    const [lat, lng] = fixes[cursor++ % fixes.length]!;
    transitions += index.transitions(lat, lng, inside).length;
  };
  for (let warm = 0; warm < 50_000; warm++) step();
  const batches: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const startedAt = process.hrtime.bigint();
    for (let call = 0; call < FIXES_PER_BATCH; call++) step();
    batches.push(Number(process.hrtime.bigint() - startedAt) / FIXES_PER_BATCH / 1000);
  }
  batches.sort((a, b) => a - b);
  const mean = batches.reduce((sum, value) => sum + value, 0) / batches.length;
  const p99 = batches[Math.floor(batches.length * 0.99)]!;
  return [label, ZONES, spanKm, round(buildMs, 1), round(mean, 2), round(p99, 2), TARGET_US, p99 <= TARGET_US ? 'met' : 'missed', transitions > 0 ? 'yes' : 'no'].join(',');
}

export async function runGeofencesBenchmark(): Promise<void> {
  console.log(conditions({ benchmark: 'geofences (in process, one thread)', batches: `${BATCHES} × ${FIXES_PER_BATCH} fixes (p99 is of batch means)` }));
  console.log('layout,zones,span_km,index_build_ms,mean_us_per_fix,p99_us_per_fix,target_us,verdict,transitions_seen');
  console.log(run('city', 30));
  console.log(run('dense', 5));
}
