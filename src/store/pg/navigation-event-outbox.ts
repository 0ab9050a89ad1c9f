import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

/** A navigation event as stored in the session's event log (spec part 3 §2.3). */
export interface StoredNavigationEvent {
  seq: number;
  type: string;
  /** ISO-8601. */
  at: string;
  data: Record<string, unknown>;
}

interface EventRow extends Record<string, unknown> {
  seq: number;
  type: string;
  at: Date | string;
  data: Record<string, unknown> | string;
}

/**
 * Reads a session's event log as the webhook outbox: the events are already
 * durable when the session commits them, so webhook delivery needs no second
 * write in the session's transaction.
 */
export class NavigationEventOutbox {
  constructor(private readonly sql: SqlExecutor) {}

  /** Events with seq greater than `afterSeq`, in seq order, at most `limit`. */
  async eventsAfter(sessionId: string, afterSeq: number, limit: number): Promise<StoredNavigationEvent[]> {
    const rows = await this.sql.query<EventRow>(
      'select seq, type, at, data from nav_session_events where session_id = $1 and seq > $2 order by seq limit $3',
      [sessionId, afterSeq, limit],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      type: row.type,
      at: isoOf(row.at),
      data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    }));
  }
}
