/**
 * The map matcher's answers on fixed traces, against answers recorded from the matcher before its
 * working memory became reused typed arrays (test/fixtures/map-matching/recorded.json): the rewrite
 * is meant to change how much it allocates, not one bit of what it answers. Each case keeps a
 * SHA-256 of the whole JSON answer (matched points, edges, shape, confidence, search statistics)
 * and a few readable figures, so a difference fails here and the figures say where.
 *
 * The traces are the traffic benchmark's (300 fixes, 1 s, 3 m noise, Nasr City) plus Monaco
 * traces with breaks, interpolated and unmatched points, other options and other costings; they
 * run twice, in opposite orders, so state left over from one trace (reused by the next) would show.
 * To record again after an intended change of the answers:
 * `RECORD_MAP_MATCHING=1 npx vitest run test/map-matching-recorded.test.ts`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { simulateTrace } from './support/gps-traces.js';
import { routingPack } from './support/routing-packs.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { matchTrace, type MatchOptions } from '../src/solvers/routing/map-matching/map-matcher.js';
import { tripTraversals } from '../src/solvers/routing/traffic/trip-traversals.js';
import type { MetricSpec } from '../src/solvers/routing/costing/profiles.js';

const FIXTURE = new URL('./fixtures/map-matching/recorded.json', import.meta.url);
const AUTO: MetricSpec = { costing: 'auto', preference: 'fastest', avoid: [] };
const BICYCLE: MetricSpec = { costing: 'bicycle', preference: 'fastest', avoid: [] };
const PEDESTRIAN: MetricSpec = { costing: 'pedestrian', preference: 'fastest', avoid: [] };

type Place = { lat: number; lon: number };
type Fix = { lat: number; lon: number; time: number };

interface Case {
  name: string;
  engine: 'nasrCity' | 'monaco';
  metric: MetricSpec;
  fixes: () => Fix[];
  options?: Partial<MatchOptions>;
  /** Also timed per segment (the traffic intake's task). */
  traversals?: boolean;
}

interface Recorded {
  name: string;
  matchSha256: string;
  subMatches: number;
  edges: number;
  confidence: number;
  stats: { states: number; candidates: number; settled: number };
  traversals?: { sha256: string; count: number; matchedShare: number; confidence: number; first?: unknown };
}

let engines: Record<Case['engine'], RoutingEngine>;

beforeAll(async () => {
  engines = { nasrCity: new RoutingEngine(await routingPack('nasrCityPbf')), monaco: new RoutingEngine(await routingPack('monaco')) };
});

function trace(engineName: Case['engine'], metric: MetricSpec, from: Place, to: Place, options: { intervalSeconds: number; noiseMeters: number; seed: number }): Fix[] {
  const engine = engines[engineName];
  const outcome = engine.route({ metric, locations: [from, to] });
  if (!outcome.ok) throw new Error(`no route: ${outcome.code}`);
  return simulateTrace(engine.pack, outcome.legs[0]!, options);
}

/** The traffic benchmark's trips: a route driven there and back, cut to 300 one-second fixes. */
function benchTrip(from: Place, to: Place, seed: number): () => Fix[] {
  return () => {
    const there = trace('nasrCity', AUTO, from, to, { intervalSeconds: 1, noiseMeters: 3, seed });
    const back = trace('nasrCity', AUTO, to, from, { intervalSeconds: 1, noiseMeters: 3, seed: seed + 50 });
    return [...there, ...back].slice(0, 300).map((fix, index) => ({ ...fix, time: 1_700_000_000_000 + index * 1000 }));
  };
}

const NASR = { west: { lat: 30.0626, lon: 31.3219 }, north: { lat: 30.07, lon: 31.34 }, east: { lat: 30.0511, lon: 31.3447 } };
const MONACO = { fontvieille: { lat: 43.7313, lon: 7.4197 }, monteCarlo: { lat: 43.748, lon: 7.435 }, port: { lat: 43.7384, lon: 7.4246 }, south: { lat: 43.7275, lon: 7.4155 } };

const CASES: Case[] = [
  { name: 'Nasr City bench trip, west to north and back', engine: 'nasrCity', metric: AUTO, fixes: benchTrip(NASR.west, NASR.north, 0), traversals: true },
  { name: 'Nasr City bench trip, east to west and back', engine: 'nasrCity', metric: AUTO, fixes: benchTrip(NASR.east, NASR.west, 101), traversals: true },
  { name: 'Nasr City bench trip, north to east and back', engine: 'nasrCity', metric: AUTO, fixes: benchTrip(NASR.north, NASR.east, 203), traversals: true },
  { name: 'Nasr City bench trip, west to east and back', engine: 'nasrCity', metric: AUTO, fixes: benchTrip(NASR.west, NASR.east, 305), traversals: true },
  {
    name: 'Nasr City, 10 m noise, wider radius',
    engine: 'nasrCity',
    metric: AUTO,
    fixes: () => trace('nasrCity', AUTO, NASR.west, NASR.east, { intervalSeconds: 1, noiseMeters: 10, seed: 7 }),
    options: { gpsAccuracyMeters: 10, searchRadiusMeters: 80 },
  },
  {
    name: 'Monaco, half-second fixes (interpolated points)',
    engine: 'monaco',
    metric: AUTO,
    fixes: () => trace('monaco', AUTO, MONACO.fontvieille, MONACO.monteCarlo, { intervalSeconds: 0.5, noiseMeters: 5, seed: 3 }),
    options: { gpsAccuracyMeters: 5 },
  },
  {
    name: 'Monaco, two trips joined, short breakage distance (two sub-matches)',
    engine: 'monaco',
    metric: AUTO,
    fixes: () => [
      ...trace('monaco', AUTO, MONACO.fontvieille, MONACO.monteCarlo, { intervalSeconds: 2, noiseMeters: 5, seed: 1 }),
      ...trace('monaco', AUTO, MONACO.port, MONACO.south, { intervalSeconds: 2, noiseMeters: 5, seed: 2 }),
    ],
    options: { gpsAccuracyMeters: 5, breakageDistanceMeters: 1_000 },
    traversals: true,
  },
  {
    name: 'Monaco, fixes out at sea (unmatched points)',
    engine: 'monaco',
    metric: AUTO,
    fixes: () => {
      const fixes = trace('monaco', AUTO, MONACO.fontvieille, MONACO.monteCarlo, { intervalSeconds: 1, noiseMeters: 5, seed: 5 });
      for (const index of [0, 10, 11]) fixes[index] = { ...fixes[index]!, lat: 43.71, lon: 7.42 };
      return fixes;
    },
    options: { gpsAccuracyMeters: 5 },
  },
  {
    name: 'Monaco, 25 m noise',
    engine: 'monaco',
    metric: AUTO,
    fixes: () => trace('monaco', AUTO, MONACO.port, MONACO.south, { intervalSeconds: 1, noiseMeters: 25, seed: 11 }),
    options: { gpsAccuracyMeters: 25 },
  },
  {
    name: 'Monaco by bicycle',
    engine: 'monaco',
    metric: BICYCLE,
    fixes: () => trace('monaco', BICYCLE, MONACO.south, MONACO.monteCarlo, { intervalSeconds: 2, noiseMeters: 5, seed: 13 }),
  },
  {
    name: 'Monaco on foot, sparse fixes',
    engine: 'monaco',
    metric: PEDESTRIAN,
    fixes: () => trace('monaco', PEDESTRIAN, MONACO.monteCarlo, MONACO.fontvieille, { intervalSeconds: 20, noiseMeters: 8, seed: 17 }),
    options: { gpsAccuracyMeters: 8 },
  },
];

function sha256(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function answer(test: Case): Recorded {
  const engine = engines[test.engine];
  const fixes = test.fixes();
  const outcome = matchTrace(engine, { metric: test.metric, points: fixes, options: test.options });
  if (!outcome.ok) throw new Error(`${test.name}: ${outcome.code}`);
  const { result } = outcome;
  const recorded: Recorded = {
    name: test.name,
    matchSha256: sha256(result),
    subMatches: result.subMatches,
    edges: result.edges.length,
    confidence: result.confidence,
    stats: result.stats,
  };
  if (test.traversals) {
    const timed = tripTraversals(engine, { metric: test.metric, fixes: fixes.map((fix) => ({ lat: fix.lat, lon: fix.lon, t: fix.time })) });
    recorded.traversals = { sha256: sha256(timed), count: timed.traversals.length, matchedShare: timed.matchedShare, confidence: timed.confidence, first: timed.traversals[0] };
  }
  return recorded;
}

describe('map matching answers as recorded before the allocation-free rewrite', () => {
  if (process.env.RECORD_MAP_MATCHING) {
    it('records the answers', () => {
      mkdirSync(new URL('.', FIXTURE), { recursive: true });
      writeFileSync(FIXTURE, `${JSON.stringify(CASES.map(answer), null, 1)}\n`);
    });
    return;
  }
  const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Recorded[];

  it('has a recording of every case', () => {
    expect(recorded.map((entry) => entry.name)).toEqual(CASES.map((test) => test.name));
  });

  it('answers every case as recorded, in order and again in reverse order (state reused between traces)', () => {
    for (const order of [CASES, [...CASES].reverse()]) {
      for (const test of order) expect(answer(test), test.name).toEqual(recorded.find((entry) => entry.name === test.name));
    }
  });

  it('gives the bench trips timed segments (the recording is not of empty answers)', () => {
    for (const entry of recorded.slice(0, 4)) {
      expect(entry.traversals!.count, entry.name).toBeGreaterThan(5);
      expect(entry.traversals!.matchedShare, entry.name).toBeGreaterThan(0.95);
    }
    expect(recorded.find((entry) => entry.name.includes('two sub-matches'))!.subMatches).toBe(2);
  });
});
