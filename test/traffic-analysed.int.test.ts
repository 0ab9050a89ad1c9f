/**
 * Analysed traffic (spec part 3 §4.4) and the traffic-aware navigation ETA (§4.2), black-box: simulated trips
 * are posted through POST /telemetry/trips on one server (with WEATHER_URL pointing at a fake Open-Meteo server
 * this test starts); a second server has no data and no weather provider. Every rule §4.4 states for the analysed
 * endpoints: `svc-analysed-traffic`, never live, `basis: "none"` instead of an error without data, seven days by
 * hour with best and worst two-hour windows, an English or Arabic outlook, and adjustments for Eid, school
 * breaks and the weather (forecast or what-if).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { defaultPattern, driveTrip } from '../src/cli/traffic-simulator.js';
import { localClock } from '../src/services/traffic/traffic-model.js';
import { cairoTime, recentWorkingDay, waitForIngestion } from './support/traffic-trips.js';

const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
/** The middle of the simulated route: its segments lie within the default 750 m. */
const POINT = 'lat=30.066&lng=31.331&radius=1500';
const TRIPS_PER_HOUR = 3;
const CONGESTION = ['light', 'moderate', 'heavy', 'severe'];

let weatherServer: Server;
const weatherRequests: URL[] = [];
let learned: ServerProcess;
let empty: ServerProcess;
let api: ApiClient;
let bare: ApiClient;
let token: string;
let bareToken: string;
/** A recent Cairo working day (local date) on which the trips were driven. */
let tripDate: string;
let rushAt: number;
let nightAt: number;

/** An Open-Meteo-shaped answer: heavy rain (6 mm/h) every hour from 2 h ago for 4 days. */
function fakeForecast(): unknown {
  const start = Math.floor(Date.now() / 3_600_000) * 3600 - 7200;
  const time = Array.from({ length: 98 }, (_, i) => start + i * 3600);
  return { latitude: 30.1, longitude: 31.3, hourly: { time, weather_code: time.map(() => 63), precipitation: time.map(() => 6), wind_gusts_10m: time.map(() => 20), visibility: time.map(() => 20_000) } };
}

beforeAll(async () => {
  weatherServer = createServer((request, response) => {
    weatherRequests.push(new URL(request.url ?? '/', 'http://fake'));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(fakeForecast()));
  });
  await new Promise<void>((resolve) => weatherServer.listen(0, '127.0.0.1', resolve));
  const port = (weatherServer.address() as AddressInfo).port;
  // one after the other: two migrating at once double the start time on a loaded machine
  learned = await startServerProcess({ WEATHER_URL: `http://127.0.0.1:${port}/v1/forecast`, WEATHER_ALLOWED_HOSTS: `127.0.0.1:${port}` });
  empty = await startServerProcess({ WEATHER_URL: undefined, WEATHER_ALLOWED_HOSTS: undefined });
  api = apiClient(learned.baseUrl);
  bare = apiClient(empty.baseUrl);
  token = (await registerUser(api, 'analysed')).token;
  bareToken = (await registerUser(bare, 'analysed-bare')).token;

  const routed = await api.post('/routing/route', { payload: { locations: [FROM, TO] }, includeLabels: false }, token);
  expect(routed.status).toBe(201);
  const shape = routed.body.data.trip.legs[0].shape;
  tripDate = await recentWorkingDay(api);
  rushAt = cairoTime(tripDate, 8, 20);
  nightAt = cairoTime(tripDate, 2, 20);
  // rush (7, 8: 0.45 of the base speed), night (2, 3: 0.95), and the current local hour and the next at a flat 0.8,
  // (for the session ETA departing now; between rush and night, so the windows below stay where they are)
  const nowHour = localClock('EG', Date.now()).hour;
  const patterned = [2, 3, 7, 8];
  // and 16, 17 always: from 22:00 local the current hours fall outside the outlook's daytime (06–22), which then has
  // no second two-hour window to compare the rush with
  const flatHours = [...new Set([nowHour, (nowHour + 1) % 24, 16, 17])].filter((hour) => !patterned.includes(hour));
  const flat = { typical: Array<number>(24).fill(0.8), weekend: Array<number>(24).fill(0.8), ramadan: Array<number>(24).fill(0.8) };
  const starts = [...patterned, ...flatHours].flatMap((hour) => Array.from({ length: TRIPS_PER_HOUR }, (_, i) => ({ hour, startMs: cairoTime(tripDate, hour, 5 + i * 15) })));
  await Promise.all(
    starts.map(async ({ hour, startMs }, index) => {
      const pattern = patterned.includes(hour) ? defaultPattern() : flat;
      const trip = driveTrip(shape, { startMs, baseKph: 50, kind: 'typical', country: 'EG', pattern, noiseMeters: 3, seed: 500 + index });
      const response = await api.post('/telemetry/trips', { fixes: trip.fixes, simulated: true, deviceId: `analysed-${index}` }, token);
      expect(response.status, JSON.stringify(response.body)).toBe(202);
    }),
  );
  const status = await waitForIngestion(api, starts.length);
  // every later test reads these profiles: a trip that failed, or no profile filed, is said here once, with the
  // server's warnings (one CI run saw basis "none" on this server, its cause not kept)
  if (status.trips.failed > 0 || status.profiles.rows === 0) {
    const warnings = learned.output.filter((line) => /"level":(40|50)/.test(line)).slice(-20);
    throw new Error(`trips not learned: ${JSON.stringify(status)}\n${warnings.join('\n')}`);
  }
}, 240_000);

afterAll(async () => {
  await Promise.all([learned?.stop(), empty?.stop()].map((stop) => stop?.catch(() => undefined)));
  weatherServer?.close();
});

describe('analysed traffic without data or weather provider', () => {
  it('answers basis "none" (not an error), labelled svc-analysed-traffic and never live', async () => {
    for (const path of ['/traffic/analysed', '/traffic/analysed/week', '/traffic/analysed/outlook', '/traffic/analysed/outlook?lang=ar']) {
      const response = await bare.get(`${path}${path.includes('?') ? '&' : '?'}${POINT}`);
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.body).toMatchObject({ provider: 'svc-analysed-traffic', live: false, basis: 'none' });
    }
    const now = await bare.get(`/traffic/analysed?${POINT}`);
    expect(now.body.expected).toBeNull();
    // no provider: the weather is not assumed
    expect(now.body.weather).toMatchObject({ source: 'none', condition: null });
    const week = await bare.get(`/traffic/analysed/week?${POINT}`);
    expect(week.body.days).toHaveLength(7);
    expect(week.body.days.flatMap((day: any) => day.hours).every((hour: any) => hour.congestion === 'unknown' && hour.speedRatio === null)).toBe(true);
    expect(week.body.bestWindow).toBeNull();
    expect(week.body.worstWindow).toBeNull();
    const arabic = await bare.get(`/traffic/analysed/outlook?${POINT}&lang=ar`);
    expect(arabic.body.text).toMatch(/[\u0600-\u06FF]/);
    const model = await bare.get('/traffic/analysed/model');
    expect(model.status).toBe(200);
    expect(model.body).toMatchObject({ provider: 'svc-analysed-traffic', live: false, basis: 'none', weather: { configured: false } });
  });

  it('refuses malformed parameters with 400 naming them', async () => {
    const cases: [string, RegExp][] = [
      ['/traffic/analysed', /lat and lng required/],
      ['/traffic/analysed?lat=30.06', /lat and lng required/],
      ['/traffic/analysed?lat=95&lng=31', /lat must be within/],
      ['/traffic/analysed?lat=30&lng=abc', /not a number/],
      [`/traffic/analysed?${POINT.replace('radius=1500', 'radius=9000')}`, /radius/],
      [`/traffic/analysed?${POINT}&weather=tornado`, /weather: one of clear, rain/],
      [`/traffic/analysed?${POINT}&at=yesterday`, /at: must be an ISO 8601/],
      [`/traffic/analysed/week?${POINT}&date=2026-02-30`, /date: a local date/],
      [`/traffic/analysed/week?${POINT}&from=20&to=8`, /from must be before to/],
      [`/traffic/analysed/outlook?${POINT}&lang=fr`, /lang: en or ar/],
      ['/traffic/analysed/outlook', /lat and lng required/],
    ];
    for (const [path, message] of cases) {
      const response = await bare.get(path);
      expect(response.status, path).toBe(400);
      expect(JSON.stringify(response.body.message), path).toMatch(message);
    }
  });

  it('navigation ETA without profiles: available false, source base', async () => {
    const session = await bare.post('/navigation/sessions', { origin: { lat: FROM.lat, lng: FROM.lon }, destination: { lat: TO.lat, lng: TO.lon } }, bareToken);
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const eta = await bare.get(`/navigation/sessions/${session.body.sessionId}/eta`, bareToken);
    expect(eta.status).toBe(200);
    expect(eta.body).toMatchObject({ available: false, source: 'base', etaSeconds: session.body.etaSeconds });
  });
});

describe('analysed traffic from learned profiles', () => {
  it('expected traffic at rush hour is slower than at night, from the learned typical profile', async () => {
    const rush = await api.get(`/traffic/analysed?${POINT}&at=${new Date(rushAt).toISOString()}`);
    const night = await api.get(`/traffic/analysed?${POINT}&at=${new Date(nightAt).toISOString()}`);
    for (const response of [rush, night]) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body, JSON.stringify(response.body)).toMatchObject({ provider: 'svc-analysed-traffic', live: false, kind: 'expected', basis: 'learned', country: 'EG', simulated: true });
      expect(response.body.learned.profileType).toBe('typical');
      expect(response.body.learned.segments).toBeGreaterThan(3);
      expect(CONGESTION).toContain(response.body.expected.congestion);
      // days ago: beyond the forecast's reach, so no weather is assumed
      expect(response.body.weather.source).toBe('none');
    }
    expect(rush.body.local).toMatchObject({ date: tripDate, hour: 8 });
    expect(rush.body.expected.speedRatio).toBeLessThan(night.body.expected.speedRatio - 0.2);
    expect(rush.body.expected.delayPct).toBeGreaterThan(night.body.expected.delayPct);
    // an hour with nothing learned says so
    const noon = await api.get(`/traffic/analysed?${POINT}&at=${new Date(cairoTime(tripDate, 12)).toISOString()}`);
    // (unless trips were also driven at noon for the session ETA, which departs at the current local hour)
    const nowHour = localClock('EG', Date.now()).hour;
    if (nowHour !== 12 && nowHour !== 11) {
      expect(noon.body).toMatchObject({ basis: 'none', expected: null });
    }
  });

  it('what-if weather scales the learned delay by its documented multiplier', async () => {
    const at = new Date(rushAt).toISOString();
    const clear = (await api.get(`/traffic/analysed?${POINT}&at=${at}&weather=clear`)).body;
    const storm = (await api.get(`/traffic/analysed?${POINT}&at=${at}&weather=storm`)).body;
    expect(storm.weather).toMatchObject({ source: 'what-if', condition: 'storm' });
    const multiplier = storm.adjustments.find((adjustment: any) => adjustment.factor === 'weather').multiplier;
    expect(multiplier).toBeGreaterThan(1);
    expect(storm.expected.delayPct / clear.expected.delayPct).toBeCloseTo(multiplier, 1);
    expect(storm.expected.speedRatio).toBeLessThan(clear.expected.speedRatio);
  });

  it('reads the configured forecast for the next 72 hours (heavy rain from the fake provider)', async () => {
    // the next local 08:30 in Cairo: within a day, learned (weekdays pooled when it is not a working day)
    let at = cairoTime(localClock('EG', Date.now()).date, 8, 30);
    if (at <= Date.now()) at += 86_400_000;
    const forecast = await api.get(`/traffic/analysed?${POINT}&at=${new Date(at).toISOString()}`);
    expect(forecast.status).toBe(200);
    expect(forecast.body.weather).toMatchObject({ source: 'forecast', condition: 'heavy_rain' });
    expect(forecast.body.adjustments).toContainEqual(expect.objectContaining({ factor: 'weather', multiplier: 1.6 }));
    const asked = weatherRequests.at(-1)!;
    expect(Number(asked.searchParams.get('latitude'))).toBeCloseTo(30.1, 5);
    expect(Number(asked.searchParams.get('longitude'))).toBeCloseTo(31.3, 5);
    expect(asked.searchParams.get('hourly')).toContain('precipitation');
    // a week ahead is beyond the forecast: nothing assumed
    const later = await api.get(`/traffic/analysed?${POINT}&at=${new Date(at + 6 * 86_400_000).toISOString()}`);
    expect(later.body.weather).toMatchObject({ source: 'none', condition: null });
    expect(later.body.adjustments.some((adjustment: any) => adjustment.factor === 'weather')).toBe(false);
  });

  it('week: seven local days by hour with the best and worst two-hour windows', async () => {
    const week = await api.get(`/traffic/analysed/week?${POINT}&date=${tripDate}&from=0&to=23`);
    expect(week.status).toBe(200);
    expect(week.body).toMatchObject({ provider: 'svc-analysed-traffic', live: false, basis: 'learned', from: tripDate, window: { from: 0, to: 23 } });
    expect(week.body.days).toHaveLength(7);
    const first = week.body.days[0];
    expect(first).toMatchObject({ date: tripDate, dayType: 'working' });
    expect(first.hours.map((hour: any) => hour.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(first.hours[8].speedRatio).toBeLessThan(first.hours[2].speedRatio);
    // the worst window is the rush (07–09), the best one starts in the night hours learned (02–04)
    expect(week.body.worstWindow).toMatchObject({ startHour: 7, from: '07:00', to: '09:00' });
    expect([1, 2, 3]).toContain(first.best.startHour);
    expect(first.worst.startHour).toBe(7);
    const dates = week.body.days.map((day: any) => day.date);
    expect(new Set(dates).size).toBe(7);
    // default window 06–22 excludes the night
    const daytime = await api.get(`/traffic/analysed/week?${POINT}&date=${tripDate}`);
    expect(daytime.body.window).toEqual({ from: 6, to: 22 });
    expect(daytime.body.bestWindow.startHour).toBeGreaterThanOrEqual(6);
  });

  it('outlook: a short day outlook in English and in Arabic, said to be expected, not live', async () => {
    const english = await api.get(`/traffic/analysed/outlook?${POINT}&date=${tripDate}`);
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({ provider: 'svc-analysed-traffic', live: false, basis: 'learned', language: 'en', date: tripDate });
    expect(english.body.text).toContain('07:00–09:00');
    expect(english.body.text).toMatch(/not live/);
    expect(english.body.text.length).toBeLessThan(600);
    const arabic = await api.get(`/traffic/analysed/outlook?${POINT}&date=${tripDate}&lang=ar`);
    expect(arabic.body.language).toBe('ar');
    expect(arabic.body.text).toMatch(/[\u0600-\u06FF]/);
    expect(arabic.body.text).toContain('07:00');
    expect(arabic.body.text).toContain('ليست مباشرة');
  });

  it('Eid and school breaks adjust the learned working-day traffic', async () => {
    const list = await api.get('/holidays?country=EG&from=2027-01-01&to=2027-12-31');
    expect(list.status).toBe(200);
    const holidays: any[] = Array.isArray(list.body) ? list.body : (list.body.holidays ?? list.body.data ?? []);
    const eid = holidays.find((holiday) => /^Eid al-Fitr$/.test(holiday.name) && holiday.date);
    expect(eid, JSON.stringify(holidays.slice(0, 3))).toBeDefined();
    const working = (await api.get(`/traffic/analysed?${POINT}&at=${new Date(rushAt).toISOString()}&weather=clear`)).body;
    const onEid = (await api.get(`/traffic/analysed?${POINT}&at=${new Date(cairoTime(eid.date, 8, 20)).toISOString()}&weather=clear`)).body;
    expect(onEid.calendar).toMatchObject({ isHoliday: true, isEid: true });
    expect(onEid.adjustments).toContainEqual(expect.objectContaining({ factor: 'eid', multiplier: 0.45 }));
    expect(onEid.expected.speedRatio).toBeGreaterThan(working.expected.speedRatio);

    // a working day of the Egyptian summer school break (15 June – 20 September)
    let summer: any;
    for (let day = 1; day <= 20 && !summer; day++) {
      const date = `2027-07-${String(day).padStart(2, '0')}`;
      const answer = (await api.get(`/traffic/analysed?${POINT}&at=${new Date(cairoTime(date, 8, 20)).toISOString()}&weather=clear`)).body;
      if (!answer.calendar.isWeekend && !answer.calendar.isHoliday && !answer.calendar.isRamadan) summer = answer;
    }
    expect(summer.calendar.schoolBreak).toBe('Summer school holiday');
    expect(summer.adjustments).toEqual([expect.objectContaining({ factor: 'school-break', multiplier: 0.75 })]);
    expect(summer.expected.delayPct).toBeCloseTo(working.expected.delayPct * 0.75, 0);
  });

  it('model: multipliers, school calendars per country with sources, the weather provider', async () => {
    const model = await api.get('/traffic/analysed/model');
    expect(model.status).toBe(200);
    expect(model.body).toMatchObject({ provider: 'svc-analysed-traffic', live: false, basis: 'learned', weather: { configured: true, horizonHours: 72 } });
    expect(model.body.base.samples).toBeGreaterThan(0);
    expect(Object.keys(model.body.schoolCalendars)).toHaveLength(15);
    for (const calendar of Object.values(model.body.schoolCalendars) as any[]) {
      expect(calendar.source).toMatch(/Ministry/);
      expect(calendar.breaks.length).toBeGreaterThan(0);
    }
  });
});

describe('GET /navigation/sessions/{id}/eta with learned profiles', () => {
  it('answers available, source traffic, delaySeconds and trafficLevel, as POST /traffic/route times the way', async () => {
    const session = await api.post('/navigation/sessions', { origin: { lat: FROM.lat, lng: FROM.lon }, destination: { lat: TO.lat, lng: TO.lon } }, token);
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    const eta = await api.get(`/navigation/sessions/${session.body.sessionId}/eta`, token);
    expect(eta.status).toBe(200);
    expect(eta.body).toMatchObject({ sessionId: session.body.sessionId, available: true, source: 'traffic', baseSeconds: Math.round(session.body.etaSeconds) });
    expect(CONGESTION).toContain(eta.body.trafficLevel);
    expect(eta.body.etaSeconds).toBe(eta.body.baseSeconds + eta.body.delaySeconds);
    expect(Date.parse(eta.body.arrivalTime)).toBeGreaterThan(Date.now());
    const route = await api.post('/traffic/route', { locations: [FROM, TO] }, token);
    expect(route.status).toBe(201);
    expect(route.body.basedOnHistory).toBe(true);
    // the delay over the free-flow fastest time (the route searched on the traffic metric may be another road)
    const delay = route.body.trafficSeconds - (route.body.freeFlowRoute?.freeFlowSeconds ?? route.body.freeFlowSeconds);
    expect(Math.abs(eta.body.delaySeconds - delay)).toBeLessThanOrEqual(Math.max(5, 0.15 * Math.abs(delay)));
    // another caller's session is not theirs to read
    const other = (await registerUser(api, 'analysed-other')).token;
    expect((await api.get(`/navigation/sessions/${session.body.sessionId}/eta`, other)).status).toBe(403);
  });
});
