import { describe, expect, it } from 'vitest';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';
import { readJson } from './support/services.js';

/**
 * Input no field may hold (issue #22, faults 1, 2, 3 and 7): each reached the database or a serialiser and
 * answered 500. Every one is now a 400 VALIDATION_ERROR (or a 404) with the error body of spec part 1 §7.
 */
const fixture = useServer();
const api = fixture.api;

const ORIGIN = { lat: 30.0626, lng: 31.3219 };
const DESTINATION = { lat: 30.07, lng: 31.34 };

function expectFieldRefused(response: { status: number; body: any }, field: string, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_ERROR', requestId: expect.any(String) });
  expect(response.body.message).toEqual([expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}: `))]);
  expect(response.body.details.issues).toEqual([expect.objectContaining({ code })]);
}

/** A JSON text nested `depth` objects deep (JSON.stringify itself overflows long before 5 000). */
function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('NUL characters', () => {
  it('are refused in every text field with 400 naming the field, before the database sees them', async () => {
    const { token } = await registerUser(api, 'nul');
    expectFieldRefused(await api.post('/me/saved-places', { name: 'a\u0000b', lat: 30, lng: 31 }, token), 'name', 'invalid_characters');
    expectFieldRefused(await api.post('/me/saved-places', { name: 'ok', lat: 30, lng: 31, tags: ['x', 'y\u0000'] }, token), 'tags.1', 'invalid_characters');
    expectFieldRefused(await api.post('/me/saved-lists', { name: '\u0000' }, token), 'name', 'invalid_characters');
    expectFieldRefused(await api.post('/me/history', { kind: 'search', query: 'a\u0000' }, token), 'query', 'invalid_characters');
    expectFieldRefused(await api.patch('/auth/me', { name: 'x\u0000y' }, token), 'name', 'invalid_characters');
    // a field name holding one is refused too
    expectFieldRefused(await api.patch('/auth/me', { ['na\u0000me']: 'x' }, token), 'na\u0000me', 'invalid_characters');
    // query and path values are decoded at the same boundary
    expectFieldRefused(await api.get('/me/history?kind=search%00', token), 'query.kind', 'invalid_characters');
    expectFieldRefused(await api.delete('/me/saved-places/a%00b', token), 'params.id', 'invalid_characters');
    // and nothing was stored
    expect((await api.get('/me/saved-places', token)).body.items).toEqual([]);
  });
});

describe('unpaired UTF-16 surrogates', () => {
  it('are refused in fields stored as JSON with 400 naming the field', async () => {
    const { token } = await registerUser(api, 'surrogate');
    expectFieldRefused(await api.patch('/auth/me', { avatar: { type: 'emoji', value: '\ud83d' } }, token), 'avatar.value', 'invalid_characters');
    expectFieldRefused(await api.patch('/auth/me', { avatar: { type: 'emoji', value: 'x\ude00' } }, token), 'avatar.value', 'invalid_characters');
    expectFieldRefused(
      await api.post('/navigation/sessions', { origin: ORIGIN, destination: { ...DESTINATION, name: '\ud83d' } }, token),
      'destination.name',
      'invalid_characters',
    );
    // a pair is a character like any other
    const emoji = await api.patch('/auth/me', { avatar: { type: 'emoji', value: '\ud83d\ude00' } }, token);
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(200);
    expect(emoji.body.user.profile.avatar.value).toBe('😀');
  });
});

describe('names of the prototype', () => {
  it('are unknown documentation assets: 404 with the error body, not 500', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const response = await fetch(`${fixture.server.baseUrl}/docs/${name}`);
      expect(response.status, name).toBe(404);
      expect(await readJson(response)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', requestId: expect.any(String) });
    }
    expect((await fetch(`${fixture.server.baseUrl}/docs/swagger-ui.css`)).status).toBe(200);
  });
});

describe('deeply nested JSON', () => {
  it('is refused past 64 levels on every JSON body with 400, the developer sandbox included', async () => {
    const developer = await registerUser(api, 'deep');
    await api.post('/developer/enroll', undefined, developer.token);
    const organization = (await api.post('/developer/organizations', { name: 'Deep' }, developer.token)).body;
    const project = (await api.post('/developer/projects', { name: 'Nest', organizationId: organization.id }, developer.token)).body;
    const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'k' }, developer.token)).body;
    const post = (path: string, text: string) =>
      fetch(`${fixture.server.baseUrl}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${developer.token}` }, body: text });

    const sandbox = await post('/developer/sandbox', `{"apiKeyId":"${key.id}","path":"/routing/route","method":"POST","body":${nestedJson(5_000)}}`);
    const refused = await readJson(sandbox);
    expect(sandbox.status, JSON.stringify(refused).slice(0, 300)).toBe(400);
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ location: 'body', code: 'too_deep' }] } });

    const place = await post('/me/saved-places', `{"name":"x","lat":30,"lng":31,"tags":${'['.repeat(200)}${']'.repeat(200)}}`);
    expect(place.status).toBe(400);
    expect((await readJson(place)).details.issues[0].code).toBe('too_deep');

    // 64 levels in all (the sandbox's own object is the first) are fine as far as nesting goes
    const shallow = await post('/developer/sandbox', `{"apiKeyId":"${key.id}","path":"/routing/route","method":"POST","body":${nestedJson(63)}}`);
    const answered = await readJson(shallow);
    expect(shallow.status, JSON.stringify(answered).slice(0, 300)).toBe(201);
    expect(answered.status).toBe(400);
    expect(JSON.stringify(answered.body)).not.toContain('too_deep');
  });
});
