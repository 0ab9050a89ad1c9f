import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, PASSWORD, uniqueEmail, type ApiClient } from './support/api-client.js';
import { runServerToExit, startServerProcess, type ServerProcess, serverTestTimeout } from './support/server-process.js';

const SECRET = 'captcha-secret-0123456789';
const SITE_KEY = 'captcha-site-key';
/** Tokens the local verifier understands; anything else is a token it never issued. */
const GOOD = 'solved-captcha';
/** Short enough for a quick test, long enough for a first outbound request on a loaded machine. */
const TIMEOUT_MS = 2_500;

/**
 * A local hCaptcha / Turnstile-compatible `siteverify` endpoint: POST form
 * `secret`, `response`, `remoteip`; JSON `{ success, "error-codes" }`. Special
 * tokens make it misbehave.
 */
class LocalVerifier {
  url = '';
  readonly requests: URLSearchParams[] = [];
  private readonly server: Server = createServer((request, response) => void this.handle(request, response));

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/siteverify`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const form = new URLSearchParams(raw);
    this.requests.push(form);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.headers['content-type'] !== 'application/x-www-form-urlencoded') return json(405, {});
    const token = form.get('response');
    if (form.get('secret') !== SECRET) return json(200, { success: false, 'error-codes': ['invalid-input-secret'] });
    if (token === GOOD) return json(200, { success: true, hostname: 'localhost', 'error-codes': [] });
    if (token === 'hang') return; // never answers
    if (token === 'secret-trouble') return json(200, { success: false, 'error-codes': ['invalid-input-secret'] });
    if (token === 'crash') return json(500, { error: 'boom' });
    if (token === 'huge') return json(200, { success: true, padding: 'x'.repeat(1024 * 1024) });
    if (token === 'not-json') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return void response.end('<html>maintenance</html>');
    }
    json(200, { success: false, 'error-codes': ['invalid-input-response'] });
  }
}

const verifier = new LocalVerifier();
let server: ServerProcess;
let api: ApiClient;

beforeAll(async () => {
  await verifier.start();
  server = await startServerProcess({ CAPTCHA_SITE_KEY: SITE_KEY, CAPTCHA_SECRET: SECRET, CAPTCHA_VERIFY_URL: verifier.url, CAPTCHA_TIMEOUT_MS: String(TIMEOUT_MS) });
  api = apiClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
  await verifier.stop().catch(() => undefined);
});

const newAccount = () => ({ email: uniqueEmail('captcha'), password: PASSWORD, name: 'Captcha' });

describe('captcha on the browser sign-in form', () => {
  it('reports the captcha as enabled with its site key', async () => {
    const response = await api.get('/auth/providers');
    expect(response.status).toBe(200);
    expect(response.body.captcha).toEqual({ enabled: true, siteKey: SITE_KEY });
  });

  it('registers and logs in with a solved captcha, sending secret, token and client address to the verifier', async () => {
    const account = newAccount();
    const registered = await api.post('/auth/register', { ...account, captchaToken: GOOD });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const sent = verifier.requests.at(-1)!;
    expect(Object.fromEntries(sent)).toEqual({ secret: SECRET, response: GOOD, remoteip: '127.0.0.1' });
    const login = await api.post('/auth/login', { email: account.email, password: PASSWORD, captchaToken: GOOD });
    expect(login.status).toBe(201);
    expect((await api.get('/auth/me', login.body.accessToken)).status).toBe(200);
  });

  it('refuses a missing token with 400 CAPTCHA_FAILED without asking the verifier', async () => {
    const before = verifier.requests.length;
    for (const body of [newAccount(), { ...newAccount(), captchaToken: '' }]) {
      const response = await api.post('/auth/register', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'CAPTCHA_FAILED', details: { reason: 'missing_token' } });
    }
    const login = await api.post('/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD });
    expect(login.status).toBe(400);
    expect(login.body.code).toBe('CAPTCHA_FAILED');
    expect(verifier.requests.length).toBe(before);
  });

  it('refuses a token the verifier rejects with 400 CAPTCHA_FAILED and its error codes, creating nothing', async () => {
    const account = newAccount();
    const response = await api.post('/auth/register', { ...account, captchaToken: 'forged' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'CAPTCHA_FAILED', details: { reason: 'rejected', errorCodes: ['invalid-input-response'] } });
    // The account was not created: registering it properly still works.
    expect((await api.post('/auth/register', { ...account, captchaToken: GOOD })).status).toBe(201);
    const login = await api.post('/auth/login', { email: account.email, password: PASSWORD, captchaToken: 'forged' });
    expect(login.status).toBe(400);
    expect(login.body.code).toBe('CAPTCHA_FAILED');
  });

  it('does not count captcha failures toward the sign-in lockout', async () => {
    const account = newAccount();
    expect((await api.post('/auth/register', { ...account, captchaToken: GOOD })).status).toBe(201);
    for (let attempt = 0; attempt < 12; attempt++) {
      expect((await api.post('/auth/login', { email: account.email, password: 'wrong password!', captchaToken: 'forged' })).body.code).toBe('CAPTCHA_FAILED');
    }
    expect((await api.post('/auth/login', { email: account.email, password: PASSWORD, captchaToken: GOOD })).status).toBe(201);
  });

  it('never asks an API-key caller for a captcha (spec part 1 §4.2 rule 2), but refuses an unknown key', async () => {
    const owner = await api.post('/auth/register', { ...newAccount(), captchaToken: GOOD });
    const token = owner.body.accessToken;
    await api.post('/developer/enroll', undefined, token);
    const organization = (await api.post('/developer/organizations', { name: 'Captcha Org' }, token)).body;
    const project = (await api.post('/developer/projects', { name: 'Captcha App', organizationId: organization.id }, token)).body;
    const key = (await api.post('/developer/api-keys', { projectId: project.id, label: 'signup', scopes: {} }, token)).body.key as string;
    expect(key).toEqual(expect.any(String));

    const account = newAccount();
    const registered = await api.post('/auth/register', account, undefined, { 'x-api-key': key });
    expect(registered.status).toBe(201);
    const login = await api.post('/auth/login', { email: account.email, password: PASSWORD }, undefined, { 'x-api-key': key });
    expect(login.status).toBe(201);

    const unknownKey = await api.post('/auth/register', newAccount(), undefined, { 'x-api-key': `${key.slice(0, -4)}zzzz` });
    expect(unknownKey.status).toBe(401);
  });

  it('fails closed with 503 CAPTCHA_UNAVAILABLE when the verifier errs, answers nonsense or refuses our secret', async () => {
    for (const [captchaToken, reason] of [
      ['crash', 'verifier_unavailable'],
      ['huge', 'verifier_unavailable'],
      ['not-json', 'verifier_unavailable'],
      ['secret-trouble', 'verifier_misconfigured'],
    ] as const) {
      const response = await api.post('/auth/register', { ...newAccount(), captchaToken });
      expect(response.status, captchaToken).toBe(503);
      expect(response.body).toMatchObject({ code: 'CAPTCHA_UNAVAILABLE', details: { reason } });
      expect(response.headers.get('retry-after')).toBe('5');
    }
  });

  it('gives up on a verifier that does not answer within CAPTCHA_TIMEOUT_MS', async () => {
    const started = Date.now();
    const response = await api.post('/auth/login', { email: uniqueEmail('slow'), password: PASSWORD, captchaToken: 'hang' });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'CAPTCHA_UNAVAILABLE', details: { reason: 'verifier_timeout' } });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 5_000);
  });

  it('never writes the captcha secret to the log', () => {
    expect(server.output.join('\n')).not.toContain(SECRET);
  });

  // Last: the verifier goes away for good.
  it('fails closed with 503 CAPTCHA_UNAVAILABLE when the verifier is down', async () => {
    await verifier.stop();
    const response = await api.post('/auth/register', { ...newAccount(), captchaToken: GOOD });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'CAPTCHA_UNAVAILABLE', details: { reason: 'verifier_unavailable' } });
  });
});

describe('captcha configuration', () => {
  it('refuses to start with half a captcha configuration (exit 78), naming the missing settings', { timeout: serverTestTimeout(1) }, async () => {
    const result = await runServerToExit({ CAPTCHA_SITE_KEY: SITE_KEY });
    expect(result.code).toBe(78);
    expect(result.output).toContain('CAPTCHA_SECRET');
    expect(result.output).toContain('CAPTCHA_VERIFY_URL');
  });
});
