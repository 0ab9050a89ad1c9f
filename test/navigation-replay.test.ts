/**
 * A recorded drive replayed through the stream's fix path — message bytes decoded as the socket decodes them,
 * the session actor, the writes it makes durable, the stream's delivery — must give byte for byte the frames and
 * writes recorded from the build before the per-fix CPU work of issue 31 (base 7f3336f): the hot fix check, the
 * progress frame template and anything later on that path may change what it costs, never what it says.
 *
 * Two drives on real Nasr City routes (one in English, one in Arabic), a fix a second with seeded noise, some
 * messages with an id (acked) or `capturedAt` or several fixes, a resent fix, a detour (off route, re-plan) and
 * arrival. The clock is the test's, so times are fixed too.
 *
 * Recording (only when the expected behaviour changes on purpose): REPLAY_RECORD=1 npx vitest run
 * test/navigation-replay.test.ts writes test/fixtures/navigation-replay/*.ndjson.gz.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { NavigationSessionActor, type SessionActorDeps } from '../src/actors/navigation-session/navigation-session-actor.js';
import { newSessionRecord } from '../src/actors/navigation-session/session-machine.js';
import type { SessionCommandBody } from '../src/actors/navigation-session/session-protocol.js';
import type { MapPack } from '../src/datapack/map-pack.js';
import type { NavigationRoute } from '../src/domain/navigation-route.js';
import type { LatLng, SessionPlan } from '../src/domain/navigation-session.js';
import { decodeHotFixMessage } from '../src/edge/ws/hot-fix-message.js';
import { StreamDelivery, type FrameSocket } from '../src/edge/ws/stream-delivery.js';
import { decodeClientMessage } from '../src/edge/ws/stream-handshake.js';
import { ackFrame, clientMessageSchema, readyFrame } from '../src/edge/ws/stream-protocol.js';
import { EARTH_RADIUS_M } from '../src/solvers/graph/geodesy.js';
import { RouteLine } from '../src/solvers/navigation/route-line.js';
import { buildTrip } from '../src/solvers/routing/guidance/trip.js';
import { navigationRoute } from '../src/solvers/routing/guidance/navigation-view.js';
import { RoutingEngine } from '../src/solvers/routing/routing-engine.js';
import { routingPack } from './support/routing-packs.js';

const FIXTURES = new URL('./fixtures/navigation-replay/', import.meta.url);
const RECORD = process.env.REPLAY_RECORD === '1';
const RAD = Math.PI / 180;

let pack: MapPack;
beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 120_000);

/** Seeded uniform numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plan(from: LatLng, to: LatLng, language: string): NavigationRoute {
  const engine = new RoutingEngine(pack);
  const result = engine.route({ metric: { costing: 'auto', preference: 'balanced', avoid: [] }, locations: [{ lat: from.lat, lon: from.lng }, { lat: to.lat, lon: to.lng }] });
  if (!result.ok) throw new Error(`no route: ${result.code}`);
  return navigationRoute(buildTrip(pack, result.legs, { costing: 'auto', language }));
}

/** The drive's client messages as the bytes a client sends: a fix a second along `route`, 4 m noise, a detour in the middle. */
function driveMessages(route: NavigationRoute, seed: number, startMs: number): string[] {
  const line = RouteLine.fromShape(route.shape, { maneuvers: route.maneuvers, baseSeconds: route.etaSeconds })!;
  const next = random(seed);
  const noise = () => (next() - 0.5) * 8;
  const speed = 11;
  const fixes: Record<string, unknown>[] = [];
  let detourLeft = 0;
  for (let meters = 0, second = 0; meters <= line.lengthMeters + 20; meters += speed, second++) {
    const along = Math.min(meters, line.lengthMeters);
    const segment = line.segmentAt(along);
    const start = line.along[segment]!;
    const t = (along - start) / Math.max(1e-9, line.along[segment + 1]! - start);
    let lat = line.lat[segment]! + t * (line.lat[segment + 1]! - line.lat[segment]!) + noise() / (EARTH_RADIUS_M * RAD);
    let lng = line.lng[segment]! + t * (line.lng[segment + 1]! - line.lng[segment]!) + noise() / (EARTH_RADIUS_M * RAD * Math.cos(lat * RAD));
    if (second === 60) detourLeft = 6;
    if (detourLeft > 0) {
      // a few fixes well off the route: off_route on the second, then a re-plan from there
      const away = 200 + (6 - detourLeft) * 40;
      lat += away / (EARTH_RADIUS_M * RAD);
      lng += away / (EARTH_RADIUS_M * RAD * Math.cos(lat * RAD));
      detourLeft--;
    }
    const fix: Record<string, unknown> = { lat: Math.round(lat * 1e7) / 1e7, lng: Math.round(lng * 1e7) / 1e7 };
    if (second % 3 !== 0) fix.speed = speed;
    if (second % 4 === 1) fix.heading = Math.round(line.project(segment, lat, lng).bearing * 10) / 10;
    if (second % 5 === 2) fix.accuracy = 6;
    if (second % 17 === 5) fix.capturedAt = new Date(startMs + second * 1000).toISOString();
    fixes.push(fix);
  }
  const messages: string[] = [];
  for (let index = 0; index < fixes.length; index++) {
    const fix = fixes[index]!;
    if (index % 23 === 7 && index + 2 < fixes.length) {
      messages.push(JSON.stringify({ type: 'fixes', fixes: [fix, fixes[index + 1], fixes[index + 2]], id: `batch-${index}` }));
      index += 2;
    } else if (index % 11 === 3) messages.push(JSON.stringify({ type: 'fix', fix, id: `m-${index}` }));
    else messages.push(JSON.stringify({ type: 'fix', fix }));
    // a resent fix with a device time: skipped, as the client's retry after a reconnect would be
    if (fix.capturedAt !== undefined) messages.push(JSON.stringify({ type: 'fix', fix, id: `resent-${index}` }));
  }
  // and messages the stream refuses: the same error frames before and after
  messages.push('{"type":"fix","fix":{"lat":95,"lng":31.3}}', '{"type":"fix","fix":{"lat":30.06,"lng":31.33,"speed":-1},"id":"bad"}', 'not json');
  return messages;
}

/** Replays `messages` on a new session with a stream from its start; answers every frame and write, one JSON text a line. */
async function replay(from: LatLng, to: LatLng, language: string, seed: number): Promise<string[]> {
  const startMs = Date.parse('2026-11-27T08:00:00Z');
  let now = startMs;
  const log: string[] = [];
  const socket: FrameSocket = { send: (text) => (log.push(`frame ${text}`), 1), bufferedAmount: () => 0, end: (code, reason) => log.push(`end ${code} ${reason}`) };
  const sessionPlan: SessionPlan = { origin: from, destination: to, arrivalPoint: { ...to, source: 'destination' }, costing: 'auto', language, preference: 'balanced', avoid: [], corridorMeters: 40, arrivalRadiusMeters: 35 };
  const route = plan(from, to, language);
  const record = newSessionRecord({ id: '2f9c1e7a-4b3d-4e8f-9a10-5c6d7e8f9a0b', owner: { kind: 'user', id: 'replay-user' }, plan: sessionPlan, route, webhookUrl: null, nowMs: now });
  let delivery: StreamDelivery | undefined;
  const deps: SessionActorDeps = {
    planRoute: async (position, current) => plan(position, current.arrivalPoint, current.language),
    persist: async (write) => (log.push(`write ${JSON.stringify(write)}`), true),
    publish: (_id, frames) => delivery!.offer(frames),
    now: () => now,
  };
  const actor = new NavigationSessionActor(record, deps);
  let commands = 0;
  const send = <B extends SessionCommandBody>(body: B) => actor.handle({ ...body, caller: { kind: 'user', id: 'replay-user' }, commandId: `command-${++commands}` });
  delivery = new StreamDelivery(socket, 0, { highWaterBytes: 1 << 20, maxQueuedFrames: 1 << 20, eventsAfter: async (since) => (await send({ op: 'events', since })).events });
  await delivery.start(readyFrame(await send({ op: 'get' }), 0));
  for (const text of driveMessages(route, seed, startMs)) {
    now += 1000;
    const decoded = decodeClientMessage(new TextEncoder().encode(text).buffer as ArrayBuffer, clientMessageSchema, decodeHotFixMessage);
    if (!decoded.ok) {
      log.push(`refused ${JSON.stringify({ id: decoded.id, code: decoded.error.code, messages: decoded.error.messages })}`);
      continue;
    }
    const message = decoded.message;
    if (message.type !== 'fix' && message.type !== 'fixes') continue;
    try {
      const answer = await send({ op: 'fixes', fixes: message.type === 'fix' ? [message.fix] : message.fixes, answer: 'ack' });
      if (message.id) delivery.sendControl(ackFrame(message.id, answer));
    } catch (error) {
      log.push(`failed ${String((error as { code?: string }).code ?? error)}`);
    }
  }
  await send({ op: 'get' });
  log.push(`events ${JSON.stringify(await send({ op: 'events', since: 0 }))}`);
  return log;
}

const DRIVES = [
  { name: 'nasr-city-en', from: { lat: 30.0626, lng: 31.3219 }, to: { lat: 30.07, lng: 31.34 }, language: 'en-US', seed: 31 },
  { name: 'nasr-city-ar', from: { lat: 30.0512, lng: 31.3402 }, to: { lat: 30.0795, lng: 31.3292 }, language: 'ar-EG', seed: 7 },
];

describe('navigation stream replay', () => {
  it.each(DRIVES)('gives the recorded frames and writes byte for byte ($name)', async ({ name, from, to, language, seed }) => {
    const lines = await replay(from, to, language, seed);
    // the drive lived what a drive lives, so the comparison covers every kind of frame
    const text = lines.join('\n');
    for (const kind of ['"type":"progress"', '"type":"maneuver_completed"', '"type":"off_route"', '"type":"route"', '"type":"arrived"', '"type":"ack"', '"type":"status"', 'refused ']) expect(text).toContain(kind);
    const file = new URL(`${name}.ndjson.gz`, FIXTURES);
    if (RECORD) {
      mkdirSync(FIXTURES, { recursive: true });
      writeFileSync(file, gzipSync(`${text}\n`, { level: 9 }));
      return;
    }
    expect(existsSync(file), `${file.pathname} missing: record it with REPLAY_RECORD=1`).toBe(true);
    const recorded = gunzipSync(readFileSync(file)).toString('utf8').split('\n').slice(0, -1);
    // line by line first, so a difference names its place
    for (let index = 0; index < Math.max(recorded.length, lines.length); index++) expect(lines[index], `line ${index}`).toBe(recorded[index]);
  }, 120_000);
});
