import type { SqlExecutor } from '../sql/sql-client.js';

/** Links between our users and their accounts at OpenID Connect providers. */
export class IdentityRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async findUserId(provider: string, subject: string): Promise<string | null> {
    const rows = await this.sql.query<{ user_id: string }>('select user_id from user_identities where provider = $1 and subject = $2', [provider, subject]);
    return rows[0]?.user_id ?? null;
  }

  /** Links (idempotently) the provider account to the user. */
  async link(provider: string, subject: string, userId: string, email: string): Promise<void> {
    await this.sql.query(
      `insert into user_identities (provider, subject, user_id, email) values ($1, $2, $3, $4)
       on conflict (provider, subject) do update set user_id = excluded.user_id, email = excluded.email`,
      [provider, subject, userId, email],
    );
  }

  /** The provider accounts linked to the user, oldest link first. */
  async identitiesOf(userId: string): Promise<Array<{ provider: string; subject: string }>> {
    return this.sql.query<{ provider: string; subject: string }>(
      'select provider, subject from user_identities where user_id = $1 order by created_at, provider, subject',
      [userId],
    );
  }
}
