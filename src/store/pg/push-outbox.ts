import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

/** One notification to send to one device token, claimed by this process until its lease ends. */
export interface ClaimedPush {
  id: string;
  token: string;
  platform: string;
  /** Attempts including this one. */
  attempts: number;
  firstQueuedAt: string;
  /** The token still belongs to the notification's user (a token re-bound to another user is not sent to). */
  sameUser: boolean;
  notification: { id: string; type: string; title: string; body: string; url: string | null; data: Record<string, unknown> | null };
}

interface Row extends Record<string, unknown> {
  id: string;
  token: string;
  platform: string;
  attempts: number;
  created_at: Date | string;
  same_user: boolean;
  notification_id: string;
  type: string;
  title: string;
  body: string;
  url: string | null;
  data: Record<string, unknown> | null;
}

/**
 * The push delivery outbox: rows are written with the inbox record (same transaction) and claimed under a
 * lease with `for update skip locked`, so several processes share the work without sending a row twice and a
 * process that dies mid-attempt leaves the row to be claimed again when its lease ends.
 */
export class PushOutboxRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async claim(limit: number, leaseMs: number): Promise<ClaimedPush[]> {
    const rows = await this.sql.query<Row>(
      `with claimed as (
         update push_outbox o set lease_until = now() + ($2::integer * interval '1 millisecond'), attempts = o.attempts + 1
         where o.id in (
           select id from push_outbox where next_attempt_at <= now() and (lease_until is null or lease_until < now())
           order by next_attempt_at limit $1 for update skip locked
         )
         returning o.id, o.notification_id, o.token, o.attempts, o.created_at
       )
       select c.id, c.token, c.attempts, c.created_at, t.platform, t.user_id = n.user_id as same_user,
              n.id as notification_id, n.type, n.title, n.body, n.url, n.data
       from claimed c join push_tokens t on t.token = c.token join notifications n on n.id = c.notification_id`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({
      id: row.id,
      token: row.token,
      platform: row.platform,
      attempts: Number(row.attempts),
      firstQueuedAt: isoOf(row.created_at),
      sameUser: row.same_user,
      notification: { id: row.notification_id, type: row.type, title: row.title, body: row.body, url: row.url, data: row.data },
    }));
  }

  /** Delivered, given up, or not to be attempted: the row goes. */
  async settle(id: string): Promise<void> {
    await this.sql.query('delete from push_outbox where id = $1', [id]);
  }

  async retryLater(id: string, delayMs: number, error: string): Promise<void> {
    await this.sql.query(`update push_outbox set lease_until = null, next_attempt_at = now() + ($2::integer * interval '1 millisecond'), last_error = $3 where id = $1`, [
      id,
      Math.round(delayMs),
      error.slice(0, 300),
    ]);
  }

  /** The provider said the token is gone: the token and everything queued for it go. */
  async removeToken(token: string): Promise<void> {
    await this.sql.query('delete from push_tokens where token = $1', [token]);
  }
}
