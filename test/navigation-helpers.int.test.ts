/**
 * The navigation helpers that plan, check arrival and prepare speech, over
 * HTTP against a started server, on the shipped Nasr City data:
 * POST /navigation/recalculate, /navigation/arrival-check, /navigation/speak.
 */
import polyline from '@mapbox/polyline';
import { SaxesParser } from 'saxes';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;
let token: string;

beforeAll(async () => {
  token = (await registerUser(api, 'navhelpers')).token;
});

const RAD = Math.PI / 180;
function bearing([lat1, lng1]: [number, number], [lat2, lng2]: [number, number]): number {
  const y = Math.sin((lng2 - lng1) * RAD) * Math.cos(lat2 * RAD);
  const x = Math.cos(lat1 * RAD) * Math.sin(lat2 * RAD) - Math.sin(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.cos((lng2 - lng1) * RAD);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}
const angle = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);
function meters([lat1, lng1]: [number, number], [lat2, lng2]: [number, number]): number {
  const a = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

/** Bearing of the route's first 30 m: the direction it leaves in. */
function departureBearing(shape: string): number {
  const points = polyline.decode(shape, 6) as [number, number][];
  const ahead = points.find((point) => meters(points[0]!, point) >= 30) ?? points[points.length - 1]!;
  return bearing(points[0]!, ahead);
}

// Abd Al Aziz Eissa Street: a two-way street running east–west; the destination lies 480 m east on it.
const EISSA_MIDDLE = { lat: 30.05575, lng: 31.364 };
const EISSA_EAST = { lat: 30.05627, lng: 31.369 };
// Youssef Abbas Street: two-way, north–south.
const YOUSSEF_ABBAS = { lat: 30.057734, lng: 31.32409 };
const AL_TAMEN_NORTH = { lat: 30.0637, lng: 31.3215 };

describe('POST /navigation/recalculate', () => {
  it('plans a route from the current position that leads to the destination, with navigation maneuvers', async () => {
    const response = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-navigation', sessionId: null, costing: 'auto', preference: 'balanced' });
    const { route } = response.body;
    const points = polyline.decode(route.shape, 6) as [number, number][];
    expect(meters(points[0]!, [EISSA_MIDDLE.lat, EISSA_MIDDLE.lng])).toBeLessThan(15);
    expect(meters(points[points.length - 1]!, [EISSA_EAST.lat, EISSA_EAST.lng])).toBeLessThan(15);
    expect(route.distanceMeters).toBeGreaterThan(400);
    expect(route.distanceMeters).toBeLessThan(600);
    expect(route.etaSeconds).toBeGreaterThan(0);
    expect(route.maneuvers[0]).toMatchObject({ index: 0, type: 1, cumulativeMeters: 0 });
    expect(route.maneuvers[0].verbalAlert).toMatch(/Abd Al Aziz Eissa Street/);
    expect(route.maneuvers[route.maneuvers.length - 1].type).toBeGreaterThanOrEqual(4);
    expect(route.maneuvers[route.maneuvers.length - 1].type).toBeLessThanOrEqual(6);
  });

  it('leaves in the direction of travel when a heading is given, never with a U-turn on the spot', async () => {
    const plan = async (from: { lat: number; lng: number }, to: { lat: number; lng: number }, heading?: number) =>
      (await api.post('/navigation/recalculate', { current: from, destination: to, ...(heading === undefined ? {} : { heading }) }, token)).body.route;
    const westbound = await plan(EISSA_MIDDLE, EISSA_EAST, 264);
    const eastbound = await plan(EISSA_MIDDLE, EISSA_EAST, 84);
    expect(angle(departureBearing(westbound.shape), 264)).toBeLessThan(45);
    expect(angle(departureBearing(eastbound.shape), 84)).toBeLessThan(45);
    // heading away from the destination costs a detour, and still arrives there
    expect(westbound.distanceMeters).toBeGreaterThan(eastbound.distanceMeters + 200);
    const end = polyline.decode(westbound.shape, 6).at(-1) as [number, number];
    expect(meters(end, [EISSA_EAST.lat, EISSA_EAST.lng])).toBeLessThan(15);

    const southbound = await plan(YOUSSEF_ABBAS, AL_TAMEN_NORTH, 172);
    const northbound = await plan(YOUSSEF_ABBAS, AL_TAMEN_NORTH, 352);
    expect(angle(departureBearing(southbound.shape), 172)).toBeLessThan(45);
    expect(angle(departureBearing(northbound.shape), 352)).toBeLessThan(45);
  });

  it('narrates in the language asked for and takes the costing, preference and avoidances', async () => {
    const response = await api.post(
      '/navigation/recalculate',
      { current: EISSA_MIDDLE, destination: EISSA_EAST, costing: 'pedestrian', preference: 'shortest', avoid: ['unpaved', 'unpaved'], language: 'ar-EG' },
      token,
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ costing: 'pedestrian', preference: 'shortest' });
    expect(response.body.route.maneuvers[0].instruction).toMatch(/[\u0600-\u06FF]/);
  });

  it('refuses bad input with 400s: no destination without a session, unknown costing, truck without truck data', async () => {
    const missing = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE }, token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(['destination: required when no sessionId is given']);
    const costing = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST, costing: 'hovercraft' }, token);
    expect(costing.status).toBe(400);
    expect(costing.body.message[0]).toMatch(/^costing: must be one of auto, pedestrian, bicycle, motor_scooter, truck, wheelchair/);
    const truck = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST, costing: 'truck' }, token);
    expect(truck.status).toBe(400);
    expect(truck.body.code).toBe('COSTING_UNAVAILABLE');
    const avoid = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST, avoid: ['potholes'] }, token);
    expect(avoid.status).toBe(400);
    const heading = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST, heading: 361 }, token);
    expect(heading.status).toBe(400);
    const far = await api.post('/navigation/recalculate', { current: { lat: 29.5, lng: 31.9 }, destination: EISSA_EAST }, token);
    expect(far.status).toBe(400);
    expect(far.body.code).toBe('NO_ROAD_NEARBY');
  });

  it('routes to a mapped place\'s arrival point when the destination names one', async () => {
    const destination = { lat: TABARAK.lat, lng: TABARAK.lng, placeSlug: TABARAK.slug };
    const check = await api.post('/navigation/arrival-check', { destination, position: EISSA_MIDDLE }, token);
    const access: [number, number] = [check.body.entrance.lat, check.body.entrance.lng];
    const response = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination }, token);
    expect(response.status).toBe(201);
    const end = polyline.decode(response.body.route.shape, 6).at(-1) as [number, number];
    expect(meters(end, access)).toBeLessThan(5);
    const unknown = await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: { ...destination, placeSlug: 'node-1' } }, token);
    expect(unknown.status).toBe(404);
  });

  it('with a sessionId, replaces the session\'s route in place from the current position; only for its owner', async () => {
    const created = await api.post('/navigation/sessions', { origin: EISSA_MIDDLE, destination: EISSA_EAST }, token);
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId;
    const response = await api.post('/navigation/recalculate', { sessionId, current: EISSA_MIDDLE, heading: 264 }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-navigation', sessionId, costing: 'auto' });
    expect(angle(departureBearing(response.body.route.shape), 264)).toBeLessThan(45);
    const snapshot = await api.get(`/navigation/sessions/${sessionId}`, token);
    expect(snapshot.body.reroutes).toBe(1);
    expect(snapshot.body.route.shape).toBe(response.body.route.shape);
    const stranger = (await registerUser(api, 'stranger')).token;
    expect((await api.post('/navigation/recalculate', { sessionId, current: EISSA_MIDDLE }, stranger)).status).toBe(403);
  });

  it('answers 404 for a session it does not know, and 401 without credentials', async () => {
    const unknown = await api.post('/navigation/recalculate', { sessionId: '6f1c0d1e-8a8e-4d0e-9a5f-0c8f4c0b9a11', current: EISSA_MIDDLE }, token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    expect((await api.post('/navigation/recalculate', { current: EISSA_MIDDLE, destination: EISSA_EAST })).status).toBe(401);
  });
});

// مستشفى تبارك للولادة والأطفال (Tabarak for Children), a hospital building: OSM way 31820663
const TABARAK = { slug: 'way-31820663', lat: 30.0667208, lng: 31.3340724 };

describe('POST /navigation/arrival-check', () => {
  it('resolves a place slug to where the place meets the road, and arrives there', async () => {
    const far = await api.post('/navigation/arrival-check', { destination: { lat: TABARAK.lat, lng: TABARAK.lng, placeSlug: TABARAK.slug }, position: EISSA_MIDDLE }, token);
    expect(far.status).toBe(201);
    expect(far.body).toMatchObject({ provider: 'svc-navigation', arrived: false, arrivalRadiusMeters: 35 });
    const { entrance, arrivalPoint } = far.body;
    expect(entrance).toMatchObject({ placeSlug: TABARAK.slug, name: 'Tabarak for Children', type: 'road_access', place: { lat: TABARAK.lat, lng: TABARAK.lng } });
    expect(entrance.streetName).toEqual(expect.any(String));
    expect(arrivalPoint).toEqual({ type: 'road_access', lat: entrance.lat, lng: entrance.lng });
    expect(entrance.distanceFromPlaceMeters).toBeGreaterThan(0);
    expect(entrance.distanceFromPlaceMeters).toBeLessThan(100);
    expect(far.body.distanceMeters).toBeGreaterThan(1000);

    const there = await api.post('/navigation/arrival-check', { destination: { lat: TABARAK.lat, lng: TABARAK.lng }, placeSlug: TABARAK.slug, position: { lat: entrance.lat, lng: entrance.lng } }, token);
    expect(there.body).toMatchObject({ arrived: true, distanceMeters: 0 });
  });

  it('names the place in Arabic when asked, and resolves POI nodes and the geocoder\'s way/<id> form', async () => {
    const arabic = await api.post('/navigation/arrival-check', { destination: { lat: TABARAK.lat, lng: TABARAK.lng, placeSlug: 'way/31820663' }, position: EISSA_MIDDLE, language: 'ar' }, token);
    expect(arabic.body.entrance).toMatchObject({ placeSlug: TABARAK.slug, name: 'مستشفى تبارك للولادة والأطفال' });
    // City Center mall's cinema, an OSM node
    const node = await api.post('/navigation/arrival-check', { destination: { lat: 30.0683421, lng: 31.3446867 }, placeSlug: 'node-431441077', position: { lat: 30.0683421, lng: 31.3446867 } }, token);
    expect(node.status).toBe(201);
    expect(node.body.entrance).toMatchObject({ placeSlug: 'node-431441077', type: 'road_access' });
  });

  it('without a place, measures to the destination within the radius asked for', async () => {
    const near = { lat: EISSA_EAST.lat + 0.0002, lng: EISSA_EAST.lng }; // about 22 m north
    const inside = await api.post('/navigation/arrival-check', { destination: EISSA_EAST, position: near }, token);
    expect(inside.body).toMatchObject({ arrived: true, entrance: null, arrivalPoint: { type: 'destination', ...EISSA_EAST } });
    expect(inside.body.distanceMeters).toBeCloseTo(22.2, 0);
    expect(inside.body.distanceToDestinationMeters).toBe(inside.body.distanceMeters);
    const tight = await api.post('/navigation/arrival-check', { destination: EISSA_EAST, position: near, arrivalRadiusMeters: 10 }, token);
    expect(tight.body.arrived).toBe(false);
  });

  it('lets the top-level placeSlug override the destination\'s, and answers 404 for an unknown place', async () => {
    const response = await api.post('/navigation/arrival-check', { destination: { ...EISSA_EAST, placeSlug: TABARAK.slug }, placeSlug: 'way-1', position: EISSA_EAST }, token);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
    expect(response.body.message).toMatch(/way-1/);
  });

  it('refuses bad input with 400s: radius outside 5–200, a malformed slug, a missing position', async () => {
    for (const arrivalRadiusMeters of [4, 201]) {
      const response = await api.post('/navigation/arrival-check', { destination: EISSA_EAST, position: EISSA_EAST, arrivalRadiusMeters }, token);
      expect(response.status).toBe(400);
      expect(response.body.message[0]).toMatch(/^arrivalRadiusMeters/);
    }
    expect((await api.post('/navigation/arrival-check', { destination: EISSA_EAST, position: EISSA_EAST, placeSlug: 'hospital' }, token)).status).toBe(400);
    expect((await api.post('/navigation/arrival-check', { destination: EISSA_EAST }, token)).status).toBe(400);
    expect((await api.post('/navigation/arrival-check', { destination: EISSA_EAST, position: EISSA_EAST })).status).toBe(401);
  });
});

function parseSsml(ssml: string): { lang: string; text: string } {
  const parser = new SaxesParser({ xmlns: true });
  let lang = '';
  let text = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    if (tag.local === 'speak') lang = tag.attributes['xml:lang']?.value ?? '';
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.write(ssml).close();
  return { lang, text };
}

describe('POST /navigation/speak', () => {
  it('speaks every maneuver of a real route, in English and Arabic, with numbers in words and valid SSML', async () => {
    for (const language of ['en-US', 'ar-EG']) {
      const route = (await api.post('/navigation/recalculate', { current: { lat: 30.0626, lng: 31.3219 }, destination: { lat: 30.07, lng: 31.34 }, language }, token)).body.route;
      expect(route.maneuvers.length).toBeGreaterThan(3);
      for (const maneuver of route.maneuvers) {
        for (const cue of ['alert', 'pre', 'post']) {
          const response = await api.post('/navigation/speak', { maneuver, cue, language }, token);
          expect(response.status).toBe(201);
          expect(response.body.language).toBe(language);
          expect(response.body).not.toHaveProperty('audioUrl');
          // distances and counts are words: no digit of either script is left to be read out one by one
          expect(response.body.text).not.toMatch(/[0-9\u0660-\u0669]/);
          const ssml = parseSsml(response.body.ssml);
          expect(ssml.lang).toBe(language);
          expect(ssml.text).toBe(response.body.text);
        }
      }
    }
  });

  it('normalizes text: abbreviations, ordinals, units, escaping', async () => {
    const response = await api.post('/navigation/speak', { text: 'In 350 m, take the 2nd exit onto Main St. & "Ring Rd"', language: 'en' }, token);
    expect(response.status).toBe(201);
    expect(response.body.text).toBe('In three hundred fifty meters, take the second exit onto Main Street and "Ring Road"');
    expect(response.body.ssml).toContain('&quot;Ring Road&quot;');
    const arabic = await api.post('/navigation/speak', { text: 'بعد ٣٥٠ م انعطف يمينًا إلى ش. الطيران' }, token);
    expect(arabic.body).toMatchObject({ language: 'ar', text: 'بعد ثلاثمائة وخمسين مترًا انعطف يمينًا إلى شارع الطيران' });
  });

  it('refuses bad input with 400s: no text, both text and maneuver, a language other than English or Arabic, empty text', async () => {
    expect((await api.post('/navigation/speak', {}, token)).status).toBe(400);
    expect((await api.post('/navigation/speak', { text: 'Turn left.', maneuver: { instruction: 'Turn left.' } }, token)).status).toBe(400);
    expect((await api.post('/navigation/speak', { text: 'Tournez à gauche.', language: 'fr-FR' }, token)).status).toBe(400);
    expect((await api.post('/navigation/speak', { text: '<br/>' }, token)).status).toBe(400);
    expect((await api.post('/navigation/speak', { text: 'x'.repeat(2001) }, token)).status).toBe(400);
    expect((await api.post('/navigation/speak', { text: 'Turn left.' })).status).toBe(401);
  });
});
