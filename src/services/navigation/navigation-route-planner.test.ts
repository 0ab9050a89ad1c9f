/**
 * The planner's request to the routing engine: the heading goes to the origin,
 * the options become the metric, and a heading that leaves no route ahead
 * falls back to a route that may turn around. (Routes on real streets are in
 * test/navigation-helpers.int.test.ts.)
 */
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import type { Trip } from '../../solvers/routing/guidance/trip-types.js';
import { NavigationRoutePlanner, type TripRouter } from './navigation-route-planner.js';

const shape = polyline.encode([[30.0557, 31.364], [30.0563, 31.369]], 6);
const trip = {
  units: 'kilometers',
  legs: [
    {
      shape,
      maneuvers: [
        { type: 1, instruction: 'Drive east.', verbal_transition_alert_instruction: 'Drive east.', verbal_pre_transition_instruction: 'Drive east.', length: 0.485, time: 60, begin_shape_index: 0, end_shape_index: 1 },
        { type: 4, instruction: 'You have arrived.', verbal_transition_alert_instruction: 'You will arrive.', verbal_pre_transition_instruction: 'You have arrived.', length: 0, time: 0, begin_shape_index: 1, end_shape_index: 1 },
      ],
    },
  ],
} as unknown as Trip;

type TripCall = Parameters<TripRouter['trip']>;

function recordingRouter(answer: (call: TripCall) => void): { router: TripRouter; calls: TripCall[] } {
  const calls: TripCall[] = [];
  const router: TripRouter = {
    trip: async (...call) => {
      calls.push(call);
      answer(call);
      return { trip, alternates: [], usedHierarchy: true };
    },
  };
  return { router, calls };
}

const request = { from: { lat: 30.0557, lng: 31.364 }, to: { lat: 30.0563, lng: 31.369 }, costing: 'bicycle' as const, preference: 'shortest' as const, avoid: ['unpaved' as const], language: 'ar-EG' };

describe('NavigationRoutePlanner', () => {
  it('asks for the metric and narration of the request, from origin to destination', async () => {
    const { router, calls } = recordingRouter(() => {});
    const route = await new NavigationRoutePlanner(router).plan(request);
    expect(calls).toHaveLength(1);
    const [metric, locations, guidance] = calls[0]!;
    expect(metric).toEqual({ costing: 'bicycle', preference: 'shortest', avoid: ['unpaved'] });
    expect(locations).toEqual([{ lat: 30.0557, lon: 31.364 }, { lat: 30.0563, lon: 31.369 }]);
    expect(guidance).toEqual({ language: 'ar-EG', units: 'kilometers' });
    expect(route).toMatchObject({ shape, distanceMeters: 485, etaSeconds: 60 });
    expect(route.maneuvers.map((maneuver) => maneuver.type)).toEqual([1, 4]);
  });

  it('gives the heading to the origin, and plans without it when nothing lies ahead', async () => {
    const { router, calls } = recordingRouter(([, locations]) => {
      if (locations[0]!.heading !== undefined) throw new ApiError('NO_ROUTE', { details: { legIndex: 0 } });
    });
    await new NavigationRoutePlanner(router).plan({ ...request, from: { ...request.from, heading: 264 } });
    expect(calls.map(([, locations]) => locations[0]!.heading)).toEqual([264, undefined]);
  });

  it('passes other refusals on (no road near, truck not provisioned)', async () => {
    const { router, calls } = recordingRouter(() => {
      throw new ApiError('NO_ROAD_NEARBY', { details: { locationIndex: 0 } });
    });
    await expect(new NavigationRoutePlanner(router).plan({ ...request, from: { ...request.from, heading: 90 } })).rejects.toMatchObject({ code: 'NO_ROAD_NEARBY' });
    expect(calls).toHaveLength(1);
  });
});
