/**
 * The route answer a worker writes as bytes is, byte for byte, the UTF-8 of `JSON.stringify` of the envelope
 * object built from the object task's trip (what POST /routing/route answered before the worker wrote it): over
 * many random Monaco pairs, in English and Arabic, kilometres and miles, with and without alternatives, an echoed
 * id and labels. The bytes sit on an ArrayBuffer of their own, so the worker can transfer it whole.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { availableEnvelope } from '../src/services/routing/engine-envelope.js';
import { routeAnswerHead } from '../src/services/routing/route-envelope.js';
import { routeLabels, SKIPPED_LABELS } from '../src/solvers/routing/guidance/index.js';
import { routeAnswerTask, routeTripTask, workerEngine, type TripTaskInput } from '../src/solvers/routing/routing-tasks.js';
import type { MetricSpec } from '../src/solvers/routing/costing/profiles.js';
import type { RouteLocation } from '../src/solvers/routing/routing-engine.js';
import { Random } from '../src/solvers/random.js';
import { routingPack } from './support/routing-packs.js';

const PAIRS = 60;
const PATH = '/routing/route';
let pack: MapPack;

beforeAll(async () => {
  pack = await routingPack('monaco');
}, 60_000);

/** Seeded points on random edges of the metric's main component (as the routing bench picks them). */
function randomPoints(metric: MetricSpec, count: number, seed: number): RouteLocation[] {
  const state = workerEngine(pack)!.metric(metric);
  const edges: number[] = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) if (state.inMainComponent[edge]) edges.push(edge);
  const random = new Random(seed);
  return Array.from({ length: count }, () => {
    const shape = pack.edgeShape(edges[Math.floor(random.next() * edges.length)]!);
    const [lon, lat] = shape[Math.floor(random.next() * shape.length)]!;
    return { lat, lon };
  });
}

const VARIANTS = [
  { costing: 'auto', language: 'en-US', units: 'kilometers', alternates: false, id: undefined, includeLabels: true },
  { costing: 'auto', language: 'ar', units: 'kilometers', alternates: true, id: 'req-7 "quoted"', includeLabels: true },
  { costing: 'auto', language: 'en-US', units: 'miles', alternates: true, id: undefined, includeLabels: false },
  { costing: 'pedestrian', language: 'ar-EG', units: 'miles', alternates: false, id: 'مسار', includeLabels: true },
  { costing: 'bicycle', language: 'fr', units: 'kilometers', alternates: false, id: undefined, includeLabels: true },
] as const;

describe('route answer bytes', () => {
  it.each(VARIANTS)('are the UTF-8 of the envelope object with the object task trip ($costing, $language, $units)', (variant) => {
    const metric: MetricSpec = { costing: variant.costing, preference: 'balanced', avoid: [] };
    const points = randomPoints(metric, PAIRS * 2, 20261127);
    let compared = 0;
    let withAlternates = 0;
    for (let pair = 0; pair < PAIRS; pair++) {
      const input: TripTaskInput = {
        metric,
        locations: [points[2 * pair]!, points[2 * pair + 1]!],
        ...(variant.alternates ? { alternates: { count: 2, maxSharedShare: 0.75, maxStretch: 1.4 } } : {}),
        guidance: { language: variant.language, units: variant.units },
      };
      const objects = routeTripTask(pack, input);
      const answer = routeAnswerTask(pack, { ...input, answer: { head: routeAnswerHead(PATH), ...(variant.id ? { id: variant.id } : {}), includeLabels: variant.includeLabels } });
      expect(answer.ok).toBe(objects.ok);
      if (!objects.ok || !answer.ok) continue;
      const { trip, alternates } = objects.value;
      const data = { trip, ...(alternates.length ? { alternates } : {}), ...(variant.id ? { id: variant.id } : {}) };
      const expected = JSON.stringify({ ...availableEnvelope(PATH, data), labels: variant.includeLabels ? routeLabels(trip) : SKIPPED_LABELS });
      const body = answer.value.body;
      expect(body.byteOffset).toBe(0);
      expect(body.buffer.byteLength).toBe(body.byteLength);
      expect(Buffer.from(body.buffer, body.byteOffset, body.byteLength).equals(Buffer.from(expected))).toBe(true);
      compared++;
      if (alternates.length) withAlternates++;
    }
    expect(compared).toBeGreaterThan(PAIRS * 0.8);
    if (variant.alternates) expect(withAlternates).toBeGreaterThan(0);
  }, 120_000);
});
