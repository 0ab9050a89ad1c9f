import { SignJWT, decodeJwt, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { registerUser, uniqueEmail } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';

/** Issue #22, fault 10: a token without `exp` and a password of only whitespace. */
const JWT_SECRET = 'a-test-signing-key-of-at-least-32-characters';
const fixture = useServer({ JWT_SECRET });
const api = fixture.api;

/** A token of the same user and session, signed with the server's key, with or without an expiry. */
function resign(claims: JWTPayload, expiresIn: string | undefined): Promise<string> {
  const token = new SignJWT({ sid: claims.sid }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(claims.sub!).setIssuer(claims.iss!).setAudience(claims.aud!).setIssuedAt();
  return (expiresIn ? token.setExpirationTime(expiresIn) : token).sign(new TextEncoder().encode(JWT_SECRET));
}

describe('access tokens', () => {
  it('refuses a genuine token that has no expiry', async () => {
    const user = await registerUser(api, 'noexp');
    expect((await api.get('/auth/me', user.token)).status).toBe(200);
    const claims = decodeJwt(user.token);
    expect(claims.exp).toEqual(expect.any(Number));
    const refused = await api.get('/auth/me', await resign(claims, undefined));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', requestId: expect.any(String) });
    // with an expiry, the very same claims pass: only `exp` was missing
    expect((await api.get('/auth/me', await resign(claims, '1h'))).status).toBe(200);
  });
});

describe('passwords', () => {
  it('refuses a password of only whitespace, whatever its length', async () => {
    for (const password of [' '.repeat(10), '\t'.repeat(12), '\u00a0\u3000'.repeat(6), ' \n'.repeat(40)]) {
      const response = await api.post('/auth/register', { email: uniqueEmail('blank'), password });
      expect(response.status, JSON.stringify(password)).toBe(400);
      expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', message: ['password: must not be only whitespace'] });
    }
  });

  it('keeps the spec rule otherwise: ten characters, spaces among them allowed', async () => {
    expect((await api.post('/auth/register', { email: uniqueEmail('short'), password: 'nine char' })).status).toBe(400);
    const spaced = await api.post('/auth/register', { email: uniqueEmail('spaced'), password: '  a b c   ' });
    expect(spaced.status, JSON.stringify(spaced.body)).toBe(201);
  });
});
