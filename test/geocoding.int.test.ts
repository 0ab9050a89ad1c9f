/**
 * Geocoding (spec part 2 §4.2) and Plus Code addressing (§4.1), black-box against a started
 * server with the embedded default data (Nasr City + Jordan's admin areas).
 */
import { describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const SITE_URL = 'https://maps.example.jo';
const fixture = useServer({ SITE_URL });
const api = fixture.api;
const q = (text: string) => encodeURIComponent(text);

const expectValidationError = (response: { status: number; body: Record<string, unknown> }, field: string) => {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', requestId: expect.any(String) });
  expect(JSON.stringify(response.body.message)).toContain(field);
};

describe('GET /geocode/search', () => {
  it('answers the envelope with Nominatim-compatible results in the requested language', async () => {
    const arabic = await api.get(`/geocode/search?q=${q('شارع عباس العقاد')}`);
    expect(arabic.status).toBe(200);
    expect(arabic.body).toMatchObject({ provider: 'svc', available: true });
    const [top] = arabic.body.data;
    expect(top).toMatchObject({
      place_id: expect.any(Number),
      osm_type: 'way',
      osm_id: expect.any(Number),
      lat: expect.stringMatching(/^30\.\d+$/),
      lon: expect.stringMatching(/^31\.\d+$/),
      category: 'highway',
      name: 'شارع عباس العقاد',
      address: { road: 'شارع عباس العقاد', country: 'مصر', country_code: 'eg' },
    });
    expect(top.display_name).toContain('، ');
    expect(top.boundingbox).toHaveLength(4);
    const english = await api.get(`/geocode/search?q=${q('abbas el akkad')}&locale=en`);
    expect(english.body.data[0]).toMatchObject({ osm_id: top.osm_id, name: 'Abbas Al Aqad Street', address: { country: 'Egypt' } });
  });

  it('caps limit at 50, filters by bbox and validates its input', async () => {
    const many = await api.get(`/geocode/search?q=${q('شارع')}&limit=500`);
    expect(many.status).toBe(200);
    expect(many.body.data.length).toBeLessThanOrEqual(50);
    expect(many.body.data.length).toBeGreaterThan(20);
    const inCairo = await api.get(`/geocode/search?q=Zarqa&bbox=31.2,29.9,31.5,30.2`);
    expect(inCairo.body.data).toEqual([]);
    const biased = await api.get(`/geocode/search?q=${q('عمان')}&lat=31.95&lon=35.93&limit=3`);
    expect(biased.body.data[0].address.country_code).toBe('jo');
    expectValidationError(await api.get('/geocode/search'), 'q');
    expectValidationError(await api.get('/geocode/search?q=%20%20'), 'q');
    expectValidationError(await api.get('/geocode/search?q=x&limit=abc'), 'limit');
    expectValidationError(await api.get('/geocode/search?q=x&lat=31'), 'lon');
    expectValidationError(await api.get('/geocode/search?q=x&lat=abc&lon=3'), 'lat');
    expectValidationError(await api.get('/geocode/search?q=x&bbox=1,2,3'), 'bbox');
  });
});

describe('GET /geocode/autocomplete', () => {
  it('suggests while typing, with normalizedQuery only when the input was rewritten', async () => {
    const typed = await api.get(`/geocode/autocomplete?q=zar2a`);
    expect(typed.status).toBe(200);
    expect(typed.body).toMatchObject({ provider: 'svc-geocode', query: 'zar2a', normalizedQuery: 'zara' });
    expect(typed.body.suggestions[0]).toMatchObject({
      id: expect.stringMatching(/^external\/\d+$/),
      label: expect.stringContaining('الزرقاء'),
      name: 'الزرقاء',
      lat: expect.any(Number),
      lng: expect.any(Number),
      category: 'boundary',
    });
    const plain = await api.get(`/geocode/autocomplete?q=Zarq`);
    expect(plain.body).not.toHaveProperty('normalizedQuery');
    const diacritics = await api.get(`/geocode/autocomplete?q=${q('مُصْطَفَى النَّحَّ')}`);
    expect(diacritics.body.normalizedQuery).toBe('مصطفي النح');
    expect(diacritics.body.suggestions[0].name).toBe('شارع مصطفي النحاس');
  });

  it('defaults to 8 suggestions, caps at 15, and answers an empty list when nothing matches', async () => {
    expect((await api.get(`/geocode/autocomplete?q=${q('شارع')}`)).body.suggestions).toHaveLength(8);
    expect((await api.get(`/geocode/autocomplete?q=${q('شارع')}&limit=40`)).body.suggestions).toHaveLength(15);
    expect((await api.get(`/geocode/autocomplete?q=qqqqqqqqqq`)).body.suggestions).toEqual([]);
    expectValidationError(await api.get('/geocode/autocomplete?q='), 'q');
    expectValidationError(await api.get('/geocode/autocomplete?q=x&limit=0'), 'limit');
  });
});

describe('GET /geocode/reverse', () => {
  it('gives the street at a point with lon and lng, accepting lng as the alias', async () => {
    const search = await api.get(`/geocode/search?q=${q('شارع مكرم عبيد')}&limit=1`);
    const street = search.body.data[0];
    for (const query of [`lat=${street.lat}&lon=${street.lon}`, `lat=${street.lat}&lng=${street.lon}`, `lat=${street.lat}&lon=${street.lon}&lng=${street.lon}`]) {
      const response = await api.get(`/geocode/reverse?${query}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ provider: 'svc', available: true, data: { address: { road: 'شارع مكرم عبيد', country_code: 'eg' } } });
      expect(response.body.data.lng).toBe(response.body.data.lon);
    }
  });

  it('answers data null far from any data, and 400 for bad coordinates', async () => {
    expect((await api.get('/geocode/reverse?lat=0&lon=0')).body).toEqual({ provider: 'svc', available: true, data: null });
    expectValidationError(await api.get('/geocode/reverse?lat=30&lon=31&lng=32'), 'lng');
    expectValidationError(await api.get('/geocode/reverse?lat=91&lon=31'), 'lat');
    expectValidationError(await api.get('/geocode/reverse?lat=30'), 'lon');
    expectValidationError(await api.get('/geocode/reverse?lon=31'), 'lat');
    expectValidationError(await api.get('/geocode/reverse?lat=abc&lon=31'), 'lat');
  });
});

describe('batch geocoding', () => {
  it('POST /geocode/batch: top match per query, found:false for no match; needs a key or a session', async () => {
    const { token } = await registerUser(api, 'geocoder');
    const response = await api.post('/geocode/batch', { queries: ['zar2a', 'شارع عباس العقاد', 'qqqqqqqqqq'], locale: 'en' }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-geocode', count: 3, found: 2 });
    expect(response.body.results[0]).toMatchObject({ query: 'zar2a', found: true, displayName: 'Zarqa, Jordan', type: 'administrative', category: 'boundary', lat: expect.any(Number), lng: expect.any(Number) });
    expect(response.body.results[2]).toEqual({ query: 'qqqqqqqqqq', found: false, lat: null, lng: null, displayName: null, type: null, category: null });
    expect((await api.post('/geocode/batch', { queries: ['x'] })).status).toBe(401);
    expectValidationError(await api.post('/geocode/batch', { queries: [] }, token), 'queries');
    expectValidationError(await api.post('/geocode/batch', {}, token), 'queries');
    expectValidationError(await api.post('/geocode/batch', { queries: Array.from({ length: 51 }, () => 'x') }, token), 'queries');
  });

  it('POST /geocode/reverse-batch: found:false for unusable points', async () => {
    const { token } = await registerUser(api, 'reverser');
    const response = await api.post('/geocode/reverse-batch', { points: [{ lat: 31.95, lng: 35.93 }, { lat: 31.95, lon: 35.93 }, { lat: 200, lng: 1 }, 'nonsense'], locale: 'en' }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-geocode', count: 4, found: 2 });
    expect(response.body.results[0]).toMatchObject({ lat: 31.95, lng: 35.93, found: true, type: 'administrative', address: { country_code: 'jo' } });
    expect(response.body.results[2]).toMatchObject({ found: false, displayName: null });
    expectValidationError(await api.post('/geocode/reverse-batch', { points: [] }, token), 'points');
  });
});

describe('Plus Code addresses', () => {
  it('GET /geo/address: code, short code, nearest locality, local address and share link', async () => {
    const response = await api.get('/geo/address?lat=30.0626&lng=31.3219');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ provider: 'svc-addressing', lat: 30.0626, lng: 31.3219, plusCode: '8G2H387C+2Q', shortCode: '387C+2Q', shareUrl: `${SITE_URL}/a/8G2H387C%2B2Q` });
    expect(response.body.locality).toMatch(/[\u0600-\u06FF]/);
    expect(response.body.localAddress).toBe(`387C+2Q ${response.body.locality}`);
    // the local address decodes back to the same cell through the locality's name
    const decoded = await api.get(`/geo/pluscode/decode?code=${q(response.body.localAddress)}`);
    expect(decoded.body).toMatchObject({ code: '8G2H387C+2Q', locality: response.body.locality });
    const english = await api.get('/geo/address?lat=31.95&lng=35.93&length=11', undefined, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(english.body.plusCode.replace('+', '')).toHaveLength(11);
    expect(english.body.locality).toMatch(/^[A-Za-z]/);
  });

  it('answers every 400 of §4.1', async () => {
    expectValidationError(await api.get('/geo/address?lng=31'), 'lat');
    expectValidationError(await api.get('/geo/address?lat=x&lng=31'), 'lat');
    expectValidationError(await api.get('/geo/address?lat=30&lng=31&length=12'), 'length');
    expectValidationError(await api.get('/geo/address?lat=30&lng=31&length=7'), 'length');
    expectValidationError(await api.get('/geo/pluscode/decode'), 'code');
    expectValidationError(await api.get('/geo/pluscode/decode?code=not-a-code'), 'code');
    expectValidationError(await api.get(`/geo/pluscode/decode?code=${q('387C+2Q')}`), 'reference');
    expectValidationError(await api.get(`/geo/pluscode/decode?code=${q('387C+2Q')}&locality=qqqqqqqqqq`), 'locality');
    expectValidationError(await api.get('/geo/pluscode/decode?code=8G2H387C+2Q'), '%2B');
  });

  it('plus codes take any finite coordinates as the OLC reference does, echoing them as given', async () => {
    // Vectors from google/open-location-code test_data/encoding.csv and decoding.csv.
    const wrapped = await api.get('/geo/pluscode?lat=47.0000625&lng=728.0000625&length=10');
    expect(wrapped.status).toBe(200);
    expect(wrapped.body).toMatchObject({ code: '8FVC2222+22', lat: 47.0000625, lng: 728.0000625 });
    expect((await api.get('/geo/pluscode?lat=90&lng=1&length=10')).body.code).toBe('CFX3X2X2+X2');
    expect((await api.get('/geo/pluscode?lat=-41.2730625&lng=-905.2140625&length=10')).body.code).toBe('4VCPPQGP+Q9');
    const pole = await api.get('/geo/address?lat=92&lng=181&length=8');
    expect(pole.status).toBe(200);
    expect(pole.body).toMatchObject({ lat: 92, lng: 181, plusCode: 'C2X3X2X2+' });
    expectValidationError(await api.get('/geo/pluscode?lat=Infinity&lng=1'), 'lat');
    expectValidationError(await api.get('/geo/address?lat=1&lng=NaN'), 'lng');
    const decoded = await api.get(`/geo/pluscode/decode?code=${q('6FH32222+222')}`);
    expect(decoded.body.bounds).toEqual({ south: 1, west: 1, north: 1.000025, east: 1.00003125 });
  });

  it('POST /geo/address/batch: ok:false with "invalid coordinates" for a bad point', async () => {
    const { token } = await registerUser(api, 'addresser');
    const response = await api.post('/geo/address/batch', { points: [{ lat: 30.0626, lng: 31.3219 }, { lat: 30.0626, lon: 31.3219 }, { lat: 'x', lng: 2 }], length: 8 }, token);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'svc-addressing', count: 3, resolved: 2 });
    expect(response.body.results[0]).toMatchObject({ lat: 30.0626, lng: 31.3219, ok: true, plusCode: '8G2H387C+', shortCode: '387C+' });
    expect(response.body.results[2]).toEqual({ lat: null, lng: 2, ok: false, error: 'invalid coordinates' });
    const outside = await api.post('/geo/address/batch', { points: [{ lat: 47.0000625, lng: -711.9999375 }, { lat: 1, lng: 1e400 }], length: 10 }, token);
    expect(outside.body.results[0]).toMatchObject({ lat: 47.0000625, lng: -711.9999375, ok: true, plusCode: '8FVC2222+22' });
    expect(outside.body.results[1]).toMatchObject({ ok: false, error: 'invalid coordinates' });
    expectValidationError(await api.post('/geo/address/batch', { points: [] }, token), 'points');
    expectValidationError(await api.post('/geo/address/batch', {}, token), 'points');
  });

  it('GET /geo/addressing/config', async () => {
    const response = await api.get('/geo/addressing/config');
    expect(response.body).toMatchObject({ provider: 'svc-addressing', plusCodesEnabled: true, defaultCodeLength: 10, shareUrlBase: `${SITE_URL}/a/`, nationalAddress: { integrated: false } });
  });
});

describe('a server without geocoding', () => {
  const off = useServer({ GEOCODING_ENABLED: 'false' });

  it('answers 200 with available:false and status 502, never a 5xx; plus codes still work', async () => {
    expect((await off.api.get(`/geocode/search?q=zarqa`)).body).toEqual({ provider: 'svc', available: false, status: 502 });
    expect((await off.api.get('/geocode/reverse?lat=30&lon=31')).body).toEqual({ provider: 'svc', available: false, status: 502 });
    const autocomplete = await off.api.get(`/geocode/autocomplete?q=zarqa`);
    expect(autocomplete.status).toBe(200);
    expect(autocomplete.body).toMatchObject({ provider: 'svc-geocode', available: false, status: 502, suggestions: [] });
    const address = await off.api.get('/geo/address?lat=30.0626&lng=31.3219');
    expect(address.body).toMatchObject({ plusCode: '8G2H387C+2Q', locality: null, localAddress: '8G2H387C+2Q' });
  });

  it('says so on /map/readiness: geocoding is not served although the pack holds its data', async () => {
    const { capabilities } = (await off.api.get('/map/readiness')).body;
    expect(capabilities.geocoding).toEqual({ served: false, data: true, ready: false });
    expect(capabilities.addressing).toEqual({ served: true, data: true, ready: true });
  });
});
