import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

export interface NotificationRecord {
  id: string;
  type: string;
  title: string;
  body: string;
  url: string | null;
  data: Record<string, unknown> | null;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  type: string;
  title: string;
  body: string;
  url: string | null;
  data: Record<string, unknown> | null;
  is_read: boolean;
  read_at: Date | string | null;
  created_at: Date | string;
}

const toRecord = (row: Row): NotificationRecord => ({
  id: row.id,
  type: row.type,
  title: row.title,
  body: row.body,
  url: row.url,
  data: row.data,
  isRead: row.is_read,
  readAt: isoOrNull(row.read_at),
  createdAt: isoOf(row.created_at),
});

export interface NewNotification {
  type: string;
  title: string;
  body: string;
  url: string | null;
  data: Record<string, unknown> | null;
}

/** The notification inbox: written at send time, read newest first, always per user. */
export class NotificationRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async page(userId: string, options: { limit: number; offset: number; type?: string }): Promise<{ items: NotificationRecord[]; total: number }> {
    const type = options.type ?? null;
    const [rows, totals] = await Promise.all([
      this.sql.query<Row>(
        `select id, type, title, body, url, data, is_read, read_at, created_at from notifications
         where user_id = $1 and ($2::text is null or type = $2)
         order by created_at desc, id desc limit $3 offset $4`,
        [userId, type, options.limit, options.offset],
      ),
      this.sql.query<{ total: unknown }>('select count(*) as total from notifications where user_id = $1 and ($2::text is null or type = $2)', [
        userId,
        type,
      ]),
    ]);
    return { items: rows.map(toRecord), total: Number(totals[0]!.total) };
  }

  /** One inbox record for every enabled account, queued for push to their tokens (one statement, however many users); returns how many. */
  async broadcast(notification: NewNotification): Promise<number> {
    const rows = await this.sql.query<{ count: unknown }>(
      `with inserted as (
         insert into notifications (id, user_id, type, title, body, url, data)
         select gen_random_uuid(), u.id, $1, $2, $3, $4, $5::text::jsonb from users u where not u.disabled
         returning id, user_id
       ), queued as (
         insert into push_outbox (notification_id, token)
         select i.id, t.token from inserted i join push_tokens t on t.user_id = i.user_id
       ) select count(*) as count from inserted`,
      [notification.type, notification.title, notification.body, notification.url, notification.data === null ? null : JSON.stringify(notification.data)],
    );
    return Number(rows[0]!.count);
  }
}
