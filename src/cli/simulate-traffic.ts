/**
 * `npm run simulate-traffic -- [options]`: drives routes on the served graph
 * with the documented speed patterns (src/cli/traffic-simulator.ts) and posts
 * them through the public API (POST /telemetry/trips, `simulated: true`), so
 * the model learns them like any contributed trip. docs/traffic.md
 * "Simulator".
 *
 * Options: --url (default http://127.0.0.1:8080), --token (bearer; or
 * TRAFFIC_SIM_TOKEN) or --api-key (scopes routing + telemetry; or
 * TRAFFIC_SIM_API_KEY), --trips 60, --days 6 (start times spread over the last
 * days; raw fixes older than 7 days are refused), --country EG (whose clock and
 * calendar choose the pattern), --base-kph 50, --iftar-hour 18, --seed 1,
 * --from lat,lng --to lat,lng (default: three routes in Nasr City),
 * --concurrency 4.
 */
import { parseArgs } from 'node:util';
import { CalendarService } from '../services/calendars/calendar-service.js';
import { HijriCalendar } from '../services/calendars/hijri-calendar.js';
import { loadHolidayLibrary } from '../services/calendars/library-holidays.js';
import { AnnouncementBoard } from '../services/calendars/month-start-announcements.js';
import { countryOrJordan } from '../services/traffic/traffic-model.js';
import { defaultPattern, driveTrip, seededRandom, type DayKind } from './traffic-simulator.js';

const DEFAULT_ROUTES: [[number, number], [number, number]][] = [
  [[30.0626, 31.3219], [30.07, 31.34]],
  [[30.0511, 31.3447], [30.0626, 31.3219]],
  [[30.07, 31.34], [30.0511, 31.3447]],
];

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8080' },
    token: { type: 'string' },
    'api-key': { type: 'string' },
    trips: { type: 'string', default: '60' },
    days: { type: 'string', default: '6' },
    country: { type: 'string', default: 'EG' },
    'base-kph': { type: 'string', default: '50' },
    'iftar-hour': { type: 'string', default: '18' },
    seed: { type: 'string', default: '1' },
    from: { type: 'string' },
    to: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
  },
});

const token = values.token ?? process.env.TRAFFIC_SIM_TOKEN;
const apiKey = values['api-key'] ?? process.env.TRAFFIC_SIM_API_KEY;
if (!token && !apiKey) {
  console.error('simulate-traffic: give --token (bearer) or --api-key (scopes routing and telemetry)');
  process.exit(2);
}
const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : { 'x-api-key': apiKey! }) };
const base = `${values.url!.replace(/\/$/, '')}/api/v1`;
const trips = Math.max(1, Math.min(10_000, Number(values.trips)));
const days = Math.max(0.1, Math.min(6.9, Number(values.days)));
const country = countryOrJordan(values.country);
const baseKph = Number(values['base-kph']);
const pattern = defaultPattern(Number(values['iftar-hour']));
const random = seededRandom(Number(values.seed));
const point = (text: string) => {
  const [lat, lng] = text.split(',').map(Number);
  return [lat!, lng!] as [number, number];
};
const routes = values.from && values.to ? [[point(values.from), point(values.to)] as [[number, number], [number, number]]] : DEFAULT_ROUTES;

async function call(method: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const board = new AnnouncementBoard();
const calendars = new CalendarService({ hijri: new HijriCalendar(board), library: await loadHolidayLibrary(), announced: board });
const kindAt = (ms: number): DayKind => {
  const flags = calendars.flags(country, ms);
  if (flags.isRamadan) return 'ramadan';
  return flags.isWeekend || flags.isHoliday ? 'weekend' : 'typical';
};

const shapes: string[] = [];
for (const [from, to] of routes) {
  const routed = await call('POST', '/routing/route', { payload: { locations: [{ lat: from[0], lon: from[1] }, { lat: to[0], lon: to[1] }] }, includeLabels: false });
  if (routed.status >= 300) {
    console.error(`simulate-traffic: routing ${from} → ${to} answered ${routed.status}: ${JSON.stringify(routed.body)}`);
    process.exit(1);
  }
  shapes.push(routed.body.data.trip.legs[0].shape);
}

const now = Date.now();
let next = 0;
let accepted = 0;
let refused = 0;
const byKind: Record<DayKind, number> = { typical: 0, weekend: 0, ramadan: 0 };
const started = performance.now();
await Promise.all(
  Array.from({ length: Math.max(1, Number(values.concurrency)) }, async () => {
    for (;;) {
      const index = next++;
      if (index >= trips) return;
      const startMs = Math.round(now - 3_600_000 - random() * days * 86_400_000);
      const kind = kindAt(startMs);
      const trip = driveTrip(shapes[index % shapes.length]!, { startMs, baseKph, kind, country, pattern, noiseMeters: 3, seed: Number(values.seed) * 100_003 + index });
      const answer = await call('POST', '/telemetry/trips', { fixes: trip.fixes, simulated: true, deviceId: `simulator-${index % 25}` });
      if (answer.status === 202) {
        accepted++;
        byKind[kind]++;
      } else {
        refused++;
        console.error(`trip ${index}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
  }),
);
console.log(JSON.stringify({ simulated: true, accepted, refused, byKind, country, baseKph, seconds: Math.round((performance.now() - started) / 100) / 10 }));
