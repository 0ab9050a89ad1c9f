/**
 * Commute advice (spec part 3 §4.4), saved commutes and leave-now alerts (docs/commute.md) black-box against
 * started servers on the embedded Nasr City data. The servers' commute clock is injected
 * (COMMUTE_CLOCK_OFFSET_MS) so "now" is a chosen moment of a Jordanian working day. With the real services two
 * processes share one deployment and the alert must be written exactly once between them; embedded, one
 * process is checked to fire once across many ticks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { nextMondayAt } from './support/commute-clock.js';
import { useServerCluster } from './support/server-cluster.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { usingRealServices } from './support/services.js';

const HOME = { lat: 30.0626, lng: 31.3219 };
const WORK = { lat: 30.07, lng: 31.34 };
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Server "now" for the advice tests: Monday 07:00 in Amman. */
const MONDAY_7 = nextMondayAt(7 * 60);

let server: ServerProcess;
let api: ApiClient;
let token: string;

beforeAll(async () => {
  server = await startServerProcess({ COMMUTE_CLOCK_OFFSET_MS: String(MONDAY_7 - Date.now()), COMMUTE_ALERT_INTERVAL_MS: '3600000' });
  api = apiClient(server.baseUrl);
  token = (await registerUser(api, 'commute')).token;
  // the routing engine prepares its hierarchy after start; on a loaded machine the first routes may be shed (503)
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
    if ((await api.post('/commute/advice', { home: HOME, work: WORK }, token)).status !== 503) break;
  }
}, 150_000);
afterAll(async () => {
  await server?.stop();
});

const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;

describe('POST /commute/advice', () => {
  it('needs a key or a bearer token', async () => {
    expect((await api.post('/commute/advice', { home: HOME, work: WORK })).status).toBe(401);
  });

  it('refuses missing points and a bad arriveBy with 400', async () => {
    const missing = await api.post('/commute/advice', { home: HOME }, token);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_ERROR');
    const badTime = await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: '25:00' }, token);
    expect(badTime.status).toBe(400);
    expect(JSON.stringify(badTime.body.message)).toMatch(/HH:MM/);
    expect((await api.post('/commute/advice', { home: HOME, work: WORK, bufferMin: -1 }, token)).status).toBe(400);
  });

  it('without learned traffic answers free flow with basedOnHistory false, on track for a distant arrival', async () => {
    const response = await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: '09:00' }, token);
    expect(response.status).toBe(201);
    const advice = response.body;
    expect(advice).toMatchObject({ provider: 'svc-commute', available: true, basedOnHistory: false, segmentsSampled: 0, congestion: 'unknown', arriveBy: '09:00', bufferMin: 5, status: 'on_track' });
    expect(advice.distanceKm).toBeGreaterThan(1);
    expect(advice.freeFlowEtaMin).toBeGreaterThan(0);
    expect(advice.trafficEtaMin).toBe(advice.freeFlowEtaMin);
    expect(advice.delayMin).toBe(0);
    // arrival is 09:00 on the injected Monday; departure = arrival − buffer − traffic ETA
    expect(Date.parse(advice.arriveAt)).toBe(MONDAY_7 + 2 * 3_600_000);
    expect(Math.abs(minutesBetween(advice.recommendedDepartAt, advice.arriveAt) - (advice.trafficEtaMin + 5))).toBeLessThan(1);
    expect(advice.recommendedDepart).toMatch(HHMM);
    expect(advice.leaveInMin).toBeGreaterThan(15);
    expect(Math.abs(advice.leaveInMin - (120 - 5 - advice.trafficEtaMin))).toBeLessThanOrEqual(2);
    expect(advice.message).toMatch(/free-flow estimate/);
    const window = advice.bestDepartureWindow;
    expect(window.from).toMatch(HHMM);
    expect(window.to).toMatch(HHMM);
    expect(window.from <= window.to).toBe(true);
    expect(window.to <= advice.recommendedDepart).toBe(true);
    expect(window.trafficEtaMin).toBe(advice.trafficEtaMin);
  });

  it('says leave_soon within 15 minutes of the departure and leave_now once it has come', async () => {
    const probe = (await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: '09:00' }, token)).body;
    const eta = probe.trafficEtaMin as number;
    // departure about 8 minutes after the server's 07:00
    const soon = await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: hhmm(7 * 60 + 8 + eta + 5), bufferMin: 5 }, token);
    expect(soon.body.status).toBe('leave_soon');
    expect(soon.body.leaveInMin).toBeGreaterThan(0);
    expect(soon.body.leaveInMin).toBeLessThanOrEqual(15);
    // the departure passed 3 minutes ago, the arrival is still ahead
    const late = await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: hhmm(7 * 60 + eta + 2), bufferMin: 5 }, token);
    expect(late.body).toMatchObject({ status: 'leave_now', leaveInMin: 0 });
    expect(late.body.message).toMatch(/^Leave now/);
  });

  it('without arriveBy advises leaving now', async () => {
    const response = await api.post('/commute/advice', { home: HOME, work: WORK, bufferMin: 0 }, token);
    expect(response.body).toMatchObject({ status: 'leave_now', leaveInMin: 0, available: true });
    expect(Math.abs(minutesBetween(new Date(MONDAY_7).toISOString(), response.body.recommendedDepartAt))).toBeLessThan(2);
  });

  it('answers available:false when no road joins home and work', async () => {
    const response = await api.post('/commute/advice', { home: HOME, work: { lat: 48.85, lng: 2.35 } }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-commute', available: false });
  });
});

describe('/me/commutes', () => {
  it('saves a commute with the working days of its country and scopes every id to its owner', async () => {
    expect((await api.get('/me/commutes')).status).toBe(401);
    const jordan = await api.post('/me/commutes', { home: HOME, work: WORK, arriveBy: '08:30' }, token);
    expect(jordan.status).toBe(201);
    // Jordan's weekend is Friday and Saturday
    expect(jordan.body).toMatchObject({ country: 'JO', weekdays: [0, 1, 2, 3, 4], bufferMin: 5, costing: 'auto', alertsEnabled: true, arriveBy: '08:30' });
    const emirates = await api.post('/me/commutes', { name: 'Dubai office', home: HOME, work: WORK, arriveBy: '09:00', country: 'AE' }, token);
    expect(emirates.body.weekdays).toEqual([1, 2, 3, 4, 5]);

    const changed = await api.patch(`/me/commutes/${jordan.body.id}`, { arriveBy: '08:45', weekdays: [4, 0] }, token);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ arriveBy: '08:45', weekdays: [0, 4], name: 'Commute' });
    expect((await api.patch(`/me/commutes/${jordan.body.id}`, { weekdays: [] }, token)).status).toBe(400);
    expect((await api.post('/me/commutes', { home: HOME, work: WORK, arriveBy: '8:30' }, token)).status).toBe(400);

    const advice = await api.get(`/me/commutes/${jordan.body.id}/advice`, token);
    expect(advice.body).toMatchObject({ commuteId: jordan.body.id, provider: 'svc-commute', arriveBy: '08:45' });

    const other = (await registerUser(api, 'commute-other')).token;
    expect((await api.get(`/me/commutes/${jordan.body.id}`, other)).status).toBe(404);
    expect((await api.patch(`/me/commutes/${jordan.body.id}`, { name: 'x' }, other)).status).toBe(404);
    expect((await api.delete(`/me/commutes/${jordan.body.id}`, other)).status).toBe(404);
    expect((await api.get('/me/commutes', other)).body.count).toBe(0);

    const listed = await api.get('/me/commutes', token);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([jordan.body.id, emirates.body.id]);
    expect((await api.delete(`/me/commutes/${emirates.body.id}`, token)).status).toBe(200);
    expect((await api.get(`/me/commutes/${emirates.body.id}`, token)).status).toBe(404);
  });
});

function hhmm(minuteOfDay: number): string {
  return `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
}

describe('leave-now alerts', () => {
  const cluster = usingRealServices ? useServerCluster('commute_alerts', 'commute-alerts-jwt-secret-0123456789abcdef') : undefined;
  const started: ServerProcess[] = [];
  afterAll(async () => {
    if (!cluster) for (const process of started) await process.stop();
  });

  it('fires commute_leave_now once, at the departure moment, however many processes tick', async () => {
    // the corridor's lead (buffer + ETA) from the advice server; without history it does not depend on the time
    const probe = (await api.post('/commute/advice', { home: HOME, work: WORK, arriveBy: '07:30', bufferMin: 5 }, token)).body;
    const leadMs = Date.parse(probe.arriveAt) - Date.parse(probe.recommendedDepartAt);
    const arrival = nextMondayAt(7 * 60 + 30);
    // the servers' clocks reach the departure 25 s after this line
    const fireAtRealMs = Date.now() + 25_000;
    const offset = arrival - leadMs - fireAtRealMs;
    const env = { COMMUTE_CLOCK_OFFSET_MS: String(offset), COMMUTE_ALERT_INTERVAL_MS: '150' };
    const processes = cluster ? await Promise.all([cluster.start(env), cluster.start(env)]) : [await startServerProcess(env)];
    if (!cluster) started.push(...processes);
    expect(processes.length).toBe(usingRealServices ? 2 : 1);
    const a = apiClient(processes[0]!.baseUrl);
    const user = await registerUser(a, 'commuter');
    const saved = await a.post('/me/commutes', { name: 'To work', home: HOME, work: WORK, arriveBy: '07:30', bufferMin: 5 }, user.token);
    expect(saved.status).toBe(201);
    // a commute due hours later must not fire
    await a.post('/me/commutes', { name: 'Later', home: HOME, work: WORK, arriveBy: '11:00', bufferMin: 5 }, user.token);

    const inbox = async () => (await apiClient(processes[processes.length - 1]!.baseUrl).get('/me/notifications?type=commute_leave_now', user.token)).body;
    if (Date.now() < fireAtRealMs - 3_000) expect((await inbox()).total).toBe(0);
    let seen: any;
    for (const deadline = Math.max(fireAtRealMs, Date.now()) + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      seen = await inbox();
      if (seen.total > 0) break;
    }
    expect(seen.total, processes.flatMap((process) => process.output.filter((line) => /commute|error/i.test(line))).join('\n')).toBe(1);
    const item = seen.items[0];
    expect(Date.parse(item.createdAt)).toBeGreaterThanOrEqual(fireAtRealMs - 1_000);
    // several more ticks of every process
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await inbox();
    expect(after.total).toBe(1);
    expect(item).toMatchObject({ type: 'commute_leave_now', isRead: false, data: { commuteId: saved.body.id, minutesBefore: probe.trafficEtaMin + 5 } });
    expect(item.title).toMatch(/To work/);
  }, 120_000);
});
