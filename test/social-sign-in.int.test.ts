import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, registerUser, uniqueEmail, type ApiClient } from './support/api-client.js';
import { TestOidcProvider } from './support/oidc-provider.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const provider = new TestOidcProvider();
let server: ServerProcess;
let api: ApiClient;

beforeAll(async () => {
  await provider.start();
  server = await startServerProcess({
    // No captcha here: a site key alone (without CAPTCHA_SECRET and CAPTCHA_VERIFY_URL) no longer starts; test/captcha.int.test.ts covers it.
    OIDC_PROVIDERS: JSON.stringify([{ id: 'testidp', label: 'Test IdP', issuer: provider.issuer, clientId: provider.clientId, clientSecret: 's3cret' }]),
  });
  api = apiClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await provider.stop();
});

/** Plays the browser: start → provider → callback; returns the final app location. */
async function browserSignIn(next = '/app'): Promise<string> {
  const start = await fetch(`${server.baseUrl}/api/v1/auth/oauth/testidp/start?next=${encodeURIComponent(next)}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = await fetch(consent.headers.get('location')!, { redirect: 'manual' });
  expect(callback.status).toBe(302);
  return callback.headers.get('location')!;
}

const fragmentOf = (location: string) => new URLSearchParams(location.split('#')[1] ?? '');

describe('providers', () => {
  it('lists the configured providers and the captcha settings, without credentials', async () => {
    const response = await api.get('/auth/providers');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ providers: [{ id: 'testidp', label: 'Test IdP', type: 'oidc' }], captcha: { enabled: false, siteKey: null } });
  });

  it('starts with a redirect carrying state, nonce and an S256 PKCE challenge', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/auth/oauth/testidp/start?next=/home`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get('location')!);
    expect(target.origin + target.pathname).toBe(`${provider.issuer}/authorize`);
    for (const name of ['state', 'nonce', 'code_challenge']) expect(target.searchParams.get(name)?.length).toBeGreaterThanOrEqual(43);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/api/v1/auth/oauth/testidp/callback`);
    expect((await fetch(`${server.baseUrl}/api/v1/auth/oauth/nope/start`, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('social sign-in', () => {
  it('creates an account on first sign-in and returns a working token in the fragment', async () => {
    provider.currentUser = { sub: `sub-${Date.now()}`, email: uniqueEmail('social'), name: 'Layla' };
    const location = await browserSignIn('/app');
    expect(location.startsWith('/app#')).toBe(true);
    const fragment = fragmentOf(location);
    expect(fragment.get('svcauth')).toBe('ok');
    const me = await api.get('/auth/me', fragment.get('token')!);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: provider.currentUser.email, name: 'Layla' });
  });

  it('offers a link for an e-mail that belongs to a password account, confirmed by its password', async () => {
    const owner = await registerUser(api, 'owner');
    provider.currentUser = { sub: `sub-link-${Date.now()}`, email: owner.email };
    const fragment = fragmentOf(await browserSignIn('/app'));
    expect(fragment.get('svcauth')).toBe('link');
    const linkToken = fragment.get('linkToken')!;
    expect(fragment.get('token')).toBeNull();
    expect((await api.post('/auth/oauth/link', { linkToken, password: 'not the password' })).status).toBe(400);
    // A failed confirmation uses the offer up: a new sign-in makes a new one.
    const again = fragmentOf(await browserSignIn('/app'));
    const linked = await api.post('/auth/oauth/link', { linkToken: again.get('linkToken'), password: PASSWORD });
    expect(linked.status).toBe(201);
    expect(linked.body.user.id).toBe(owner.userId);
    const next = fragmentOf(await browserSignIn('/app'));
    expect(next.get('svcauth')).toBe('ok');
  });

  it('refuses a replayed state and keeps next on this site', async () => {
    provider.currentUser = { sub: `sub-replay-${Date.now()}`, email: uniqueEmail('replay') };
    const start = await fetch(`${server.baseUrl}/api/v1/auth/oauth/testidp/start?next=${encodeURIComponent('//evil.example/x')}`, { redirect: 'manual' });
    const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const callbackUrl = consent.headers.get('location')!;
    const first = await fetch(callbackUrl, { redirect: 'manual' });
    expect(first.headers.get('location')!.startsWith('/#svcauth=ok')).toBe(true);
    const replay = await fetch(callbackUrl, { redirect: 'manual' });
    expect(fragmentOf(replay.headers.get('location')!).get('reason')).toBe('invalid_state');
  });
});

describe('identity-provider token exchange', () => {
  it('signs in with a genuine ID token; the account then answers password logins with PROVIDER_ACCOUNT', async () => {
    const user = { sub: `idp-${Date.now()}`, email: uniqueEmail('idp') };
    const response = await api.post('/auth/idp', { idToken: await provider.signIdToken(user) });
    expect(response.status).toBe(201);
    expect(response.body.user.email).toBe(user.email);
    expect((await api.get('/auth/me', response.body.accessToken)).status).toBe(200);

    for (let attempt = 0; attempt < 12; attempt++) {
      const login = await api.post('/auth/login', { email: user.email, password: 'whatever-password' });
      expect(login.status).toBe(400);
      expect(login.body.code).toBe('PROVIDER_ACCOUNT');
      expect(login.body.details).toEqual({ signInMethod: 'oidc', provider: 'testidp', exchangeEndpoint: '/api/v1/auth/idp' });
    }
  });

  it('refuses tokens from the wrong issuer, for the wrong audience, expired, unsigned or signed by another key', async () => {
    const user = { sub: `bad-${Date.now()}`, email: uniqueEmail('bad') };
    const past = Math.floor(Date.now() / 1000) - 3600;
    const rogue = await generateKeyPair('RS256');
    const genuine = await provider.signIdToken(user);
    const [, payload] = genuine.split('.');
    const candidates = [
      await provider.signIdToken(user, { iss: 'https://accounts.evil.example' }),
      await provider.signIdToken(user, { aud: 'someone-else' }),
      await provider.signIdToken(user, { iat: past - 600, exp: past }),
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`,
      await provider.signIdToken(user, {}, rogue.privateKey),
      await provider.signIdToken({ ...user, email_verified: false }),
    ];
    for (const idToken of candidates) {
      const response = await api.post('/auth/idp', { idToken });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHENTICATED');
    }
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).body.message).toBe('Invalid credentials');
  });
});
