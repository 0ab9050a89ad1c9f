import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** One delivery attempt of one navigation event. */
export interface WebhookAttemptRecord {
  sessionId: string;
  seq: number;
  /** 1-based attempt number for this event. */
  attempt: number;
  outcome: WebhookAttemptOutcome;
  /** The receiver's status; null when no response came (network error, timeout, refused address). */
  httpStatus: number | null;
  /** Short reason when not delivered; null otherwise. */
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
}

/** Where a session's delivery stands, as the log records it. */
export interface WebhookDeliveryProgress {
  /** Highest seq whose outcome is final (delivered or failed); null before any. */
  lastSettledSeq: number | null;
  /** The next event already attempted but not settled (a process stopped during its retries). */
  pending: { seq: number; attempts: number; firstAttemptAt: Date } | null;
}

/** A delivery attempt as the session owner sees it (GET .../webhook-deliveries). */
export type WebhookDeliveryView = Omit<WebhookAttemptRecord, 'sessionId' | 'attemptedAt'> & {
  /** The `webhook-id` header the receiver saw. */
  webhookId: string;
  /** ISO-8601. */
  attemptedAt: string;
};

/** Most attempts one listing returns. */
export const MAX_WEBHOOK_DELIVERIES_LISTED = 100;
const ERROR_TEXT_MAX_CHARS = 300;

interface AttemptRow extends Record<string, unknown> {
  seq: number;
  attempt: number;
  outcome: WebhookAttemptOutcome;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date | string;
}

/** Where a delivery log lives: its table and the column naming the stream (a navigation session, a geofence). */
export interface DeliveryLogTable {
  table: 'nav_webhook_deliveries' | 'geofence_webhook_deliveries';
  key: 'session_id' | 'geofence_id';
}
const NAVIGATION_LOG: DeliveryLogTable = { table: 'nav_webhook_deliveries', key: 'session_id' };

/**
 * A webhook delivery log (navigation sessions by default; geofences use the same shape in a table of their
 * own): written by the dispatcher, read by it after a restart and by the stream's owner.
 */
export class WebhookDeliveryRepository {
  constructor(
    private readonly sql: SqlExecutor,
    private readonly log: DeliveryLogTable = NAVIGATION_LOG,
  ) {}

  /** Appends one attempt; a duplicate (another process logged the same attempt number) is ignored. */
  async record(attempt: WebhookAttemptRecord): Promise<void> {
    await this.sql.query(
      `insert into ${this.log.table} (${this.log.key}, seq, attempt, outcome, http_status, error, duration_ms, attempted_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing`,
      [
        attempt.sessionId,
        attempt.seq,
        attempt.attempt,
        attempt.outcome,
        attempt.httpStatus,
        attempt.error === null ? null : attempt.error.slice(0, ERROR_TEXT_MAX_CHARS),
        Math.max(0, Math.round(attempt.durationMs)),
        attempt.attemptedAt.toISOString(),
      ],
    );
  }

  async progress(sessionId: string): Promise<WebhookDeliveryProgress> {
    const settled = await this.sql.query<{ seq: number | null }>(
      `select max(seq) as seq from ${this.log.table} where ${this.log.key} = $1 and outcome <> 'retrying'`,
      [sessionId],
    );
    const lastSettledSeq = settled[0]?.seq ?? null;
    const pending = await this.sql.query<{ seq: number; attempts: unknown; first_attempt_at: Date | string }>(
      `select seq, count(*) as attempts, min(attempted_at) as first_attempt_at from ${this.log.table}
       where ${this.log.key} = $1 and seq > $2 group by seq order by seq limit 1`,
      [sessionId, lastSettledSeq ?? -1],
    );
    const next = pending[0];
    return {
      lastSettledSeq: lastSettledSeq === null ? null : Number(lastSettledSeq),
      pending: next ? { seq: Number(next.seq), attempts: Number(next.attempts), firstAttemptAt: new Date(next.first_attempt_at) } : null,
    };
  }

  /**
   * Sessions with a webhook whose event log goes past their last settled
   * delivery, most recently updated first: what a process that starts (or
   * takes sessions over) must notify, including sessions that already ended
   * with events still undelivered.
   */
  async sessionsAwaitingDelivery(options: { updatedSince: Date; limit: number }): Promise<{ sessionId: string; webhookUrl: string }[]> {
    const rows = await this.sql.query<{ id: string; webhook_url: string }>(
      `select s.id, s.webhook_url from nav_sessions s
       where s.webhook_url is not null and s.updated_at >= $1
         and exists (
           select 1 from nav_session_events e
           where e.session_id = s.id
             and e.seq > coalesce((select max(d.seq) from nav_webhook_deliveries d where d.session_id = s.id and d.outcome <> 'retrying'), -1)
         )
       order by s.updated_at desc limit $2`,
      [options.updatedSince.toISOString(), options.limit],
    );
    return rows.map((row) => ({ sessionId: row.id, webhookUrl: row.webhook_url }));
  }

  /** The session's attempts, newest first; `limit` is clamped to 1..100. Callers check the session's owner first. */
  async listForSession(sessionId: string, limit = 20): Promise<WebhookDeliveryView[]> {
    const bounded = Number.isFinite(limit) ? Math.min(MAX_WEBHOOK_DELIVERIES_LISTED, Math.max(1, Math.floor(limit))) : MAX_WEBHOOK_DELIVERIES_LISTED;
    const rows = await this.sql.query<AttemptRow>(
      `select seq, attempt, outcome, http_status, error, duration_ms, attempted_at from ${this.log.table}
       where ${this.log.key} = $1 order by attempted_at desc, seq desc, attempt desc limit $2`,
      [sessionId, bounded],
    );
    return rows.map((row) => ({
      webhookId: `${sessionId}:${row.seq}`,
      seq: Number(row.seq),
      attempt: Number(row.attempt),
      outcome: row.outcome,
      httpStatus: row.http_status === null ? null : Number(row.http_status),
      error: row.error,
      durationMs: Number(row.duration_ms),
      attemptedAt: isoOf(row.attempted_at),
    }));
  }
}
