/**
 * Learned traffic (spec part 3 §2.5, §4.4) black-box against a started server
 * on the embedded Nasr City data: trips simulated with the documented speed
 * pattern are posted through POST /telemetry/trips, processed asynchronously,
 * and the profiles recover the simulated speeds within 10 % where the sample
 * count reaches the trust threshold. Every 400/404 rule of §4.4, and the
 * popularity privacy rule (a cell under 3 contributors never appears).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { waitForIngestion } from './support/traffic-trips.js';
import { useServer } from './support/server-fixture.js';
import { defaultPattern, driveTrip } from '../src/cli/traffic-simulator.js';
import { localClock, TRUST_MIN_SAMPLES } from '../src/services/traffic/traffic-model.js';

const fixture = useServer();
const api = fixture.api;
const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
const BBOX = '31.30,30.04,31.36,30.09';
const BASE_KPH = 50;
const TRIPS_PER_HOUR = 10;

let token: string;
let shape: string;
/** A recent Cairo working day's 08:00 local (epoch ms) and 02:00 local. */
let rushStart: number;
let nightStart: number;
let posted = 0;

/** Local hour `hour` of the most recent Cairo working day (not Fri/Sat, not a holiday) at least a day ago. */
async function recentWorkingDay(hour: number): Promise<number> {
  for (let back = 1; back <= 6; back++) {
    const candidate = Date.now() - back * 86_400_000;
    const clock = localClock('EG', candidate);
    if (clock.dow === 5 || clock.dow === 6) continue;
    const holiday = await api.get(`/holidays/on?country=EG&date=${clock.date}`);
    if (holiday.body.isHoliday) continue;
    const hijri = await api.get(`/holidays/today?country=EG&at=${new Date(candidate).toISOString()}`);
    expect(hijri.status).toBe(200);
    // local midnight of that date, then the hour (Cairo's offset found by probing the local clock)
    for (let offset = -4; offset <= 4; offset++) {
      const at = Date.parse(`${clock.date}T${String(hour).padStart(2, '0')}:00:00Z`) - offset * 3_600_000;
      const local = localClock('EG', at);
      if (local.hour === hour && local.date === clock.date) return at;
    }
  }
  throw new Error('no working day found in the last week');
}

beforeAll(async () => {
  token = (await registerUser(api, 'traffic')).token;
  const routed = await api.post('/routing/route', { payload: { locations: [FROM, TO] }, includeLabels: false }, token);
  expect(routed.status).toBe(201);
  shape = routed.body.data.trip.legs[0].shape;
  rushStart = await recentWorkingDay(8);
  nightStart = await recentWorkingDay(2);
}, 60_000);

describe('POST /telemetry/trips', () => {
  it('needs a key or a bearer token', async () => {
    const response = await api.post('/telemetry/trips', { fixes: [] });
    expect(response.status).toBe(401);
  });

  it('refuses traces it cannot learn from with 400 naming the problem', async () => {
    const now = Date.now();
    const cases: [unknown, RegExp][] = [
      [{ fixes: [{ lat: 30.06, lng: 31.32, t: now }] }, /at least 2 fixes/],
      [{ fixes: Array.from({ length: 10_001 }, (_, i) => ({ lat: 30.06, lng: 31.32, t: now - 20_000_000 + i * 1000 })) }, /at most 10000 fixes/],
      [{ fixes: [{ lat: 30.06, lng: 31.32, t: now - 5000 }, { lat: 30.0601, lng: 31.32, t: now - 5000 }] }, /fixes\[1\]\.t .* time must strictly increase/],
      [{ fixes: [{ lat: 30.06, lng: 31.32, t: now - 5000 }, { lat: 30.16, lng: 31.32, t: now - 4000 }] }, /fixes\[1\] is \d+ km\/h from fixes\[0\]/],
      [{ fixes: [{ lat: 30.06, lng: 31.32, t: now - 9 * 86_400_000 }, { lat: 30.0601, lng: 31.32, t: now - 9 * 86_400_000 + 1000 }] }, /older than the 7-day retention/],
      [{ fixes: [{ lat: 30.06, lng: 31.32, t: now + 3_600_000 }, { lat: 30.0601, lng: 31.32, t: now + 3_601_000 }] }, /future/],
      [{ fixes: [{ lat: 95, lng: 31.32, t: now }] }, /lat/],
    ];
    for (const [body, message] of cases) {
      const response = await api.post('/telemetry/trips', body, token);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(JSON.stringify(response.body.message)).toMatch(message);
    }
  });

  it('queues simulated trips (202) and learns the simulated speeds within 10 % where trusted', async () => {
    const pattern = defaultPattern();
    const starts = [
      ...Array.from({ length: TRIPS_PER_HOUR }, (_, i) => rushStart + i * 4 * 60_000),
      ...Array.from({ length: TRIPS_PER_HOUR }, (_, i) => nightStart + i * 4 * 60_000),
    ];
    const expectedKph = new Map<number, number>();
    await Promise.all(
      starts.map(async (startMs, index) => {
        const trip = driveTrip(shape, { startMs, baseKph: BASE_KPH, kind: 'typical', country: 'EG', pattern, noiseMeters: 3, seed: 100 + index });
        expectedKph.set(trip.hour, trip.speedKph);
        const response = await api.post('/telemetry/trips', { fixes: trip.fixes, simulated: true, deviceId: `sim-${index}` }, token);
        expect(response.status, JSON.stringify(response.body)).toBe(202);
        expect(response.body).toMatchObject({ status: 'queued', fixes: trip.fixes.length, simulated: true });
      }),
    );
    posted += starts.length;
    expect([...expectedKph.keys()].sort()).toEqual([2, 8]);
    const status = await waitForIngestion(api, posted);
    expect(status.trips.failed).toBe(0);
    expect(status.profiles.segments).toBeGreaterThan(5);

    for (const [startMs, hour] of [[rushStart, 8], [nightStart, 2]] as const) {
      const at = new Date(startMs + 20 * 60_000).toISOString();
      const labels = await api.get(`/traffic/labels?bbox=${BBOX}&at=${at}`);
      expect(labels.status).toBe(200);
      const trusted = labels.body.labels.filter((label: any) => label.sampleCount >= TRUST_MIN_SAMPLES);
      expect(trusted.length).toBeGreaterThan(5);
      for (const label of trusted) {
        expect(label.profileType).toBe('typical');
        expect(label.simulated).toBe(true);
        const profile = await api.get(`/traffic/profile?segmentKey=${encodeURIComponent(label.segmentKey)}&at=${at}`);
        expect(profile.status).toBe(200);
        expect(profile.body).toMatchObject({ segmentKey: label.segmentKey, country: 'EG', profileType: 'typical', todBucket: hour, calendar: { isHoliday: false, isWeekend: false, isRamadan: false } });
        const expected = expectedKph.get(hour)!;
        expect(Math.abs(profile.body.meanSpeedKph - expected) / expected, `${label.segmentKey} at ${hour}h: ${profile.body.meanSpeedKph} vs ${expected}`).toBeLessThanOrEqual(0.1);
      }
    }
    // rush hour reads slower than the night on the same road
    const rushLabels = (await api.get(`/traffic/labels?bbox=${BBOX}&at=${new Date(rushStart + 1_200_000).toISOString()}`)).body.labels;
    expect(rushLabels.some((label: any) => label.label === 'High' || label.label === 'Heavy')).toBe(true);
  }, 180_000);
});

describe('the §4.4 rules', () => {
  it('profile: 400 segmentKey required, 404 No traffic profile for this segment', async () => {
    const missing = await api.get('/traffic/profile');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.message)).toContain('segmentKey required');
    const unknown = await api.get('/traffic/profile?segmentKey=w1:2-3');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No traffic profile for this segment');
  });

  it('bbox endpoints: 400 with the bbox rule when bbox is missing or invalid', async () => {
    for (const path of ['/traffic/labels', '/traffic/depart-optimizer', '/traffic/dna']) {
      for (const query of ['', '?bbox=1,2,3', '?bbox=a,b,c,d', '?bbox=31.4,30.0,31.3,30.1']) {
        const response = await api.get(`${path}${query}`);
        expect(response.status, `${path}${query}`).toBe(400);
        expect(JSON.stringify(response.body.message)).toContain('bbox=minLng,minLat,maxLng,maxLat required');
      }
    }
    const popularity = await api.get('/traffic/popularity', token);
    expect(popularity.status).toBe(400);
    expect(JSON.stringify(popularity.body.message)).toContain('bbox=minLng,minLat,maxLng,maxLat required');
  });

  it('forecast: 400 without segmentKey; unknown, null label and speedRatio, sampleCount 0 where nothing is learned', async () => {
    expect((await api.get('/traffic/forecast')).status).toBe(400);
    const response = await api.get('/traffic/forecast?segmentKey=w1:2-3&country=XX');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ provider: 'svc-traffic-model', segmentKey: 'w1:2-3', country: 'JO' });
    expect(response.body.forecast.map((entry: any) => entry.horizonMin)).toEqual([0, 15, 30, 60]);
    for (const entry of response.body.forecast) expect(entry).toMatchObject({ congestion: 'unknown', label: null, speedRatio: null, sampleCount: 0 });
    expect((await api.get('/traffic/forecast?segmentKey=w1:2-3&horizons=5,x')).status).toBe(400);
  });

  it('depart-optimizer, dna and insights answer from the learned curves', async () => {
    const depart = await api.get(`/traffic/depart-optimizer?bbox=${BBOX}&from=1&to=9`);
    expect(depart.status).toBe(200);
    expect(depart.body).toMatchObject({ window: { from: 1, to: 9 }, recommendedDeparture: '02:00', worstDeparture: '08:00' });
    expect(depart.body.vsWorstFasterPct).toBeGreaterThan(40);
    const dna = await api.get(`/traffic/dna?bbox=${BBOX}`);
    expect(dna.body).toMatchObject({ peakHour: 8, quietHour: 2 });
    expect(dna.body.curve).toHaveLength(24);
    const insights = await api.get(`/traffic/insights?bbox=${BBOX}`);
    expect(insights.body.busiestSegments.length).toBeGreaterThan(0);
    expect(insights.body.busiestSegments[0].slowestHour).toBe(8);
  });

  it('popularity: scope insights, the mechanism stated, only cells of at least 3 contributors (20 simulated devices here)', async () => {
    expect((await api.get(`/traffic/popularity?bbox=${BBOX}`)).status).toBe(401);
    const response = await api.get(`/traffic/popularity?bbox=${BBOX}&z=14`, token);
    expect(response.status).toBe(200);
    expect(response.body.mechanism).toMatchObject({ name: 'laplace', epsilon: 1, scale: 1, kAnonymity: 3 });
    expect(response.body.cells.length).toBeGreaterThan(0);
    for (const cell of response.body.cells) expect(cell.key).toMatch(/^14\/\d+\/\d+$/);
    // a box where nobody drove has no cells, and z outside 8–16 is refused
    expect((await api.get('/traffic/popularity?bbox=35.0,31.0,35.1,31.1', token)).body.cells).toEqual([]);
    expect((await api.get(`/traffic/popularity?bbox=${BBOX}&z=20`, token)).status).toBe(400);
  });

  it('POST /traffic/route: the ETA from the profiles at departure, slower at rush hour than at night', async () => {
    expect((await api.post('/traffic/route', { locations: [FROM, TO] })).status).toBe(401);
    expect((await api.post('/traffic/route', { locations: [FROM] }, token)).status).toBe(400);
    const rush = await api.post('/traffic/route', { locations: [FROM, TO], departAt: new Date(rushStart + 60_000).toISOString() }, token);
    const night = await api.post('/traffic/route', { locations: [FROM, TO], departAt: new Date(nightStart + 60_000).toISOString() }, token);
    expect(rush.status, JSON.stringify(rush.body)).toBe(201);
    expect(rush.body).toMatchObject({ provider: 'svc-traffic-model', available: true, basedOnHistory: true, simulated: true });
    // at night the learned road is quick: the free-flow fastest route is timed on its profiles
    expect(night.body.coverage).toBeGreaterThan(0.5);
    expect(night.body.legs[0].segments.some((segment: any) => segment.profileType === 'typical')).toBe(true);
    // at rush hour that same route crawls; the search on the hour's traffic (docs/traffic.md) may leave it for a
    // road that is faster then, and reports what the free-flow route would have taken
    const timedFreeFlowRoute = rush.body.freeFlowRoute ?? { trafficSeconds: rush.body.trafficSeconds, freeFlowSeconds: rush.body.freeFlowSeconds };
    expect(timedFreeFlowRoute.freeFlowSeconds).toBe(night.body.freeFlowRoute?.freeFlowSeconds ?? night.body.freeFlowSeconds);
    expect(timedFreeFlowRoute.trafficSeconds).toBeGreaterThan(night.body.trafficSeconds * 1.5);
    expect(rush.body.trafficSeconds).toBeLessThanOrEqual(timedFreeFlowRoute.trafficSeconds);
    expect(rush.body.delaySeconds).toBe(rush.body.trafficSeconds - rush.body.freeFlowSeconds);
  });

  it('model status, validation and insights summary', async () => {
    const validation = await api.get('/traffic/model/validation');
    expect(validation.status).toBe(200);
    expect(validation.body).toMatchObject({ provider: 'svc-traffic-model', trustMinSamples: TRUST_MIN_SAMPLES });
    expect(validation.body.meanSampleCount).toBeGreaterThan(0);
    expect(validation.body.heldOut).toHaveProperty('maeKph');
    const summary = await api.get('/insights/summary?days=30', token);
    expect(summary.status).toBe(200);
    expect(summary.body.windowDays).toBe(30);
    expect(summary.body.byEntityType.trip).toBe(posted);
  });
});
