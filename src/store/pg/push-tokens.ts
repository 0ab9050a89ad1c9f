import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

/** Push-messaging registration tokens; a token belongs to one user at a time. */
export class PushTokenRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Registers the token for the user; a token registered by someone else is re-bound to this user. */
  async register(userId: string, token: string, platform: string): Promise<{ token: string; platform: string; createdAt: string }> {
    const rows = await this.sql.query<{ token: string; platform: string; created_at: Date | string }>(
      `insert into push_tokens (token, user_id, platform) values ($1, $2, $3)
       on conflict (token) do update set user_id = excluded.user_id, platform = excluded.platform, updated_at = now()
       returning token, platform, created_at`,
      [token, userId, platform],
    );
    const row = rows[0]!;
    return { token: row.token, platform: row.platform, createdAt: isoOf(row.created_at) };
  }

  /** Removes the user's own token; returns whether it was theirs. */
  async unregister(userId: string, token: string): Promise<boolean> {
    const rows = await this.sql.query('delete from push_tokens where token = $1 and user_id = $2 returning token', [token, userId]);
    return rows.length > 0;
  }

  async listForUser(userId: string): Promise<Array<{ token: string; platform: string }>> {
    return this.sql.query<{ token: string; platform: string }>('select token, platform from push_tokens where user_id = $1 order by created_at', [userId]);
  }
}
