import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface AssistantTurnFields {
  id: string;
  /** The user the turn was made for (the signed-in user, or the owner of the key); null for a key without one. */
  userId: string | null;
  keyId: string | null;
  endpoint: 'agent' | 'assistant';
  message: string;
  history: readonly { role: string; content: string }[];
  reply: string;
  action: string;
  source: 'model' | 'parser';
  createdAtMs: number;
}

export interface AssistantTurnRecord {
  id: string;
  endpoint: string;
  message: string;
  history: { role: string; content: string }[];
  reply: string;
  action: string;
  source: string;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  endpoint: string;
  message: string;
  history: unknown;
  reply: string;
  action: string;
  source: string;
  created_at: Date | string;
}

const toRecord = (row: Row): AssistantTurnRecord => ({
  id: row.id,
  endpoint: row.endpoint,
  message: row.message,
  history: (typeof row.history === 'string' ? JSON.parse(row.history) : row.history) as { role: string; content: string }[],
  reply: row.reply,
  action: row.action,
  source: row.source,
  createdAt: isoOf(row.created_at),
});

/** The assistant's conversation log; read only per user (export), deleted by age (purge) and by account (cascade). */
export class AssistantTurnRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async add(turn: AssistantTurnFields): Promise<void> {
    await this.sql.query(
      'insert into assistant_turns (id, user_id, key_id, endpoint, message, history, reply, action, source, created_at) values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)',
      [turn.id, turn.userId, turn.keyId, turn.endpoint, turn.message, JSON.stringify(turn.history), turn.reply, turn.action, turn.source, new Date(turn.createdAtMs).toISOString()],
    );
  }

  /** A user's turns, oldest first, for the account export (at most `limit`). */
  async listForUser(userId: string, limit = 10_000): Promise<AssistantTurnRecord[]> {
    const rows = await this.sql.query<Row>(
      'select id, endpoint, message, history, reply, action, source, created_at from assistant_turns where user_id = $1 order by created_at, id limit $2',
      [userId, limit],
    );
    return rows.map(toRecord);
  }

  /** Deletes turns made before `cutoffMs`; returns how many. */
  async purgeBefore(cutoffMs: number): Promise<number> {
    const rows = await this.sql.query<{ id: string }>('delete from assistant_turns where created_at < $1 returning id', [new Date(cutoffMs).toISOString()]);
    return rows.length;
  }
}
