/**
 * The routing engine's traffic metric, black-box (docs/traffic.md "Traffic in
 * routing"): `date_time` on POST /routing/route searches on the learned
 * traffic of that moment. Simulated trips (labelled simulated) drive the
 * free-flow route between two Nasr City points crawling at 08:00 local and
 * fast at 03:00 on a recent Cairo working day; at rush hour the route leaves
 * that road, at night it keeps it. Without learned data, and without
 * `date_time`, the answers are exactly what they were.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { cairoTime, recentWorkingDay, waitForIngestion } from './support/traffic-trips.js';
import { useServer } from './support/server-fixture.js';
import { defaultPattern, driveTrip, type SpeedPattern } from '../src/cli/traffic-simulator.js';
import { localClock } from '../src/services/traffic/traffic-model.js';

const fixture = useServer();
const api = fixture.api;
const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
const BASE_KPH = 60;
const TRIPS_PER_HOUR = 10;
/** Crawling at 08:00 (9 km/h), free at 03:00 (60 km/h); the rest of the day as the default pattern. */
const PATTERN: SpeedPattern = (() => {
  const pattern = defaultPattern();
  const typical = [...pattern.typical];
  typical[8] = 0.15;
  typical[3] = 1;
  return { ...pattern, typical };
})();

let token: string;
/** The free-flow route's answer (no date_time), before any trip was learned. */
let freeFlowBody: any;
let freeFlowShape: string;
/** A recent Cairo working day (local date) and its 08:00 and 03:00 as epoch ms. */
let day: string;
let rushStart: number;
let nightStart: number;

const route = (extra: Record<string, unknown> = {}) => api.post('/routing/route', { payload: { locations: [FROM, TO], costing: 'auto', ...extra }, includeLabels: false }, token);

/** Share of the free-flow route's inner vertices (the middle 70 %) that lie within 15 m of another route's line. */
function sharedShare(reference: string, other: string): number {
  const points = polyline.decode(reference, 6) as [number, number][];
  const line = polyline.decode(other, 6) as [number, number][];
  const inner = points.slice(Math.floor(points.length * 0.15), Math.ceil(points.length * 0.85));
  const near = inner.filter((point) => line.some((vertex, index) => index > 0 && segmentDistanceMeters(point, line[index - 1]!, vertex) < 15));
  return near.length / inner.length;
}

function segmentDistanceMeters(p: [number, number], a: [number, number], b: [number, number]): number {
  const k = Math.cos((p[0] * Math.PI) / 180) * 111_195;
  const [px, py, ax, ay, bx, by] = [p[1] * k, p[0] * 111_195, a[1] * k, a[0] * 111_195, b[1] * k, b[0] * 111_195];
  const length = (bx - ax) ** 2 + (by - ay) ** 2;
  const t = length ? Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length)) : 0;
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

beforeAll(async () => {
  token = (await registerUser(api, 'traffic-routing')).token;
  const routed = await route();
  expect(routed.status).toBe(201);
  freeFlowBody = routed.body;
  freeFlowShape = routed.body.data.trip.legs[0].shape;
  // walking is routed below too: its metric and hierarchy are prepared here, outside the tests' time
  const walking = await api.post('/routing/route', { payload: { locations: [FROM, TO], costing: 'pedestrian' }, includeLabels: false }, token);
  expect(walking.status).toBe(201);
  day = await recentWorkingDay(api);
  rushStart = cairoTime(day, 8);
  nightStart = cairoTime(day, 3);
}, 120_000);

describe('date_time on POST /routing/route', () => {
  it('refuses a date_time it cannot read with 400 naming the field', async () => {
    for (const dateTime of [{ type: 7, value: `${day}T08:00` }, { type: 1 }, { type: 1, value: '2026-02-30T08:00' }, { type: 1, value: 'tomorrow' }, 42]) {
      const response = await route({ date_time: dateTime });
      expect(response.status, JSON.stringify(dateTime)).toBe(400);
      expect(JSON.stringify(response.body)).toContain('date_time');
    }
  });

  it('without learned traffic: the same route, byte for byte, and trafficModel says free flow and why', async () => {
    const response = await route({ date_time: { type: 1, value: `${day}T08:20` } });
    expect(response.status).toBe(201);
    expect(JSON.stringify(response.body.data)).toBe(JSON.stringify(freeFlowBody.data));
    expect(response.body.trafficModel).toMatchObject({
      used: false,
      metric: 'free-flow',
      reason: expect.stringContaining('no trustworthy traffic profile'),
      country: 'EG',
      profileType: 'typical',
      todBucket: 8,
      dow: localClock('EG', rushStart).dow,
      calendar: { isHoliday: false, isWeekend: false, isRamadan: false },
      segmentsWithProfiles: 0,
    });
    // the local time was read in Cairo's clock
    expect(Date.parse(response.body.trafficModel.at)).toBe(rushStart + 20 * 60_000);
    const { trafficModel: _model, ...rest } = response.body;
    expect(JSON.stringify(rest)).toBe(JSON.stringify(freeFlowBody));
  });

  it('learns a road that crawls at 08:00 and flows at 03:00 from simulated trips', async () => {
    const starts = [
      ...Array.from({ length: TRIPS_PER_HOUR }, (_, i) => rushStart + i * 2 * 60_000),
      ...Array.from({ length: TRIPS_PER_HOUR }, (_, i) => nightStart + i * 2 * 60_000),
    ];
    await Promise.all(
      starts.map(async (startMs, index) => {
        const trip = driveTrip(freeFlowShape, { startMs, baseKph: BASE_KPH, kind: 'typical', country: 'EG', pattern: PATTERN, noiseMeters: 3, seed: 300 + index });
        const response = await api.post('/telemetry/trips', { fixes: trip.fixes, simulated: true, deviceId: `sim-${index}` }, token);
        expect(response.status, JSON.stringify(response.body)).toBe(202);
      }),
    );
    const status = await waitForIngestion(api, starts.length);
    expect(status.trips.failed).toBe(0);
    expect(status.profiles.segments).toBeGreaterThan(10);
  }, 300_000);

  it('at rush hour avoids the crawling road, searched on the learned traffic metric', async () => {
    const rush = await route({ date_time: { type: 1, value: `${day}T08:20` } });
    expect(rush.status).toBe(201);
    expect(rush.body.trafficModel).toMatchObject({ used: true, metric: 'traffic', country: 'EG', profileType: 'typical', todBucket: 8, simulated: true });
    expect(rush.body.trafficModel.segmentsWithProfiles).toBeGreaterThan(10);
    expect(rush.body.trafficModel.profileTypes.typical).toBe(rush.body.trafficModel.segmentsWithProfiles);
    const shape = rush.body.data.trip.legs[0].shape;
    expect(shape).not.toBe(freeFlowShape);
    expect(sharedShare(freeFlowShape, shape)).toBeLessThan(0.5);
    // the same moment as an instant (Z) chooses the same metric and route
    const instant = await route({ date_time: { type: 1, value: new Date(rushStart + 20 * 60_000).toISOString() } });
    expect(instant.body.data.trip.legs[0].shape).toBe(shape);
    // its time is the traffic time: slower than the free-flow trip even on the detour
    expect(rush.body.data.trip.summary.time).toBeGreaterThan(freeFlowBody.data.trip.summary.time);
  });

  it('at night keeps the road (it flows), and the night metric is another one', async () => {
    const night = await route({ date_time: { type: 1, value: `${day}T03:20` } });
    expect(night.status).toBe(201);
    expect(night.body.trafficModel).toMatchObject({ used: true, metric: 'traffic', todBucket: 3 });
    expect(night.body.data.trip.legs[0].shape).toBe(freeFlowShape);
    const rush = await route({ date_time: { type: 1, value: `${day}T08:20` } });
    expect(night.body.data.trip.summary.time).toBeLessThan(rush.body.data.trip.summary.time);
  });

  it('an hour with nothing learned, type 3 (invariant), walking, and no date_time at all: the free-flow route', async () => {
    const noon = await route({ date_time: { type: 1, value: `${day}T12:20` } });
    expect(noon.body.trafficModel).toMatchObject({ used: false, todBucket: 12 });
    expect(JSON.stringify(noon.body.data)).toBe(JSON.stringify(freeFlowBody.data));
    const invariant = await route({ date_time: { type: 3, value: `${day}T08:20` } });
    expect(invariant.body.trafficModel).toMatchObject({ used: false, metric: 'free-flow', reason: expect.stringContaining('invariant') });
    expect(JSON.stringify(invariant.body.data)).toBe(JSON.stringify(freeFlowBody.data));
    const walking = await api.post('/routing/route', { payload: { locations: [FROM, TO], costing: 'pedestrian', date_time: { type: 1, value: `${day}T08:20` } }, includeLabels: false }, token);
    expect(walking.body, JSON.stringify(walking.body).slice(0, 300)).toMatchObject({ available: true, trafficModel: { used: false, reason: expect.stringContaining('motor vehicles') } });
    // without date_time the answer is the one from before anything was learned, byte for byte
    const plain = await route();
    expect(JSON.stringify(plain.body)).toBe(JSON.stringify(freeFlowBody));
  });
});
