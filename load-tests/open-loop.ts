/**
 * An open-loop HTTP load generator: every family of requests runs on a fixed send schedule (request k of a
 * family at rate r is due at start + k / r seconds), whatever the server does, and each latency is measured from
 * the request's scheduled send time, so a stall of the server (or of this generator) shows as latency for every
 * request it delayed instead of hiding as fewer requests sent (coordinated omission).
 */
import { Agent, request } from 'node:http';

export interface HttpCall {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface HttpAnswer {
  /** HTTP status, or 0 when the request failed (connection error or timeout). */
  status: number;
  body: string;
  /** The failure when `status` is 0. */
  failure?: string;
}

/** Outcomes per family: latencies of every finished request, counts per status. */
export class OutcomeRecorder {
  private readonly latencies = new Map<string, number[]>();
  private readonly statuses = new Map<string, Map<number, number>>();
  private readonly failures = new Map<string, string>();
  /** Recording is off during the warm-up. */
  recording = false;

  record(family: string, status: number, latencyMs: number, failure?: string): void {
    if (!this.recording) return;
    let latencies = this.latencies.get(family);
    if (!latencies) this.latencies.set(family, (latencies = []));
    latencies.push(latencyMs);
    let counts = this.statuses.get(family);
    if (!counts) this.statuses.set(family, (counts = new Map()));
    counts.set(status, (counts.get(status) ?? 0) + 1);
    if (status === 0 || status >= 400) this.failures.set(`${family} ${status}`, failure ?? '');
  }

  summary(): FamilySummary[] {
    return [...this.latencies.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([family, latencies]) => {
        const sorted = Float64Array.from(latencies).sort();
        const counts = this.statuses.get(family)!;
        const countOf = (test: (status: number) => boolean) => [...counts.entries()].filter(([status]) => test(status)).reduce((sum, [, count]) => sum + count, 0);
        return {
          family,
          requests: sorted.length,
          p50Ms: quantile(sorted, 0.5),
          p99Ms: quantile(sorted, 0.99),
          maxMs: sorted.length ? sorted[sorted.length - 1]! : NaN,
          statuses: Object.fromEntries([...counts.entries()].sort(([a], [b]) => a - b)),
          serverErrors: countOf((status) => status >= 500),
          clientErrors: countOf((status) => status >= 400 && status < 500),
          failures: countOf((status) => status === 0),
        };
      });
  }

  /** One example body or failure per family and status that was not a success (for the report). */
  failureExamples(): Record<string, string> {
    return Object.fromEntries(this.failures);
  }
}

export interface FamilySummary {
  family: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<number, number>;
  serverErrors: number;
  clientErrors: number;
  /** Connection errors and timeouts. */
  failures: number;
}

export function quantile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/**
 * A keep-alive HTTP client for one server address. Idle connections are dropped after 5 s (as Node's own global
 * agent does): the server (uWebSockets.js) closes a connection idle for 8–12 s, and a client that reuses one just
 * as the server closes it gets ECONNRESET for a request the server never saw.
 */
export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 5_000 });

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 30_000,
  ) {}

  call(call: HttpCall): Promise<HttpAnswer> {
    return new Promise((resolve) => {
      const headers: Record<string, string | number> = { ...call.headers };
      if (call.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        headers['content-length'] = Buffer.byteLength(call.body);
      }
      const outgoing = request({ host: this.host, port: this.port, method: call.method, path: call.path, headers, agent: this.agent, timeout: this.timeoutMs }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        incoming.on('error', (error) => resolve({ status: 0, body: '', failure: error.message }));
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`timed out after ${this.timeoutMs} ms`)));
      outgoing.on('error', (error) => resolve({ status: 0, body: '', failure: error.message }));
      outgoing.end(call.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** One family of the mix: its rate and what its k-th scheduled unit of work does. */
export interface OpenLoopFamily {
  name: string;
  ratePerSecond: number;
  /** Runs unit `index`, due at `scheduledAt` (performance.now() ms); records its own outcomes. */
  run(index: number, scheduledAt: number): Promise<void>;
}

/** A family of single requests: `next(k)` names request k; latency from its scheduled time. */
export function requestFamily(name: string, ratePerSecond: number, client: HttpClient, recorder: OutcomeRecorder, next: (index: number) => HttpCall): OpenLoopFamily {
  return {
    name,
    ratePerSecond,
    async run(index, scheduledAt) {
      const answer = await client.call(next(index));
      recorder.record(name, answer.status, performance.now() - scheduledAt, answer.failure ?? answer.body.slice(0, 200));
    },
  };
}

/**
 * Drives `families` on their schedules until `stopAt` (performance.now() ms); resolves once every unit started
 * has finished. A tick every few milliseconds starts what has come due, so the schedule never waits for answers.
 */
export async function driveOpenLoop(families: readonly OpenLoopFamily[], stopAt: number, tickMs = 5): Promise<{ started: number }> {
  const startAt = performance.now();
  const sent = families.map(() => 0);
  const inFlight = new Set<Promise<void>>();
  let started = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = Math.min(performance.now(), stopAt);
      families.forEach((family, position) => {
        if (family.ratePerSecond <= 0) return;
        // unit k is due at k / rate seconds: k + 1 units are due once that time has come
        const due = Math.floor(((now - startAt) * family.ratePerSecond) / 1000) + 1;
        while (sent[position]! < due) {
          const index = sent[position]!++;
          const unit = family.run(index, startAt + (index * 1000) / family.ratePerSecond).catch(() => undefined);
          inFlight.add(unit);
          void unit.finally(() => inFlight.delete(unit));
          started++;
        }
      });
      if (performance.now() >= stopAt) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, tickMs);
  });
  await Promise.all([...inFlight]);
  return { started };
}
