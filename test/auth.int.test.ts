import { describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, registerUser, uniqueEmail } from './support/api-client.js';
import { startServerProcess, serverTestTimeout } from './support/server-process.js';
import { useServer } from './support/server-fixture.js';
import { realServices, uniqueName } from './support/services.js';

const fixture = useServer();
const api = fixture.api;

describe('register', () => {
  it('creates the account, stores the e-mail lowercased and the name trimmed, and signs in', async () => {
    const email = uniqueEmail('Reem').replace('reem', 'REEM');
    const response = await api.post('/auth/register', { email: `  ${email.toUpperCase()} `, password: PASSWORD, name: '  ريم الخطيب  ' });
    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({ id: expect.any(String), email: email.toLowerCase(), name: 'ريم الخطيب', roles: ['user'] });
    expect(response.body.sessionId).toEqual(expect.any(String));
    expect(response.body.accessToken.split('.')).toHaveLength(3);
    expect(JSON.stringify(response.body)).not.toContain(PASSWORD);
    const me = await api.get('/auth/me', response.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email.toLowerCase());
  });

  it('refuses a taken e-mail, whatever its case', async () => {
    const { email } = await registerUser(api);
    const again = await api.post('/auth/register', { email: email.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('VALIDATION_ERROR');
  });

  it('validates e-mail and password with field messages', async () => {
    const response = await api.post('/auth/register', { email: 'not-an-email', password: 'short' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.message).toEqual(expect.arrayContaining([expect.stringMatching(/^email:/), expect.stringMatching(/^password: must be at least 10/)]));
  });
});

describe('login', () => {
  it('opens a new session with the right password', async () => {
    const { email, sessionId } = await registerUser(api);
    const response = await api.post('/auth/login', { email, password: PASSWORD });
    expect(response.status).toBe(201);
    expect(response.body.sessionId).not.toBe(sessionId);
    expect((await api.get('/auth/me', response.body.accessToken)).status).toBe(200);
  });

  it('answers 400 Invalid credentials for a wrong password or an unknown account alike', async () => {
    const { email } = await registerUser(api);
    for (const attempt of [{ email, password: 'wrong password!!' }, { email: uniqueEmail('ghost'), password: PASSWORD }]) {
      const response = await api.post('/auth/login', attempt);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Invalid credentials');
    }
  });

  it('locks an account out after 10 failures, even for the right password, but not other accounts', async () => {
    const victim = await registerUser(api, 'victim');
    const bystander = await registerUser(api, 'bystander');
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await api.post('/auth/login', { email: victim.email, password: `wrong-${attempt}-password` })).status).toBe(400);
    }
    const locked = await api.post('/auth/login', { email: victim.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RATE_LIMITED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.post('/auth/login', { email: bystander.email, password: PASSWORD })).status).toBe(201);
  });
});

describe('parallel guessing', () => {
  it('lets at most 10 of 30 simultaneous wrong passwords be checked', async () => {
    const target = await registerUser(api, 'parallel');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => api.post('/auth/login', { email: target.email, password: `guess-number-${attempt}` })),
    );
    expect(responses.filter((response) => response.status === 400)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(20);
  });
});

describe('bearer tokens', () => {
  it('answers 401 UNAUTHENTICATED without a token, with a forged one, and with alg none', async () => {
    const { token } = await registerUser(api);
    const [header, payload] = token.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const tampered = `${header}.${payload}.${'A'.repeat(43)}`;
    for (const candidate of [undefined, 'garbage', unsigned, tampered]) {
      const response = await api.get('/auth/me', candidate);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('profile', () => {
  it('changes only the fields sent and clears avatar or privacy with null', async () => {
    const { token } = await registerUser(api);
    const avatar = { type: 'emoji', value: '🧭', bgColor: '#0a7' };
    const first = await api.patch('/auth/me', { name: '  Omar  ', avatar, privacy: { saveHistory: false, useLocation: true } }, token);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, user: expect.objectContaining({ name: 'Omar', profile: { avatar, privacy: { saveHistory: false, useLocation: true } } }) });
    const second = await api.patch('/auth/me', { avatar: null }, token);
    expect(second.body.user).toMatchObject({ name: 'Omar', profile: { avatar: null, privacy: { saveHistory: false, useLocation: true } } });
    const me = await api.get('/auth/me', token);
    expect(me.body.user.profile).toEqual({ avatar: null, privacy: { saveHistory: false, useLocation: true } });
  });

  it('refuses names over 160 characters, unknown privacy keys and non-boolean values', async () => {
    const { token } = await registerUser(api);
    for (const body of [{ name: 'x'.repeat(161) }, { privacy: { saveHistory: true, sellData: true } }, { privacy: { useLocation: 'yes' } }, { avatar: { type: 'gif', value: 'x' } }]) {
      const response = await api.patch('/auth/me', body, token);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(Array.isArray(response.body.message)).toBe(true);
    }
  });
});

describe('sessions', () => {
  it('lists sessions with the current one marked, revokes one, then all others', async () => {
    const { email, token } = await registerUser(api);
    const second = (await api.post('/auth/login', { email, password: PASSWORD })).body;
    const third = (await api.post('/auth/login', { email, password: PASSWORD })).body;
    const list = await api.get('/auth/sessions', token);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(3);
    expect(list.body.items.filter((item: { current: boolean }) => item.current)).toHaveLength(1);

    const revoked = await api.delete(`/auth/sessions/${second.sessionId}`, token);
    expect(revoked.body).toEqual({ ok: true, revoked: 1 });
    expect((await api.get('/auth/me', second.accessToken)).status).toBe(401);
    expect((await api.delete(`/auth/sessions/${second.sessionId}`, token)).status).toBe(404);

    expect((await api.delete('/auth/sessions', token)).status).toBe(400);
    const all = await api.delete('/auth/sessions?all=1', token);
    expect(all.body).toEqual({ ok: true, revoked: 1 });
    expect((await api.get('/auth/me', third.accessToken)).status).toBe(401);
    expect((await api.get('/auth/me', token)).status).toBe(200);
  });

  it("answers 404 for another user's session, without revoking it", async () => {
    const alice = await registerUser(api, 'alice');
    const bob = await registerUser(api, 'bob');
    const response = await api.delete(`/auth/sessions/${alice.sessionId}`, bob.token);
    expect(response.status).toBe(404);
    expect((await api.get('/auth/me', alice.token)).status).toBe(200);
  });

  it('logs out: the token stops working at once', async () => {
    const { token } = await registerUser(api);
    expect((await api.post('/auth/logout', undefined, token)).body).toEqual({ ok: true });
    expect((await api.get('/auth/me', token)).status).toBe(401);
  });
});

describe('revocation across processes', () => {
  it('a session revoked through one process is refused by another on the very next request', { timeout: serverTestTimeout(2) }, async () => {
    // Two edge processes sharing one real Postgres (and one signing key, kept in it).
    const shared = { DATABASE_URL: realServices.databaseUrl, DATABASE_SCHEMA: uniqueName('t') };
    const first = await startServerProcess(shared);
    const second = await startServerProcess(shared);
    try {
      const a = apiClient(first.baseUrl);
      const b = apiClient(second.baseUrl);
      const user = await registerUser(a);
      expect((await b.get('/auth/me', user.token)).status).toBe(200);
      expect((await a.post('/auth/logout', undefined, user.token)).status).toBe(201);
      expect((await b.get('/auth/me', user.token)).status).toBe(401);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
