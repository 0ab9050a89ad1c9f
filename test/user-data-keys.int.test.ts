/**
 * Saved places and lists, history, live shares and push tokens through an API key (spec part 1 §4.3: a
 * signed-in user's bearer token or a developer API key): the key acts for the user who owns it, reaches no
 * one else's data, needs no scope (account endpoints, part 1 §8) but is still refused when deactivated, and
 * the notification inbox stays bearer-only (§4.4).
 */
import { describe, expect, it } from 'vitest';
import { registerUser, type ApiClient } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

const fixture = useServer();
const api = fixture.api;

const tayaran = { name: 'شارع الطيران', lat: 30.0626, lng: 31.3219, detail: 'Nasr City, Cairo' };
const NO_SCOPES = { search: false, geocode: false, places: false, routing: false, traffic: false, telemetry: false, tiles: false, imagery: false, geo: false, insights: false, optimize: false };

/** A developer with one key; `scopes` are merged over the defaults. */
async function developerWithKey(client: ApiClient, scopes: Record<string, boolean> = {}) {
  const user = await registerUser(client, 'keyowner');
  await client.post('/developer/enroll', undefined, user.token);
  const organization = (await client.post('/developer/organizations', { name: 'Org' }, user.token)).body;
  const project = (await client.post('/developer/projects', { name: 'App', organizationId: organization.id }, user.token)).body;
  const key = (await client.post('/developer/api-keys', { projectId: project.id, label: 'app', scopes }, user.token)).body;
  return { ...user, keyId: key.id as string, key: key.key as string };
}

/** A request with the key in the x-api-key header and no bearer token. */
function withKey(key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fixture.server.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

describe('saved places through an API key', () => {
  it("creates, lists, changes and deletes the key owner's saved places, the same ones the owner's bearer token sees", async () => {
    const owner = await developerWithKey(api);
    const key = withKey(owner.key);
    const created = await key.post('/me/saved-places', tayaran);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(tayaran);
    const bearerView = await api.get('/me/saved-places', owner.token);
    expect(bearerView.body.items.map((place: { id: string }) => place.id)).toEqual([created.body.id]);
    await api.post('/me/saved-places', { name: 'City Stars', lat: 30.0731, lng: 31.3456 }, owner.token);
    expect((await key.get('/me/saved-places')).body.items.map((place: { name: string }) => place.name)).toEqual(['City Stars', tayaran.name]);
    expect((await key.patch(`/me/saved-places/${created.body.id}`, { note: 'Home' })).body).toMatchObject({ id: created.body.id, note: 'Home' });
    expect((await key.delete(`/me/saved-places/${created.body.id}`)).body).toEqual({ ok: true, deleted: true });
    expect((await api.get('/me/saved-places', owner.token)).body.items.map((place: { name: string }) => place.name)).toEqual(['City Stars']);
    const list = await key.post('/me/saved-lists', { name: 'Cafés' });
    expect(list.status).toBe(201);
    expect((await api.get('/me/saved-lists', owner.token)).body.items[0]).toMatchObject({ id: list.body.id, name: 'Cafés' });
  });

  it("never reaches another user's saved places, lists, history or shares", async () => {
    const owner = await developerWithKey(api);
    const key = withKey(owner.key);
    const other = await registerUser(api, 'other');
    const place = (await api.post('/me/saved-places', tayaran, other.token)).body;
    const list = (await api.post('/me/saved-lists', { name: 'Mine' }, other.token)).body;
    const entry = (await api.post('/me/history', { kind: 'search', query: 'secret' }, other.token)).body;
    const share = (await api.post('/me/live-shares', { lat: 30, lng: 31 }, other.token)).body;
    expect((await key.get('/me/saved-places')).body.items).toEqual([]);
    expect((await key.get(`/me/saved-places?listId=${list.id}`)).body.items).toEqual([]);
    expect((await key.get('/me/history')).body.total).toBe(0);
    expect((await key.get('/me/live-shares')).body.items).toEqual([]);
    const attempts = await Promise.all([
      key.patch(`/me/saved-places/${place.id}`, { name: 'Pwned' }),
      key.delete(`/me/saved-places/${place.id}`),
      key.post('/me/saved-places', { ...tayaran, listId: list.id }),
      key.delete(`/me/saved-lists/${list.id}`),
      key.delete(`/me/history/${entry.id}`),
      key.patch(`/me/live-shares/${share.id}`, { lat: 0, lng: 0 }),
      key.delete(`/me/live-shares/${share.id}`),
    ]);
    for (const response of attempts) expect(response.status).toBe(404);
    expect((await api.get('/me/saved-places', other.token)).body.items).toMatchObject([{ id: place.id, name: tayaran.name }]);
    expect((await api.get('/me/history', other.token)).body.total).toBe(1);
    expect((await api.get(`/live-shares/${share.shareToken}`)).body.lat).toBe(30);
  });
});

describe('history, live shares and push tokens through an API key', () => {
  it("records the owner's history (and honours the owner's saveHistory: false), shares and push tokens", async () => {
    const owner = await developerWithKey(api);
    const key = withKey(owner.key);
    expect((await key.post('/me/history', { kind: 'search', query: 'مطعم' })).status).toBe(201);
    expect((await api.get('/me/history', owner.token)).body).toMatchObject({ total: 1, items: [{ kind: 'search', query: 'مطعم' }] });

    const share = await key.post('/me/live-shares', { lat: 30.06, lng: 31.32, etaSeconds: 600 });
    expect(share.status).toBe(201);
    expect((await api.get('/me/live-shares', owner.token)).body.items.map((item: { id: string }) => item.id)).toEqual([share.body.id]);
    expect((await key.delete(`/me/live-shares/${share.body.id}`)).status).toBe(200);
    expect((await api.get(`/live-shares/${share.body.shareToken}`)).status).toBe(404);

    // a token registered through the key is the owner's: the owner's bearer token can unregister it
    const pushToken = `fcm-${owner.keyId}`;
    expect((await key.post('/me/push-tokens', { token: pushToken, platform: 'android' })).body).toMatchObject({ ok: true, token: pushToken, platform: 'android' });
    expect((await api.delete(`/me/push-tokens/${pushToken}`, owner.token)).status).toBe(200);
    expect((await key.delete(`/me/push-tokens/${pushToken}`)).status).toBe(404);

    await api.patch('/auth/me', { privacy: { saveHistory: false } }, owner.token);
    const refused = await key.post('/me/history', { kind: 'search', query: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ reason: 'history_disabled' });
    expect((await key.delete('/me/history')).body).toEqual({ ok: true, deleted: 1 });
  });
});

describe('which keys get in', () => {
  it('needs no scope (account endpoints, part 1 §8) but refuses a deactivated key, an unknown key and anonymous callers', async () => {
    const owner = await developerWithKey(api, NO_SCOPES);
    const key = withKey(owner.key);
    const saved = await key.post('/me/saved-places', tayaran);
    expect(saved.status).toBe(201);
    // unscoped: no key quota is counted, so no quota headers (part 1 §8 rule 1)
    expect(saved.headers.get('x-svc-quota-limit-minute')).toBeNull();

    await api.patch(`/developer/api-keys/${owner.keyId}`, { active: false }, owner.token);
    const inactive = await key.get('/me/saved-places');
    expect(inactive.status).toBe(403);
    expect(inactive.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'key_inactive' } });
    expect((await withKey(`svc_${'0'.repeat(48)}`).get('/me/saved-places')).status).toBe(401);
    const anonymous = await api.get('/me/saved-places');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('keeps the notification inbox, the account and the developer portal bearer-only', async () => {
    const owner = await developerWithKey(api);
    const key = withKey(owner.key);
    for (const path of ['/me/notifications', '/auth/me', '/developer/organizations']) {
      const response = await key.get(path);
      expect(response.status, path).toBe(401);
    }
    expect((await api.get('/me/notifications', owner.token)).status).toBe(200);
  });
});
