/**
 * `npm run bench -- navigation-fix-path`: CPU per fix of the stream's fix path inside one process — the message
 * bytes decoded as the socket decodes them, the session actor (tracking, events, the draft and its adoption), the
 * stream delivery writing the frame text — for one or more builds loaded side by side, in alternating rounds
 * (A B B A …) in this one process. What the socket load scenario cannot separate on a shared machine: its
 * server CPU per fix moves ±20 % with the machine's load, this process's CPU per round far less, and both builds
 * meet the same load in turn.
 *
 * Left out, the same in every build: the socket itself (a fake that keeps the text), quotas and the access gate,
 * the bus hop, the durable write (an immediate `true`). So this is the part of a fix's CPU the code around the
 * actor decides, not all of it (docs/benchmarks.md, navigation).
 *
 * NAV_FIX_BUILDS=dist-base,dist compares a reference build's dist directory with this one (paths from the repository
 * root; default `dist`); NAV_FIX_SESSIONS (default 200), NAV_FIX_ROUNDS (default 3 A B B A cycles).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import polyline from '@mapbox/polyline';
import { conditions, round } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILDS = (process.env.NAV_FIX_BUILDS ?? 'dist').split(',');
const SESSIONS = Number(process.env.NAV_FIX_SESSIONS ?? 200);
const CYCLES = Number(process.env.NAV_FIX_ROUNDS ?? 3);
const STEP_METERS = 10;

interface Build {
  name: string;
  NavigationSessionActor: any;
  newSessionRecord: any;
  StreamDelivery: any;
  decodeClientMessage: any;
  clientMessageSchema: any;
  hot: ((raw: unknown) => unknown) | undefined;
}

async function loadBuild(name: string): Promise<Build> {
  const from = (path: string) => import(`${ROOT}${name}/${path}`);
  const actor = await from('actors/navigation-session/navigation-session-actor.js');
  const machine = await from('actors/navigation-session/session-machine.js');
  const delivery = await from('edge/ws/stream-delivery.js');
  const handshake = await from('edge/ws/stream-handshake.js');
  const protocol = await from('edge/ws/stream-protocol.js');
  // the hot fix check is wired in by the stream endpoint of the builds that have it
  const hot = await from('edge/ws/hot-fix-message.js').then((module) => module.decodeHotFixMessage, () => undefined);
  return {
    name,
    NavigationSessionActor: actor.NavigationSessionActor,
    newSessionRecord: machine.newSessionRecord,
    StreamDelivery: delivery.StreamDelivery,
    decodeClientMessage: handshake.decodeClientMessage,
    clientMessageSchema: protocol.clientMessageSchema,
    hot,
  };
}

/** The real route (and plan) the replay test recorded: a drive across Nasr City. */
function recordedSession(): any {
  const text = gunzipSync(readFileSync(`${ROOT}test/fixtures/navigation-replay/nasr-city-en.ndjson.gz`)).toString('utf8');
  const ready = JSON.parse(text.slice('frame '.length, text.indexOf('\n')));
  return ready.session;
}

/** Fix messages every STEP_METERS along the shape, as a client's bytes (with a little seeded sideways noise). */
function fixMessages(shape: string): ArrayBuffer[] {
  const points = polyline.decode(shape, 6) as [number, number][];
  const along = [0];
  for (let index = 1; index < points.length; index++) {
    const [lat1, lng1] = points[index - 1]!;
    const [lat2, lng2] = points[index]!;
    along.push(along[index - 1]! + Math.hypot((lat2 - lat1) * 111_195, (lng2 - lng1) * 111_195 * Math.cos((lat1 * Math.PI) / 180)));
  }
  let seed = 31;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff - 0.5) * 0.00004;
  const messages: ArrayBuffer[] = [];
  let segment = 0;
  for (let meters = 0; meters < along[along.length - 1]!; meters += STEP_METERS) {
    while (along[segment + 1]! < meters) segment++;
    const [lat1, lng1] = points[segment]!;
    const [lat2, lng2] = points[segment + 1]!;
    const t = (meters - along[segment]!) / Math.max(1e-9, along[segment + 1]! - along[segment]!);
    const lat = round(lat1 + t * (lat2 - lat1) + noise(), 7);
    const lng = round(lng1 + t * (lng2 - lng1) + noise(), 7);
    messages.push(new TextEncoder().encode(`{"type":"fix","fix":{"lat":${lat},"lng":${lng},"speed":10}}`).buffer as ArrayBuffer);
  }
  return messages;
}

/** One round: SESSIONS new sessions, each sent fixes along a third of the route from its own start; answers CPU µs per fix. */
async function runRound(build: Build, session: any, messages: ArrayBuffer[]): Promise<{ microsPerFix: number; fixes: number; bytes: number }> {
  const owner = { kind: 'user', id: 'bench-user' };
  const plan = { origin: session.origin, destination: { lat: session.destination.lat, lng: session.destination.lng }, arrivalPoint: session.arrivalPoint, costing: 'auto', language: 'en-US', preference: 'balanced', avoid: [], corridorMeters: 40, arrivalRadiusMeters: 35 };
  const route = session.route;
  let bytes = 0;
  const streams = Array.from({ length: SESSIONS }, () => {
    const record = build.newSessionRecord({ id: randomUUID(), owner, plan, route, webhookUrl: null, nowMs: Date.now() });
    let delivery: any;
    const actor = new build.NavigationSessionActor(record, {
      planRoute: async () => route,
      persist: async () => true,
      publish: (_id: string, frames: unknown[]) => delivery.offer(frames),
      now: Date.now,
    });
    const socket = { send: (text: string) => ((bytes += text.length), 1), bufferedAmount: () => 0, end: () => undefined };
    delivery = new build.StreamDelivery(socket, 0, { highWaterBytes: 256 * 1024, maxQueuedFrames: 10_000, eventsAfter: async () => [] });
    return { actor, delivery };
  });
  for (const { delivery } of streams) await delivery.start({ type: 'ready' });
  const perSession = Math.floor(messages.length / 3);
  const started = process.cpuUsage();
  let fixes = 0;
  for (let step = 0; step < perSession; step++) {
    // every session's fix of this second, all in flight together as the sockets deliver them
    await Promise.all(
      streams.map(({ actor }, index) => {
        const decoded = build.decodeClientMessage(messages[((index * 7) % perSession) + step]!, build.clientMessageSchema, build.hot);
        if (!decoded.ok) throw decoded.error;
        fixes++;
        return actor.handle({ op: 'fixes', fixes: [decoded.message.fix], answer: 'ack', caller: owner, commandId: randomUUID() });
      }),
    );
  }
  const used = process.cpuUsage(started);
  return { microsPerFix: (used.user + used.system) / fixes, fixes, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runNavigationFixPathBenchmark(): Promise<void> {
  const builds = await Promise.all(BUILDS.map(loadBuild));
  const session = recordedSession();
  const messages = fixMessages(session.route.shape);
  console.log(
    conditions({
      scenario: `stream fix path in-process: ${SESSIONS} sessions on a recorded Nasr City route (${round(session.route.distanceMeters / 1000, 2)} km), one-fix messages every ${STEP_METERS} m, decode → actor → delivery (fake socket, immediate durable write)`,
      builds: BUILDS.join(' vs '),
      order: `a warm-up round each, then ${CYCLES} cycles of ${BUILDS.length > 1 ? 'A B B A' : 'A'}; CPU is this process's (process.cpuUsage)`,
    }),
  );
  for (const build of builds) await runRound(build, session, messages);
  const order = builds.length > 1 ? [builds[0]!, builds[1]!, builds[1]!, builds[0]!] : builds;
  const results = new Map<string, number[]>(builds.map((build) => [build.name, []]));
  const loads: number[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    for (const build of order) {
      results.get(build.name)!.push((await runRound(build, session, messages)).microsPerFix);
      loads.push(loadavg()[0]!);
    }
  }
  console.log('build,rounds,cpu_us_per_fix_median,cpu_us_per_fix_min,cpu_us_per_fix_max,vs_first_build_pct,load_avg_1m_range');
  const reference = median(results.get(builds[0]!.name)!);
  for (const build of builds) {
    const values = results.get(build.name)!;
    const middle = median(values);
    console.log([build.name, values.length, round(middle, 2), round(Math.min(...values), 2), round(Math.max(...values), 2), round(((middle - reference) / reference) * 100, 1), `${round(Math.min(...loads), 1)}–${round(Math.max(...loads), 1)}`].join(','));
  }
}
