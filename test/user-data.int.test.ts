import { describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

const tayaran = { name: 'شارع الطيران', lat: 30.0626, lng: 31.3219, detail: 'Nasr City, Cairo' };

describe('saved places and lists', () => {
  it('saves, lists newest first, updates only the fields sent and deletes', async () => {
    const user = await registerUser(api);
    const first = await api.post('/me/saved-places', tayaran, user.token);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...tayaran, placeId: null, listId: null, tags: [], note: '' });
    const second = (await api.post('/me/saved-places', { name: 'City Stars', lat: 30.0731, lng: 31.3456, placeId: 'osm:way:1' }, user.token)).body;
    expect((await api.get('/me/saved-places', user.token)).body.items.map((place: { name: string }) => place.name)).toEqual(['City Stars', 'شارع الطيران']);

    const patched = await api.patch(`/me/saved-places/${first.body.id}`, { note: 'Home', tags: ['home'] }, user.token);
    expect(patched.body).toMatchObject({ ...tayaran, note: 'Home', tags: ['home'] });
    expect((await api.patch(`/me/saved-places/${second.id}`, { placeId: null }, user.token)).body.placeId).toBeNull();
    expect((await api.delete(`/me/saved-places/${second.id}`, user.token)).status).toBe(200);
    expect((await api.get('/me/saved-places', user.token)).body.items).toHaveLength(1);
  });

  it('returns at most the newest 100', async () => {
    const user = await registerUser(api);
    await Promise.all(Array.from({ length: 105 }, (_, index) => api.post('/me/saved-places', { name: `P${index}`, lat: 30, lng: 31 }, user.token)));
    expect((await api.get('/me/saved-places', user.token)).body.items).toHaveLength(100);
  });

  it('validates coordinates and required fields', async () => {
    const user = await registerUser(api);
    for (const body of [{ name: 'x', lat: 91, lng: 0 }, { name: 'x', lat: 0, lng: 181 }, { lat: 0, lng: 0 }, { name: 'x', lat: '30', lng: 31 }]) {
      const response = await api.post('/me/saved-places', body, user.token);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    }
  });

  it('groups places in lists; deleting a list keeps its places', async () => {
    const user = await registerUser(api);
    const list = (await api.post('/me/saved-lists', { name: 'Cafés' }, user.token)).body;
    const place = (await api.post('/me/saved-places', { ...tayaran, listId: list.id }, user.token)).body;
    expect((await api.get('/me/saved-lists', user.token)).body.items[0]).toMatchObject({ id: list.id, name: 'Cafés', placeCount: 1 });
    expect((await api.get(`/me/saved-places?listId=${list.id}`, user.token)).body.items.map((item: { id: string }) => item.id)).toEqual([place.id]);
    expect((await api.delete(`/me/saved-lists/${list.id}`, user.token)).status).toBe(200);
    expect((await api.get('/me/saved-places', user.token)).body.items[0]).toMatchObject({ id: place.id, listId: null });
  });
});

describe('history', () => {
  it('records searches and visits, and refuses them while saveHistory is off', async () => {
    const user = await registerUser(api);
    expect((await api.post('/me/history', { kind: 'search', query: 'مطعم' }, user.token)).status).toBe(201);
    expect((await api.post('/me/history', { kind: 'visit', name: 'City Stars', lat: 30.07, lng: 31.34 }, user.token)).status).toBe(201);
    expect((await api.post('/me/history', { kind: 'visit' }, user.token)).status).toBe(400);
    const page = await api.get('/me/history?kind=search', user.token);
    expect(page.body).toMatchObject({ total: 1, items: [{ kind: 'search', query: 'مطعم' }] });

    await api.patch('/auth/me', { privacy: { saveHistory: false } }, user.token);
    const refused = await api.post('/me/history', { kind: 'search', query: 'x' }, user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ reason: 'history_disabled' });
    expect((await api.delete('/me/history', user.token)).body).toEqual({ ok: true, deleted: 2 });
  });
});

describe('live location shares', () => {
  it('shares a position by a public token, updates it, and stops at once when revoked', async () => {
    const user = await registerUser(api);
    const created = await api.post('/me/live-shares', { lat: 30.06, lng: 31.32, etaSeconds: 600, expiresInMinutes: 30, destination: { name: 'Home', lat: 30.1, lng: 31.3 } }, user.token);
    expect(created.status).toBe(201);
    expect(created.body.shareToken).toMatch(/^shr_[0-9a-f]{48}$/);
    const token = created.body.shareToken;
    const publicView = await api.get(`/live-shares/${token}`);
    expect(publicView.status).toBe(200);
    expect(publicView.body).toMatchObject({ lat: 30.06, lng: 31.32, etaSeconds: 600, destination: { name: 'Home' } });
    expect(JSON.stringify(publicView.body)).not.toContain(user.email);

    await api.patch(`/me/live-shares/${created.body.id}`, { lat: 30.07, lng: 31.33, etaSeconds: 300 }, user.token);
    expect((await api.get(`/live-shares/${token}`)).body).toMatchObject({ lat: 30.07, etaSeconds: 300 });
    expect(JSON.stringify((await api.get('/me/live-shares', user.token)).body)).not.toContain(token);

    expect((await api.delete(`/me/live-shares/${created.body.id}`, user.token)).status).toBe(200);
    expect((await api.get(`/live-shares/${token}`)).status).toBe(404);
    expect((await api.get('/live-shares/shr_not-a-token')).status).toBe(404);
  });
});

describe('isolation', () => {
  it("answers 404 on another user's saved places, lists, history and shares, and changes nothing", async () => {
    const alice = await registerUser(api, 'alice');
    const bob = await registerUser(api, 'bob');
    const place = (await api.post('/me/saved-places', tayaran, alice.token)).body;
    const list = (await api.post('/me/saved-lists', { name: 'Mine' }, alice.token)).body;
    const entry = (await api.post('/me/history', { kind: 'search', query: 'secret' }, alice.token)).body;
    const share = (await api.post('/me/live-shares', { lat: 30, lng: 31 }, alice.token)).body;
    const attempts = await Promise.all([
      api.patch(`/me/saved-places/${place.id}`, { name: 'Pwned' }, bob.token),
      api.delete(`/me/saved-places/${place.id}`, bob.token),
      api.post('/me/saved-places', { ...tayaran, listId: list.id }, bob.token),
      api.patch(`/me/saved-lists/${list.id}`, { name: 'Pwned' }, bob.token),
      api.delete(`/me/saved-lists/${list.id}`, bob.token),
      api.delete(`/me/history/${entry.id}`, bob.token),
      api.patch(`/me/live-shares/${share.id}`, { lat: 0, lng: 0 }, bob.token),
      api.delete(`/me/live-shares/${share.id}`, bob.token),
    ]);
    for (const response of attempts) expect(response.status).toBe(404);
    expect((await api.get(`/me/saved-places?listId=${list.id}`, bob.token)).body.items).toEqual([]);
    expect((await api.get('/me/history', bob.token)).body.total).toBe(0);
    expect((await api.get('/me/saved-places', alice.token)).body.items[0].name).toBe(tayaran.name);
    expect((await api.get('/me/history', alice.token)).body.total).toBe(1);
    expect((await api.get(`/live-shares/${share.shareToken}`)).body.lat).toBe(30);
  });
});

describe('export and deletion', () => {
  it('exports every section without secrets', async () => {
    const user = await registerUser(api);
    await api.post('/me/saved-places', tayaran, user.token);
    await api.post('/me/history', { kind: 'search', query: 'فول' }, user.token);
    const share = (await api.post('/me/live-shares', { lat: 30, lng: 31 }, user.token)).body;
    await api.post('/developer/enroll', undefined, user.token);
    const exported = await api.get('/auth/me/export', user.token);
    expect(exported.status).toBe(200);
    expect(Object.keys(exported.body).sort()).toEqual(['account', 'assistantConversations', 'exportedAt', 'itineraries', 'liveShares', 'mapHistory', 'savedLocations', 'sessions', 'signDisregards', 'subscriptions']);
    expect(exported.body.account).toMatchObject({ email: user.email, roles: ['user', 'developer'], hasPassword: true });
    expect(exported.body.savedLocations.places).toHaveLength(1);
    expect(exported.body.mapHistory[0]).toMatchObject({ query: 'فول' });
    expect(exported.body.sessions[0]).toMatchObject({ id: user.sessionId });
    const text = JSON.stringify(exported.body);
    for (const secret of [PASSWORD, 'scrypt$', share.shareToken, user.token]) expect(text).not.toContain(secret);
  });

  it('deletes the account with everything it owns, after the confirmation and the password', async () => {
    const user = await registerUser(api);
    const share = (await api.post('/me/live-shares', { lat: 30, lng: 31 }, user.token)).body;
    expect((await api.delete('/auth/me', user.token)).status).toBe(400);
    const wrongWord = await fetch(`${fixture.server.baseUrl}/api/v1/auth/me`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ confirm: 'delete', password: PASSWORD }) });
    expect(wrongWord.status).toBe(400);
    const noPassword = await fetch(`${fixture.server.baseUrl}/api/v1/auth/me`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ confirm: 'DELETE' }) });
    expect(noPassword.status).toBe(400);
    const deleted = await fetch(`${fixture.server.baseUrl}/api/v1/auth/me`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ confirm: 'DELETE', password: PASSWORD }) });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    expect((await api.get('/auth/me', user.token)).status).toBe(401);
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(400);
    expect((await api.get(`/live-shares/${share.shareToken}`)).status).toBe(404);
    expect((await api.post('/auth/register', { email: user.email, password: PASSWORD })).status).toBe(201);
  });
});
