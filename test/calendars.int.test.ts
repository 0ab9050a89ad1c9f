/**
 * Holidays and Hijri calendars (spec part 2 §2.7, §3, §4.5), black-box against started servers:
 * the five endpoints, every refusal, and an operator's announce → confirm → correct → withdraw
 * of a month start moving Eid, /holidays/upcoming and `estimated`. On the real services a second
 * process of the same deployment follows the change over the bus; on the embedded default the
 * operator role is granted with the CLI between two starts on one data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCli } from './support/admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './support/api-client.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { sharedDeployment, usingRealServices } from './support/services.js';

const servers: ServerProcess[] = [];
let api: ApiClient;
/** A second process of the same deployment (real services only). */
let peer: ApiClient | undefined;
let admin: Awaited<ReturnType<typeof registerUser>>;
let dataDir: string | undefined;

async function call(client: ApiClient, method: 'PUT' | 'GET' | 'DELETE', path: string, body?: unknown, token?: string) {
  const server = client === api ? servers[0]! : servers[1]!;
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  if (usingRealServices) {
    const shared = sharedDeployment('cal');
    const deployment = { ...shared, JWT_SECRET: `calendars-${Date.now()}-0123456789abcdef0123456789` };
    servers.push(await startServerProcess(deployment), await startServerProcess(deployment));
    api = apiClient(servers[0]!.baseUrl);
    peer = apiClient(servers[1]!.baseUrl);
    admin = await registerUser(api, 'calendar-operator');
    expect((await runAdminCli(['grant-role', admin.email, 'admin'], { DATABASE_URL: shared.DATABASE_URL!, DATABASE_SCHEMA: shared.DATABASE_SCHEMA! })).code).toBe(0);
    return;
  }
  // the embedded database is one process's: register, stop, grant with the CLI, start again on the same directory
  dataDir = mkdtempSync(join(tmpdir(), 'calendars-'));
  const first = await startServerProcess({ DATA_DIR: dataDir });
  admin = await registerUser(apiClient(first.baseUrl), 'calendar-operator');
  await first.stop();
  const granted = await runAdminCli(['grant-role', admin.email, 'admin'], { DATA_DIR: dataDir });
  expect(granted.code, granted.stderr).toBe(0);
  servers.push(await startServerProcess({ DATA_DIR: dataDir }));
  api = apiClient(servers[0]!.baseUrl);
}, 120_000);

afterAll(async () => {
  for (const server of servers.reverse()) await server.stop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const expectRefused = (response: { status: number; body: any }, field: string, message: RegExp) => {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR' });
  expect(JSON.stringify(response.body.message)).toContain(field);
  expect(JSON.stringify(response.body.message)).toMatch(message);
};

describe('GET /holidays', () => {
  it('expands recurring holidays within a window, with names in English and Arabic', async () => {
    const response = await api.get('/holidays?country=JO&from=2025-01-01&to=2025-12-31');
    expect(response.status).toBe(200);
    expect(response.body.find((holiday: any) => holiday.name === 'Independence Day')).toEqual({
      id: 'JO-independence-day',
      countryCode: 'JO',
      city: null,
      name: 'Independence Day',
      nameAr: 'عيد الاستقلال',
      type: 'national',
      recurring: true,
      month: 5,
      day: 25,
      date: '2025-05-25',
      affectsBusinessHours: true,
      enabled: true,
    });
    expect(response.body.find((holiday: any) => holiday.name === 'Eid al-Adha')).toMatchObject({ recurring: false, month: null, day: null, date: '2025-06-06', type: 'religious' });
    const dates = response.body.map((holiday: any) => holiday.date);
    expect(dates).toEqual([...dates].sort());
  });

  it('lists the current rules without a window, defaults to Jordan, and narrows to a city', async () => {
    const rules = await api.get('/holidays');
    expect(rules.body.find((holiday: any) => holiday.id === 'JO-new-year')).toMatchObject({ recurring: true, month: 1, day: 1, date: null });
    const iraq = await api.get('/holidays?country=iq&from=2025-03-01&to=2025-03-31');
    expect(new Set(iraq.body.map((holiday: any) => holiday.city))).toEqual(new Set([null, 'Erbil', 'Sulaymaniyah', 'Duhok', 'Halabja']));
    const erbil = await api.get(`/holidays?country=IQ&city=${encodeURIComponent('أربيل')}&from=2025-03-01&to=2025-03-31`);
    expect(new Set(erbil.body.map((holiday: any) => holiday.city))).toEqual(new Set([null, 'Erbil']));
  });

  it('refuses an unknown country, a reversed window, one over 10 years and malformed dates', async () => {
    expectRefused(await api.get('/holidays?country=FR'), 'country', /must be one of JO, SA, AE, QA, KW, BH, OM, EG, LB, PS, IQ, SY, YE, TR, IR/);
    expectRefused(await api.get('/holidays?from=2025-05-01&to=2025-04-01'), 'to', /must not be before from/);
    expectRefused(await api.get('/holidays?from=2020-01-01&to=2031-01-01'), 'to', /at most 10 years/);
    expectRefused(await api.get('/holidays?from=2025-02-30'), 'from', /use YYYY-MM-DD/);
    expectRefused(await api.get('/holidays?to=25-01-01'), 'to', /use YYYY-MM-DD/);
    expectRefused(await api.get('/holidays?from=1800-01-01&to=1800-02-01'), 'from', /must lie within/);
  });
});

describe('GET /holidays/today and /holidays/on', () => {
  it("resolves the instant in the country's own timezone", async () => {
    // 21:30 UTC on 29 March 2025: already Eid al-Fitr (30 March) in Riyadh, not yet in Cairo
    const riyadh = await api.get(`/holidays/today?country=SA&at=${encodeURIComponent('2025-03-29T21:30:00Z')}`);
    expect(riyadh.body).toEqual({ country: 'SA', city: null, holiday: { name: 'Eid al-Fitr', nameAr: 'عيد الفطر', type: 'religious', affectsBusinessHours: true } });
    const cairo = await api.get(`/holidays/today?country=EG&at=${encodeURIComponent('2025-03-29T23:30:00+02:00')}`);
    expect(cairo.body).toEqual({ country: 'EG', city: null, holiday: null });
    expectRefused(await api.get('/holidays/today?at=tomorrow'), 'at', /ISO 8601 instant/);
    expectRefused(await api.get('/holidays/today?at=2025-03-29T21:30:00'), 'at', /ISO 8601 instant/);
  });

  it('answers a date, and a malformed one with isHoliday false and an error', async () => {
    expect((await api.get('/holidays/on?date=2025-05-25&country=JO')).body).toEqual({
      provider: 'svc-holidays',
      country: 'JO',
      date: '2025-05-25',
      isHoliday: true,
      holiday: { name: 'Independence Day', nameAr: 'عيد الاستقلال', type: 'national', affectsBusinessHours: true },
    });
    expect((await api.get('/holidays/on?date=2025-05-26&country=JO')).body).toMatchObject({ isHoliday: false, holiday: null });
    const malformed = await api.get('/holidays/on?date=26/05/2025');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toMatchObject({ provider: 'svc-holidays', country: 'JO', isHoliday: false, holiday: null, error: expect.stringMatching(/YYYY-MM-DD/) });
    expectRefused(await api.get('/holidays/on?date=2025-05-25&country=XX'), 'country', /unknown country/);
  });
});

describe('GET /holidays/hijri and /holidays/upcoming', () => {
  it("gives Saudi Arabia's Umm al-Qura year and each country's method", async () => {
    const saudi = await api.get('/holidays/hijri?country=SA&year=1446');
    expect(saudi.body).toMatchObject({
      provider: 'svc-holidays',
      country: 'SA',
      hijriYear: 1446,
      method: 'umm_al_qura',
      events: { hijriNewYear: '2024-07-07', ramadanStart: '2025-03-01', eidAlFitr: '2025-03-30', arafah: '2025-06-05', eidAlAdha: '2025-06-06' },
    });
    expect(saudi.body.months[8]).toEqual({ month: 9, name: 'Ramadan', nameAr: 'رمضان', start: '2025-03-01', status: 'expected' });
    const methods = await Promise.all(['JO', 'KW', 'EG', 'TR'].map(async (country) => (await api.get(`/holidays/hijri?country=${country}`)).body.method));
    expect(methods).toEqual(['sighting', 'follows', 'calculation', 'ihcu']);
    expectRefused(await api.get('/holidays/hijri?year=1600'), 'year', /from 1344 to 1499/);
  });

  it('lists upcoming holidays soonest first, Hijri ones marked estimated', async () => {
    const upcoming = await api.get('/holidays/upcoming?country=JO&days=366');
    expect(upcoming.body).toMatchObject({ provider: 'svc-holidays', country: 'JO', days: 366 });
    expect(upcoming.body.count).toBe(upcoming.body.holidays.length);
    const until = upcoming.body.holidays.map((holiday: any) => holiday.daysUntil);
    expect(until).toEqual([...until].sort((a: number, b: number) => a - b));
    expect(upcoming.body.holidays.find((holiday: any) => holiday.name === 'Eid al-Fitr')).toMatchObject({ estimated: true, city: null });
    expect(upcoming.body.holidays.find((holiday: any) => holiday.name === 'Independence Day')).not.toHaveProperty('estimated');
    expectRefused(await api.get('/holidays/upcoming?days=0'), 'days', /whole number from 1/);
  });
});

describe('operator month starts', () => {
  /** The next Shawwal 1 of Jordan, and its Hijri year. */
  async function nextShawwal() {
    const today = (await api.get('/holidays/upcoming?country=JO&days=1')).body.from as string;
    let year = (await api.get('/holidays/hijri?country=JO')).body;
    if (year.months[9].start <= today) year = (await api.get(`/holidays/hijri?country=JO&year=${year.hijriYear + 1}`)).body;
    return { hijriYear: year.hijriYear as number, start: year.months[9].start as string };
  }
  const shiftDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const eidIn = async (client: ApiClient) => (await client.get('/holidays/upcoming?country=JO&days=366')).body.holidays.find((holiday: any) => holiday.name === 'Eid al-Fitr');

  it('refuses anonymous callers, non-admins and implausible starts', async () => {
    const { hijriYear, start } = await nextShawwal();
    const path = `/admin/calendars/JO/hijri/${hijriYear}/10`;
    expect((await call(api, 'PUT', path, { start, status: 'announced' })).status).toBe(401);
    const user = await registerUser(api);
    expect((await call(api, 'PUT', path, { start, status: 'announced' }, user.token)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    const far = await call(api, 'PUT', path, { start: shiftDays(start, 5), status: 'announced' }, admin.token);
    expect(far.body).toMatchObject({ statusCode: 400, code: 'MONTH_START_IMPLAUSIBLE', details: { computed: start } });
    expect((await call(api, 'PUT', path, { start, status: 'rumoured' }, admin.token)).body.code).toBe('VALIDATION_ERROR');
    expect((await call(api, 'PUT', `/admin/calendars/JO/hijri/${hijriYear}/13`, { start, status: 'announced' }, admin.token)).body.code).toBe('VALIDATION_ERROR');
    expect((await call(api, 'DELETE', path, undefined, admin.token)).status).toBe(404);
  });

  it('announce → confirm → correct → withdraw moves Eid, upcoming and estimated (on every process)', async () => {
    const { hijriYear, start } = await nextShawwal();
    const path = `/admin/calendars/JO/hijri/${hijriYear}/10`;
    const later = shiftDays(start, 1);
    expect(await eidIn(api)).toMatchObject({ date: start, estimated: true });

    const announced = await call(api, 'PUT', path, { start: later, status: 'announced', note: 'Iftaa statement' }, admin.token);
    expect(announced.status).toBe(200);
    expect(announced.body).toMatchObject({
      month: { country: 'JO', hijriYear, hijriMonth: 10, start: later, status: 'announced', computed: start },
      record: { status: 'announced', startDate: later, actorId: admin.userId, note: 'Iftaa statement' },
    });
    expect(await eidIn(api)).toMatchObject({ date: later, estimated: false });
    expect((await api.get(`/holidays/hijri?country=JO&year=${hijriYear}`)).body).toMatchObject({ events: { eidAlFitr: later } });
    expect((await api.get(`/holidays/on?country=JO&date=${later}`)).body.holiday).toMatchObject({ name: 'Eid al-Fitr' });
    expect((await api.get(`/holidays/on?country=JO&date=${start}`)).body.holiday?.name).not.toBe('Eid al-Fitr');
    if (peer) {
      // the other process follows over the bus (within seconds; the periodic re-read bounds it at 30 s)
      const deadline = Date.now() + 10_000;
      while ((await eidIn(peer))?.date !== later && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await eidIn(peer)).toMatchObject({ date: later, estimated: false });
    }

    await call(api, 'PUT', path, { start: later, status: 'confirmed' }, admin.token);
    expect((await api.get(`/holidays/hijri?country=JO&year=${hijriYear}`)).body.months[9]).toMatchObject({ start: later, status: 'confirmed' });
    const corrected = await call(api, 'PUT', path, { start, status: 'confirmed', note: 'corrected' }, admin.token);
    expect(corrected.body.month).toMatchObject({ start, status: 'confirmed' });
    expect(await eidIn(api)).toMatchObject({ date: start, estimated: false });

    const withdrawn = await call(api, 'DELETE', path, undefined, admin.token);
    expect(withdrawn.body).toMatchObject({ month: { start, status: 'expected' }, record: { status: 'withdrawn' } });
    expect(await eidIn(api)).toMatchObject({ date: start, estimated: true });

    const history = await call(api, 'GET', `/admin/calendars/JO/hijri/${hijriYear}`, undefined, admin.token);
    expect(history.body.months).toHaveLength(12);
    expect(history.body.history.map((row: any) => [row.status, row.startDate, row.actorId])).toEqual([
      ['announced', later, admin.userId],
      ['confirmed', later, admin.userId],
      ['confirmed', start, admin.userId],
      ['withdrawn', start, admin.userId],
    ]);
    if (peer) {
      const deadline = Date.now() + 10_000;
      while ((await eidIn(peer))?.estimated !== true && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await eidIn(peer)).toMatchObject({ date: start, estimated: true });
    }
  });
});

describe('OpenAPI', () => {
  it('documents the holiday and month-start endpoints', async () => {
    const response = await fetch(`${servers[0]!.baseUrl}/api/v1/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, Record<string, any>> };
    for (const path of ['/holidays', '/holidays/today', '/holidays/on', '/holidays/upcoming', '/holidays/hijri']) expect(document.paths[`/api/v1${path}`]?.get, path).toBeDefined();
    expect(document.paths['/api/v1/admin/calendars/{country}/hijri/{year}/{month}']?.put).toBeDefined();
  });
});
