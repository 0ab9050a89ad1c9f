/**
 * The serialised trip task answers what the object task answers: the same
 * trip text, alternatives text, and route labels from its digest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { routeLabels } from '../src/services/routing/route-labels.js';
import { routeTripJsonTask, routeTripTask, type TripTaskInput } from '../src/solvers/routing/routing-tasks.js';
import { routingPack } from './support/routing-packs.js';

let pack: MapPack;

beforeAll(async () => {
  pack = await routingPack('monaco');
}, 60_000);

describe('serialised trip task', () => {
  it('gives the JSON of the trip and alternatives the object task gives, and the same labels from its digest', () => {
    const points = [
      { lat: 43.7384, lon: 7.4246 },
      { lat: 43.7311, lon: 7.4197 },
      { lat: 43.7489, lon: 7.4372 },
      { lat: 43.7275, lon: 7.4155 },
    ];
    let compared = 0;
    for (const language of ['en-US', 'ar']) {
      for (let index = 0; index + 1 < points.length; index++) {
        const input: TripTaskInput = {
          metric: { costing: 'auto', preference: 'balanced', avoid: [] },
          locations: [points[index]!, points[index + 1]!],
          alternates: { count: 2, maxSharedShare: 0.75, maxStretch: 1.4 },
          guidance: { language },
        };
        const objects = routeTripTask(pack, input);
        const serialised = routeTripJsonTask(pack, input);
        expect(objects.ok && serialised.ok).toBe(true);
        if (!objects.ok || !serialised.ok) continue;
        expect(serialised.value.tripJson).toBe(JSON.stringify(objects.value.trip));
        expect(serialised.value.alternatesJson).toBe(objects.value.alternates.length ? JSON.stringify(objects.value.alternates) : undefined);
        expect(routeLabels(serialised.value.digest)).toEqual(routeLabels(objects.value.trip));
        compared++;
      }
    }
    expect(compared).toBe(6);
  }, 60_000);
});
