import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, uniqueEmail, type ApiClient } from './support/api-client.js';
import { TestOidcProvider, type TestUser } from './support/oidc-provider.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

/** Spec part 1 §4.2 rule 5: accounts created through a provider's e-mail/password method log in with that password. */
const passwordIdp = new TestOidcProvider();
/** A provider configured without the password grant: its accounts keep answering PROVIDER_ACCOUNT (rule 4). */
const socialIdp = new TestOidcProvider();
let server: ServerProcess;
let api: ApiClient;

beforeAll(async () => {
  await Promise.all([passwordIdp.start(), socialIdp.start()]);
  server = await startServerProcess({
    OIDC_PROVIDERS: JSON.stringify([
      { id: 'pwidp', label: 'Password IdP', issuer: passwordIdp.issuer, clientId: passwordIdp.clientId, clientSecret: 's3cret', passwordGrant: true },
      { id: 'socialidp', label: 'Social IdP', issuer: socialIdp.issuer, clientId: socialIdp.clientId },
    ]),
  });
  api = apiClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([passwordIdp.stop(), socialIdp.stop()]);
});

/** An account created through the provider (the ID-token exchange), with a password at the provider. */
async function providerAccount(provider: TestOidcProvider, label: string): Promise<{ user: TestUser; userId: string }> {
  const user: TestUser = { sub: `${label}-${Date.now()}-${Math.random()}`, email: uniqueEmail(label) };
  const created = await api.post('/auth/idp', { idToken: await provider.signIdToken(user) });
  expect(created.status).toBe(201);
  provider.passwordAccounts.set(user.email, { password: PASSWORD, user });
  return { user, userId: created.body.user.id };
}

describe('password login to a provider-created account', () => {
  it('signs in when the provider accepts the password, with the standard envelope', async () => {
    const { user, userId } = await providerAccount(passwordIdp, 'pw-ok');
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(201);
    expect(login.body).toMatchObject({ user: { id: userId, email: user.email }, sessionId: expect.any(String), accessToken: expect.any(String) });
    expect((await api.get('/auth/me', login.body.accessToken)).body.user.id).toBe(userId);
    expect(passwordIdp.passwordGrants.at(-1)).toEqual({ username: user.email, clientId: passwordIdp.clientId, scope: 'openid email profile' });
  });

  it('answers a wrong password (invalid_grant) like any wrong password, and counts it toward the lockout', async () => {
    const { user } = await providerAccount(passwordIdp, 'pw-wrong');
    for (let attempt = 0; attempt < 10; attempt++) {
      const login = await api.post('/auth/login', { email: user.email, password: 'not the password' });
      expect(login.status).toBe(400);
      expect(login.body).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid credentials', details: { reason: 'invalid_credentials' } });
    }
    const locked = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RATE_LIMITED');
  });

  it('refuses when the provider vouches for a different account with that e-mail', async () => {
    const { user } = await providerAccount(passwordIdp, 'pw-other');
    passwordIdp.passwordAccounts.set(user.email, { password: PASSWORD, user: { ...user, sub: `someone-else-${Date.now()}` } });
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(400);
    expect(login.body.message).toBe('Invalid credentials');
  });

  it('keeps PROVIDER_ACCOUNT for a provider configured without the password grant, never asking it', async () => {
    const { user } = await providerAccount(socialIdp, 'social');
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(400);
    expect(login.body.code).toBe('PROVIDER_ACCOUNT');
    expect(login.body.details).toEqual({ signInMethod: 'oidc', provider: 'socialidp', exchangeEndpoint: '/api/v1/auth/idp' });
    expect(socialIdp.passwordGrants).toEqual([]);
  });

  it('answers 503 SERVICE_UNAVAILABLE while the provider is down, without counting toward the lockout', async () => {
    const { user } = await providerAccount(passwordIdp, 'pw-down');
    passwordIdp.tokenEndpointDown = true;
    try {
      for (let attempt = 0; attempt < 12; attempt++) {
        const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
        expect(login.status).toBe(503);
        expect(login.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { reason: 'provider_unavailable', provider: 'pwidp' } });
      }
    } finally {
      passwordIdp.tokenEndpointDown = false;
    }
    expect((await api.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(201);
  });

  it('answers 503 provider_misconfigured when the provider refuses the grant itself', async () => {
    const { user } = await providerAccount(passwordIdp, 'pw-nogrant');
    passwordIdp.passwordGrantEnabled = false;
    try {
      const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
      expect(login.status).toBe(503);
      expect(login.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { reason: 'provider_misconfigured', provider: 'pwidp' } });
    } finally {
      passwordIdp.passwordGrantEnabled = true;
    }
  });

  it('still checks the local password of a password account linked to the provider', async () => {
    const email = uniqueEmail('linked');
    expect((await api.post('/auth/register', { email, password: PASSWORD })).status).toBe(201);
    expect((await api.post('/auth/idp', { idToken: await passwordIdp.signIdToken({ sub: `linked-${Date.now()}`, email }) })).status).toBe(201);
    const before = passwordIdp.passwordGrants.length;
    expect((await api.post('/auth/login', { email, password: PASSWORD })).status).toBe(201);
    expect((await api.post('/auth/login', { email, password: 'not the password' })).status).toBe(400);
    expect(passwordIdp.passwordGrants.length).toBe(before);
  });
});
