import type { Logger } from '../../shared/logger.js';
import type { SqlClient } from '../../store/sql/sql-client.js';
import { DAY_MS, monthPeriodStart } from './quota-windows.js';

/** Aggregates are written at most this often: counting never costs a database write per request. */
export const USAGE_FLUSH_INTERVAL_MS = 5_000;

interface Aggregate {
  raw: number;
  weighted: number;
  lastUsedAtMs: number;
}

/**
 * Counts keyed requests in memory per (key, month) and flushes the sums in one
 * statement per interval (and at shutdown). A failed flush keeps the sums and
 * adds them to the next one.
 */
export class UsageRecorder {
  private pending = new Map<string, Aggregate>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** The billing month changes once a day at most: keep the last answer instead of formatting dates per request. */
  private period = { day: -1, start: '' };

  constructor(
    private readonly sql: SqlClient,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(keyId: string, weight: number): void {
    const nowMs = this.now();
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.period.day) this.period = { day, start: monthPeriodStart(nowMs) };
    const id = `${keyId}|${this.period.start}`;
    const aggregate = this.pending.get(id);
    if (aggregate) {
      aggregate.raw += 1;
      aggregate.weighted += weight;
      aggregate.lastUsedAtMs = nowMs;
    } else {
      this.pending.set(id, { raw: 1, weighted: weight, lastUsedAtMs: nowMs });
    }
  }

  /** Writes what has accumulated; concurrent calls share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows = [...batch].map(([id, aggregate]) => {
      const [keyId, periodStart] = id.split('|') as [string, string];
      return { key_id: keyId, period_start: periodStart, raw: aggregate.raw, weighted: aggregate.weighted, last_used_at: new Date(aggregate.lastUsedAtMs).toISOString() };
    });
    const payload = JSON.stringify(rows);
    try {
      // One transaction: a batch is either written whole or put back whole, never billed twice.
      await this.sql.transaction(async (tx) => {
        // Keys deleted since are skipped by the join; JSON travels as text (see store/pg conventions).
        await tx.query(
          `insert into api_key_usage_monthly (key_id, period_start, raw_requests, weighted_requests)
           select u.key_id, u.period_start::date, u.raw, u.weighted
           from jsonb_to_recordset($1::text::jsonb) as u(key_id uuid, period_start text, raw bigint, weighted bigint)
           join api_keys k on k.id = u.key_id
           on conflict (key_id, period_start) do update set
             raw_requests = api_key_usage_monthly.raw_requests + excluded.raw_requests,
             weighted_requests = api_key_usage_monthly.weighted_requests + excluded.weighted_requests`,
          [payload],
        );
        await tx.query(
          `update api_keys k set last_used_at = greatest(coalesce(k.last_used_at, u.last_used_at), u.last_used_at)
           from (select key_id, max(last_used_at) as last_used_at
                 from jsonb_to_recordset($1::text::jsonb) as r(key_id uuid, last_used_at timestamptz) group by key_id) u
           where k.id = u.key_id`,
          [payload],
        );
      });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message, keys: rows.length }, 'usage flush failed; retrying with the next one');
      for (const [id, aggregate] of batch) {
        const newer = this.pending.get(id);
        this.pending.set(id, newer ? { raw: newer.raw + aggregate.raw, weighted: newer.weighted + aggregate.weighted, lastUsedAtMs: newer.lastUsedAtMs } : aggregate);
      }
    }
  }
}
