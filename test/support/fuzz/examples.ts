/**
 * Bodies that pass validation for operations whose schema alone rarely yields one (fields that must agree with
 * each other: one demand per stop, a polyline and a position on it, exactly one of two fields). The fuzzer sends
 * them as they are and with one leaf replaced, one field removed or one added, so the engines behind the
 * validation see valid, nearly valid and hostile work too.
 */
import fc from 'fast-check';
import polyline from '@mapbox/polyline';
import { hostileValue, PROTOTYPE_NAMES } from './hostile-values.js';

const A = { lat: 30.0626, lng: 31.3219 };
const B = { lat: 30.07, lng: 31.34 };
const C = { lat: 30.055, lng: 31.33 };
const D = { lat: 30.066, lng: 31.305 };
const lon = ({ lat, lng }: { lat: number; lng: number }) => ({ lat, lon: lng });
const LINE = [A, { lat: 30.064, lng: 31.326 }, { lat: 30.066, lng: 31.331 }, { lat: 30.068, lng: 31.336 }, B];
const SHAPE = polyline.encode(
  LINE.map(({ lat, lng }) => [lat, lng]),
  6,
);
const TRACE = LINE.map((point, index) => ({ ...lon(point), time: 1_700_000_000 + index * 20 }));

/** Valid bodies by "METHOD /api/v1/path" (paths with parameters as the document writes them). */
export const EXAMPLES: Record<string, unknown[]> = {
  'POST /api/v1/routing/route': [
    { payload: { locations: [lon(A), lon(B)], costing: 'auto' } },
    { payload: { locations: [lon(A), lon(C), lon(B)], costing: 'pedestrian', alternates: 2, directions_options: { language: 'ar' } }, includeLabels: true },
  ],
  'POST /api/v1/routing/plan': [{ locations: [lon(A), lon(B)], includeAttributes: true }, { locations: [lon(A), lon(C), lon(D), lon(B)], optimize: true, costing: 'bicycle' }],
  'POST /api/v1/routing/optimize': [{ locations: [lon(A), lon(C), lon(D), lon(B)], costing: 'auto' }],
  'POST /api/v1/routing/route-attributes': [{ locations: [lon(A), lon(B)], costing: 'auto' }],
  'POST /api/v1/routing/matrix': [{ sources: [lon(A), lon(C)], targets: [lon(B), lon(D)], costing: 'auto' }, { locations: [lon(A), lon(B), lon(C)], costing: 'pedestrian' }],
  'POST /api/v1/routing/isochrone': [
    { locations: [lon(A)], costing: 'auto', contours: [{ time: 3 }, { time: 8, color: '00ff00' }], polygons: true },
    { locations: [lon(A)], costing: 'pedestrian', contours: [{ distance: 1 }] },
  ],
  'POST /api/v1/routing/map-match': [{ shape: TRACE, costing: 'auto' }, { encoded_polyline: SHAPE, costing: 'auto', shape_match: 'map_snap' }],
  'POST /api/v1/navigation/off-route': [{ routeShape: SHAPE, position: C }, { routeShape: SHAPE, position: LINE[2], thresholdMeters: 50 }],
  'POST /api/v1/navigation/progress': [{ routeShape: SHAPE, position: LINE[1], baseSeconds: 600 }],
  'POST /api/v1/navigation/recalculate': [{ current: A, destination: B }, { current: C, heading: 90, destination: { ...B, name: 'البيت' }, costing: 'auto' }],
  'POST /api/v1/navigation/arrival-check': [{ position: B, destination: B }],
  'POST /api/v1/navigation/speak': [{ text: 'Turn right onto Abbas El Akkad' }, { text: 'انعطف يمينا', language: 'ar' }, { maneuver: { instruction: 'Turn left' }, cue: 'alert', distanceMeters: 400 }],
  'POST /api/v1/navigation/sessions': [{ origin: A, destination: B }, { origin: C, destination: { ...D, name: 'Work' }, costing: 'pedestrian' }],
  'POST /api/v1/navigation/sessions/{id}/positions': [{ positions: LINE.slice(0, 3).map((point, index) => ({ ...point, speed: 10, capturedAt: new Date(Date.UTC(2026, 0, 1, 8, 0, index * 5)).toISOString() })) }],
  'POST /api/v1/optimize/binpack': [{ itemWeights: [7, 5, 4, 4, 3, 2, 2, 1], binCapacities: [10, 10, 10, 10] }],
  'POST /api/v1/optimize/roster': [{ numDrivers: 3, numDays: 4, demand: [[1, 1], [2, 0], [1, 1], [1, 0]], minRestDays: 1 }],
  'POST /api/v1/optimize/routes': [
    { stops: [A, B, C, D], tier: 'fast' },
    { stops: [A, B, C, D], numVehicles: 2, demands: [0, 2, 3, 1], vehicleCapacities: [4, 4], serviceTimes: [0, 60, 60, 60], tier: 'fast' },
  ],
  'POST /api/v1/optimize/reoptimize': [{ vehiclePositions: [A], remainingStops: [B, C, D], tier: 'fast' }],
  'POST /api/v1/optimize/jobs': [
    { stops: [A, B, C], tier: 'fast' },
    { kind: 'binpack', itemWeights: [3, 3, 2], binCapacities: [5, 5] },
    { kind: 'roster', numDrivers: 2, numDays: 2, demand: [[1], [1]] },
  ],
  'POST /api/v1/optimize/fleets': [{ name: 'Fleet', vehicles: [{ id: 'v1', start: A }], stops: [{ id: 's1', ...B }, { id: 's2', ...C }] }],
  'POST /api/v1/geocode/batch': [{ queries: ['مدينة نصر', 'Abbas El Akkad'] }],
  'POST /api/v1/geocode/reverse-batch': [{ points: [lon(A), lon(B)] }],
  'POST /api/v1/geo/address/batch': [{ points: [A, B] }],
  'POST /api/v1/me/saved-places': [{ name: 'Home', lat: A.lat, lng: A.lng, tags: ['family'] }],
  'POST /api/v1/me/live-shares': [{ lat: A.lat, lng: A.lng, destination: { name: 'Work', ...B }, expiresInMinutes: 30 }],
  'POST /api/v1/auth/register': [{ email: 'fuzz.register@example.jo', password: 'a long enough password' }],
};

/** Every leaf path of a JSON value ([] for the root). */
function leafPaths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value) && value.length) value.forEach((item, index) => leafPaths(item, [...prefix, index], out));
  else if (value !== null && typeof value === 'object' && Object.keys(value).length) for (const [key, item] of Object.entries(value)) leafPaths(item, [...prefix, key], out);
  else out.push(prefix);
  return out;
}

function withLeaf(value: unknown, path: (string | number)[], replacement: unknown, drop: boolean): unknown {
  if (!path.length) return drop ? undefined : replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (drop && !rest.length) copy.splice(head as number, 1);
    else copy[head as number] = withLeaf(copy[head as number], rest, replacement, drop);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (drop && !rest.length) delete copy[head as string];
  else copy[head as string] = withLeaf(copy[head as string], rest, replacement, drop);
  return copy;
}

/** An example as it is, or with one leaf replaced by a hostile value, dropped, or a field added beside it. */
export function exampleBodies(examples: unknown[]): fc.Arbitrary<unknown> {
  return fc.constantFrom(...examples).chain((example) => {
    const paths = leafPaths(example);
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant(example) },
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => withLeaf(example, path, value, false)) },
      { weight: 1, arbitrary: fc.constantFrom(...paths).map((path) => withLeaf(example, path, undefined, true)) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 12 })), hostileValue).map(([key, value]) => {
          const copy = JSON.parse(JSON.stringify(example)) as Record<string, unknown>;
          Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
          return copy;
        }),
      },
    );
  });
}
