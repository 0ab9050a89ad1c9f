import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../src/services/webhooks/webhook-dispatcher.js';
import type { SessionWebhooks } from '../src/services/navigation/navigation-sessions.js';
import { createNavigationWebhooks } from '../src/services/webhooks/navigation-webhooks.js';
import { registerWebhookMetrics } from '../src/services/webhooks/webhook-metrics.js';
import { listWebhookDeliveries } from '../src/services/webhooks/webhook-deliveries-view.js';
import { deriveWebhookSecret, verifyWebhookSignature } from '../src/services/webhooks/webhook-signature.js';
import { WebhookUrlPolicy } from '../src/services/webhooks/webhook-url-guard.js';
import { ApiError } from '../src/shared/errors.js';
import { NavigationSessionRepository } from '../src/store/pg/navigation-sessions.js';
import { loadOrCreateServerSecret } from '../src/store/pg/server-secrets.js';
import { WebhookDeliveryRepository } from '../src/store/pg/webhook-deliveries.js';
import { applyMigrations } from '../src/store/sql/migrate.js';
import { migrations } from '../src/store/sql/migrations/index.js';
import { createPgliteClient } from '../src/store/sql/pglite-client.js';
import { createPostgresClient } from '../src/store/sql/postgres-client.js';
import type { SqlClient } from '../src/store/sql/sql-client.js';
import { realServices, uniqueName } from './support/services.js';

/** One request as the receiver saw it. */
interface Received {
  headers: IncomingHttpHeaders;
  rawBody: string;
  seq: number;
  answeredStatus: number;
  receivedAtMs: number;
}

/** What the receiver answers to a request; 'hang' never answers. */
type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

/** A plain-http webhook receiver on 127.0.0.1 whose answers the test scripts per request. */
class Receiver {
  readonly received: Received[] = [];
  answer: (seq: number, attemptOfSeq: number) => Answer | Promise<Answer> = () => 204;
  private readonly hanging: ServerResponse[] = [];
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const seq = (JSON.parse(rawBody) as { seq: number }).seq;
      const attemptOfSeq = this.received.filter((entry) => entry.seq === seq).length + 1;
      const entry: Received = { headers: request.headers, rawBody, seq, answeredStatus: 0, receivedAtMs: Date.now() };
      this.received.push(entry);
      const scripted = await this.answer(seq, attemptOfSeq);
      const answer = typeof scripted === 'object' ? scripted.status : scripted;
      if (typeof scripted === 'object') for (const [name, value] of Object.entries(scripted.headers)) response.setHeader(name, value);
      entry.answeredStatus = answer === 'hang' ? 0 : answer;
      if (answer === 'hang') {
        this.hanging.push(response);
        return;
      }
      if (answer >= 300 && answer < 400) response.setHeader('location', `${this.url}/elsewhere`);
      response.writeHead(answer).end('ok');
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/nav`;
  }

  /** Seqs of the requests answered 2xx, in arrival order. */
  acceptedSeqs(): number[] {
    return this.received.filter((entry) => entry.answeredStatus >= 200 && entry.answeredStatus < 300).map((entry) => entry.seq);
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const clients: SqlClient[] = [];
const schemasToDrop: string[] = [];
const receivers: Receiver[] = [];
const dispatchers: WebhookDispatcher[] = [];

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  if (schemasToDrop.length) {
    const admin = createPostgresClient({ url: realServices.databaseUrl, schema: 'public' });
    for (const schema of schemasToDrop) await admin.exec(`drop schema if exists "${schema}" cascade`);
    await admin.close();
  }
});

async function openDatabase(kind: 'pglite' | 'postgres'): Promise<SqlClient> {
  const schema = uniqueName('wh').toLowerCase();
  let sql: SqlClient;
  if (kind === 'pglite') {
    sql = await createPgliteClient({ dataDir: 'memory://', schema });
  } else {
    schemasToDrop.push(schema);
    sql = createPostgresClient({ url: realServices.databaseUrl, schema, maxConnections: 4 });
  }
  clients.push(sql);
  await applyMigrations(sql, schema, migrations);
  return sql;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = new Receiver();
  await receiver.start();
  receivers.push(receiver);
  return receiver;
}

/** A session row with every NOT NULL column of migration 6 filled. */
async function insertSession(sql: SqlClient, webhookUrl: string): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `insert into nav_sessions (id, owner_kind, owner_id, status, request, route, progress, webhook_url, revision, owner_process, expires_at)
     values ($1, 'user', 'user-1', 'active', '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, $2, 1, 'test-process', now() + interval '1 hour')`,
    [id, webhookUrl],
  );
  return id;
}

const EVENT_TYPES = ['maneuver_approaching', 'maneuver_completed', 'off_route', 'rerouted', 'arrived'];

async function appendEvents(sql: SqlClient, sessionId: string, seqs: number[]): Promise<void> {
  for (const seq of seqs) {
    await sql.query('insert into nav_session_events (session_id, seq, type, at, data) values ($1, $2, $3, $4, $5::text::jsonb)', [
      sessionId,
      seq,
      EVENT_TYPES[seq % EVENT_TYPES.length],
      new Date(Date.UTC(2026, 0, 1, 8, 0, seq)).toISOString(),
      JSON.stringify({ maneuverIndex: seq, instruction: `Turn ${seq % 2 ? 'left' : 'right'} onto شارع عباس العقاد` }),
    ]);
  }
}

const FAST_RETRY = { initialDelayMs: 20, maxDelayMs: 80, maxRetryAfterMs: 200, maxAttempts: 5, maxAgeMs: 60_000, jitterRatio: 0.2 };

function newDispatcher(sql: SqlClient, overrides: Partial<WebhookDispatcherOptions> = {}): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher({
    outbox: new NavigationSessionRepository(sql),
    deliveryLog: new WebhookDeliveryRepository(sql),
    urlPolicy: new WebhookUrlPolicy({ allowedHosts: ['127.0.0.1'] }),
    retry: FAST_RETRY,
    attemptTimeoutMs: 2_000,
    ...overrides,
  });
  dispatchers.push(dispatcher);
  return dispatcher;
}

async function sessionSecret(sql: SqlClient, sessionId: string): Promise<string> {
  return deriveWebhookSecret(await loadOrCreateServerSecret(sql, 'webhook-signing'), sessionId);
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(['pglite', 'postgres'] as const)('navigation webhooks on %s', (kind) => {
  let sql: SqlClient;

  beforeAll(async () => {
    sql = await openDatabase(kind);
  });

  it('delivers every event once, in seq order, signed, and logs each attempt', async () => {
    const receiver = await startReceiver();
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1, 2, 3, 4, 5]);
    const secret = await sessionSecret(sql, sessionId);
    const dispatcher = newDispatcher(sql);

    dispatcher.notify({ sessionId, url: receiver.url, secret });
    dispatcher.notify({ sessionId, url: receiver.url, secret });
    await dispatcher.whenIdle(sessionId);

    expect(receiver.received.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
    for (const entry of receiver.received) {
      expect(verifyWebhookSignature(secret, entry.headers, entry.rawBody)).toMatchObject({ valid: true, webhookId: `${sessionId}:${entry.seq}` });
      expect(entry.headers['content-type']).toBe('application/json');
      expect(entry.headers['user-agent']).toMatch(/Webhooks/);
    }
    expect(JSON.parse(receiver.received[0]!.rawBody)).toEqual({
      sessionId,
      seq: 1,
      type: 'maneuver_completed',
      at: '2026-01-01T08:00:01.000Z',
      data: { maneuverIndex: 1, instruction: 'Turn left onto شارع عباس العقاد' },
    });

    const listing = await listWebhookDeliveries(new WebhookDeliveryRepository(sql), sessionId);
    expect(listing.count).toBe(5);
    expect(listing.deliveries.map((delivery) => delivery.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(listing.deliveries[0]).toMatchObject({ webhookId: `${sessionId}:5`, attempt: 1, outcome: 'delivered', httpStatus: 204, error: null });
    expect(listing.deliveries[0]!.attemptedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('wired from config: processes agree on the session secret; bad URLs are a 400 at creation', async () => {
    const receiver = await startReceiver();
    const config = { WEBHOOK_ALLOWED_HOSTS: ['127.0.0.1'] };
    const [processA, processB] = await Promise.all([createNavigationWebhooks(sql, config), createNavigationWebhooks(sql, config)]);
    // What the session service expects of its webhook side.
    const asSessionWebhooks: SessionWebhooks = processA;
    dispatchers.push(processA.dispatcher, processB.dispatcher);
    const sessionId = await insertSession(sql, processA.assertUsableUrl(receiver.url));
    expect(processB.secretFor(sessionId)).toBe(asSessionWebhooks.secretFor(sessionId));
    expect(() => processA.assertUsableUrl('https://10.0.0.8/hook')).toThrow(ApiError);
    expect(() => processA.assertUsableUrl('http://hooks.example.com/hook')).toThrow('webhookUrl: must be an https URL');

    await appendEvents(sql, sessionId, [1, 2]);
    processB.onEvents({ id: sessionId, webhookUrl: receiver.url });
    await processB.dispatcher.whenIdle(sessionId);

    for (const entry of receiver.received) expect(verifyWebhookSignature(processA.secretFor(sessionId), entry.headers, entry.rawBody).valid).toBe(true);
    const listing = await processA.list(sessionId, 1);
    expect(listing).toMatchObject({ sessionId, count: 1, deliveries: [{ seq: 2, outcome: 'delivered' }] });
  });

  it('holds later events until a failing event is delivered, then sends them in order', async () => {
    const receiver = await startReceiver();
    receiver.answer = (seq, attemptOfSeq) => (seq === 2 && attemptOfSeq <= 2 ? 503 : 200);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1, 2, 3]);
    const secret = await sessionSecret(sql, sessionId);
    const registry = new Registry();
    const dispatcher = newDispatcher(sql, { observeAttempt: registerWebhookMetrics(registry) });

    dispatcher.notify({ sessionId, url: receiver.url, secret });
    await eventually(() => receiver.received.length >= 2);
    // A new event committed while seq 2 is being retried must still come after it.
    await appendEvents(sql, sessionId, [4]);
    dispatcher.notify({ sessionId, url: receiver.url, secret });
    await dispatcher.whenIdle(sessionId);

    expect(receiver.received.map((entry) => [entry.seq, entry.answeredStatus])).toEqual([
      [1, 200],
      [2, 503],
      [2, 503],
      [2, 200],
      [3, 200],
      [4, 200],
    ]);
    const secondEventIds = receiver.received.filter((entry) => entry.seq === 2).map((entry) => entry.headers['webhook-id']);
    expect(new Set(secondEventIds)).toEqual(new Set([`${sessionId}:2`]));
    const log = await new WebhookDeliveryRepository(sql).listForSession(sessionId, 100);
    expect(log.filter((row) => row.seq === 2).map((row) => [row.attempt, row.outcome, row.httpStatus, row.error])).toEqual([
      [3, 'delivered', 200, null],
      [2, 'retrying', 503, 'HTTP 503'],
      [1, 'retrying', 503, 'HTTP 503'],
    ]);
    const metrics = await registry.metrics();
    expect(metrics).toContain('webhook_delivery_attempts_total{outcome="delivered"} 4');
    expect(metrics).toContain('webhook_delivery_attempts_total{outcome="retrying"} 2');
    expect(metrics).toContain('webhook_delivery_attempt_duration_seconds_count 6');
  });

  it('gives up on an event the receiver refuses (4xx) or redirects, logs it failed, and goes on', async () => {
    const receiver = await startReceiver();
    receiver.answer = (seq) => (seq === 1 ? 422 : seq === 2 ? 302 : 200);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1, 2, 3]);
    const dispatcher = newDispatcher(sql);

    dispatcher.notify({ sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) });
    await dispatcher.whenIdle(sessionId);

    // One attempt each; the redirect target is never requested.
    expect(receiver.received.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    const log = await new WebhookDeliveryRepository(sql).listForSession(sessionId);
    expect(log.map((row) => [row.seq, row.outcome, row.httpStatus, row.error])).toEqual([
      [3, 'delivered', 200, null],
      [2, 'failed', 302, 'redirects are not followed'],
      [1, 'failed', 422, 'HTTP 422'],
    ]);
  });

  it('gives up after the last attempt, then tries later events once each until the endpoint recovers', async () => {
    const receiver = await startReceiver();
    let healthy = false;
    receiver.answer = () => (healthy ? 200 : 500);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1, 2]);
    const dispatcher = newDispatcher(sql);
    const target = { sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) };

    dispatcher.notify(target);
    await dispatcher.whenIdle(sessionId);
    expect(receiver.received.map((entry) => entry.seq)).toEqual([1, 1, 1, 1, 1, 2]);

    healthy = true;
    await appendEvents(sql, sessionId, [3, 4]);
    dispatcher.notify(target);
    await dispatcher.whenIdle(sessionId);
    expect(receiver.acceptedSeqs()).toEqual([3, 4]);
    const outcomes = (await new WebhookDeliveryRepository(sql).listForSession(sessionId)).map((row) => `${row.seq}/${row.attempt}:${row.outcome}`);
    expect(outcomes.reverse()).toEqual([
      '1/1:retrying',
      '1/2:retrying',
      '1/3:retrying',
      '1/4:retrying',
      '1/5:failed',
      '2/1:failed',
      '3/1:delivered',
      '4/1:delivered',
    ]);
  });

  it('waits as long as Retry-After asks, up to its cap', async () => {
    const receiver = await startReceiver();
    receiver.answer = (_seq, attemptOfSeq) => (attemptOfSeq === 1 ? { status: 429, headers: { 'retry-after': '30' } } : 200);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1]);
    // Backoff alone would wait about 20 ms; Retry-After asks 30 s, capped here at 400 ms.
    const dispatcher = newDispatcher(sql, { retry: { ...FAST_RETRY, maxRetryAfterMs: 400 } });

    dispatcher.notify({ sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) });
    await dispatcher.whenIdle(sessionId);

    expect(receiver.received.map((entry) => entry.answeredStatus)).toEqual([429, 200]);
    const waitedMs = receiver.received[1]!.receivedAtMs - receiver.received[0]!.receivedAtMs;
    expect(waitedMs).toBeGreaterThanOrEqual(380);
    expect(waitedMs).toBeLessThan(5_000);
  });

  it('retries an attempt that times out', async () => {
    const receiver = await startReceiver();
    receiver.answer = (_seq, attemptOfSeq) => (attemptOfSeq === 1 ? 'hang' : 200);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1]);
    const dispatcher = newDispatcher(sql, { attemptTimeoutMs: 300 });

    dispatcher.notify({ sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) });
    await dispatcher.whenIdle(sessionId);

    const log = await new WebhookDeliveryRepository(sql).listForSession(sessionId);
    expect(log.map((row) => [row.attempt, row.outcome, row.httpStatus, row.error])).toEqual([
      [2, 'delivered', 200, null],
      [1, 'retrying', null, 'timed out after 300 ms'],
    ]);
    expect(log[1]!.durationMs).toBeGreaterThanOrEqual(250);
  });

  it('refuses to deliver to a private address that is not allow-listed, without sending anything', async () => {
    const receiver = await startReceiver();
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1]);
    const dispatcher = newDispatcher(sql, { urlPolicy: new WebhookUrlPolicy() });

    dispatcher.notify({ sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) });
    await dispatcher.whenIdle(sessionId);

    expect(receiver.received).toEqual([]);
    const log = await new WebhookDeliveryRepository(sql).listForSession(sessionId);
    expect(log).toMatchObject([{ seq: 1, attempt: 1, outcome: 'failed', httpStatus: null, error: 'must be an https URL' }]);
  });

  it('connects to the address it validated, not to a fresh DNS answer', async () => {
    const receiver = await startReceiver();
    // The system resolver knows nothing of this name: a request that resolved it again would fail.
    const url = `http://pinned.webhook.test:${receiver.port}/hooks/nav`;
    const sessionId = await insertSession(sql, url);
    await appendEvents(sql, sessionId, [1]);
    // The first validated address has no listener (the receiver binds 127.0.0.1 only): the client moves on to the next one.
    const urlPolicy = new WebhookUrlPolicy({
      allowedHosts: ['pinned.webhook.test'],
      resolveHost: async () => [
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const dispatcher = newDispatcher(sql, { urlPolicy });

    dispatcher.notify({ sessionId, url, secret: await sessionSecret(sql, sessionId) });
    await dispatcher.whenIdle(sessionId);

    expect(receiver.acceptedSeqs()).toEqual([1]);
    expect(receiver.received[0]!.headers.host).toBe(`pinned.webhook.test:${receiver.port}`);
    expect((await new WebhookDeliveryRepository(sql).listForSession(sessionId)).map((row) => row.outcome)).toEqual(['delivered']);
  });

  it('a new dispatcher resumes after the last settled event, continuing the attempt count of an unsettled one', async () => {
    const receiver = await startReceiver();
    let failSeq3 = true;
    receiver.answer = (seq) => (seq === 3 && failSeq3 ? 503 : 200);
    const sessionId = await insertSession(sql, receiver.url);
    await appendEvents(sql, sessionId, [1, 2, 3, 4]);
    const secret = await sessionSecret(sql, sessionId);
    const repository = new WebhookDeliveryRepository(sql);
    const first = newDispatcher(sql, { retry: { ...FAST_RETRY, initialDelayMs: 60_000, maxDelayMs: 60_000, maxAgeMs: 3_600_000 } });

    first.notify({ sessionId, url: receiver.url, secret });
    await eventually(async () => (await repository.listForSession(sessionId)).some((row) => row.seq === 3));
    // The process "dies" while seq 3 waits for its second attempt.
    await first.close();
    expect(receiver.received.map((entry) => entry.seq)).toEqual([1, 2, 3]);

    failSeq3 = false;
    const second = newDispatcher(sql);
    second.notify({ sessionId, url: receiver.url, secret });
    await second.whenIdle(sessionId);
    expect(receiver.acceptedSeqs()).toEqual([1, 2, 3, 4]);
    expect(receiver.received.map((entry) => entry.seq)).toEqual([1, 2, 3, 3, 4]);
    const seq3 = (await repository.listForSession(sessionId)).filter((row) => row.seq === 3);
    expect(seq3.map((row) => [row.attempt, row.outcome])).toEqual([
      [2, 'delivered'],
      [1, 'retrying'],
    ]);

    // A third process with nothing new sends nothing.
    const third = newDispatcher(sql);
    third.notify({ sessionId, url: receiver.url, secret });
    await third.whenIdle(sessionId);
    expect(receiver.received).toHaveLength(5);
  });

  it('resumePending wakes only sessions with undelivered events, ended ones included', async () => {
    const ownSql = await openDatabase(kind);
    const receiver = await startReceiver();
    const config = { WEBHOOK_ALLOWED_HOSTS: ['127.0.0.1'] };
    const before = await createNavigationWebhooks(ownSql, config, undefined, { retry: FAST_RETRY });
    dispatchers.push(before.dispatcher);
    const delivered = await insertSession(ownSql, receiver.url);
    const ended = await insertSession(ownSql, receiver.url);
    await ownSql.query(`update nav_sessions set status = 'arrived' where id = $1`, [ended]);
    const noWebhook = await insertSession(ownSql, receiver.url);
    await ownSql.query('update nav_sessions set webhook_url = null where id = $1', [noWebhook]);
    for (const sessionId of [delivered, ended, noWebhook]) await appendEvents(ownSql, sessionId, [1, 2]);
    before.notify(delivered, receiver.url);
    await before.dispatcher.whenIdle(delivered);
    // The process dies before it could notify `ended`.
    await before.close();

    const after = await createNavigationWebhooks(ownSql, config, undefined, { retry: FAST_RETRY });
    dispatchers.push(after.dispatcher);
    expect(await after.resumePending()).toBe(1);
    await after.dispatcher.whenIdle(ended);

    const bySession = (sessionId: string) => receiver.received.filter((entry) => JSON.parse(entry.rawBody).sessionId === sessionId).map((entry) => entry.seq);
    expect(bySession(delivered)).toEqual([1, 2]);
    expect(bySession(ended)).toEqual([1, 2]);
    expect(bySession(noWebhook)).toEqual([]);
    expect(await after.resumePending()).toBe(0);
  });

  it('keeps sessions independent and bounds concurrent deliveries', async () => {
    const receiver = await startReceiver();
    let inFlight = 0;
    let mostInFlight = 0;
    receiver.answer = async () => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 40));
      inFlight--;
      return 200;
    };
    const sessions = await Promise.all([1, 2, 3, 4].map(() => insertSession(sql, receiver.url)));
    for (const sessionId of sessions) await appendEvents(sql, sessionId, [1, 2, 3]);
    const dispatcher = newDispatcher(sql, { maxConcurrentDeliveries: 2 });

    for (const sessionId of sessions) dispatcher.notify({ sessionId, url: receiver.url, secret: await sessionSecret(sql, sessionId) });
    await Promise.all(sessions.map((sessionId) => dispatcher.whenIdle(sessionId)));

    expect(receiver.received).toHaveLength(12);
    for (const sessionId of sessions) {
      const seqs = receiver.received.filter((entry) => JSON.parse(entry.rawBody).sessionId === sessionId).map((entry) => entry.seq);
      expect(seqs).toEqual([1, 2, 3]);
    }
    expect(mostInFlight).toBe(2);
  });
});
