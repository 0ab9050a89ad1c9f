import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';
import type { Avatar, Privacy, UserRecord } from '../../domain/user.js';

interface UserRow extends Record<string, unknown> {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  roles: string[];
  avatar: Avatar | null;
  privacy: Privacy | null;
  disabled: boolean;
  created_at: Date | string;
}

const COLUMNS = 'id, email, name, password_hash, roles, avatar, privacy, disabled, created_at';

function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    roles: row.roles,
    avatar: row.avatar,
    privacy: row.privacy,
    disabled: row.disabled,
    createdAt: isoOf(row.created_at),
  };
}

/** Users, stored in Postgres; every query is by the user's own id or e-mail. */
export class UserRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Inserts a user; returns null when the e-mail is taken. */
  async create(user: { id: string; email: string; name: string; passwordHash: string | null }): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>(
      `insert into users (id, email, name, password_hash) values ($1, $2, $3, $4)
       on conflict (email) do nothing returning ${COLUMNS}`,
      [user.id, user.email, user.name, user.passwordHash],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    // prepared: read by every bearer-authenticated request beside the session (sessions.ts findOwned)
    const rows = await this.sql.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id], { prepared: true });
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>(`select ${COLUMNS} from users where email = $1`, [email]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Adds a role if missing (idempotent); returns the user's roles afterwards. */
  async addRole(id: string, role: string): Promise<string[] | null> {
    const rows = await this.sql.query<{ roles: string[] }>(
      `update users set roles = case when $2 = any(roles) then roles else array_append(roles, $2) end, updated_at = now()
       where id = $1 returning roles`,
      [id, role],
    );
    return rows[0]?.roles ?? null;
  }

  async removeRole(id: string, role: string): Promise<string[] | null> {
    const rows = await this.sql.query<{ roles: string[] }>(
      'update users set roles = array_remove(roles, $2), updated_at = now() where id = $1 returning roles',
      [id, role],
    );
    return rows[0]?.roles ?? null;
  }

  async setDisabled(id: string, disabled: boolean): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>(`update users set disabled = $2, updated_at = now() where id = $1 returning ${COLUMNS}`, [id, disabled]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Deletes the user; every owned record goes with it (foreign keys cascade). */
  async delete(id: string): Promise<boolean> {
    return (await this.sql.query('delete from users where id = $1 returning id', [id])).length > 0;
  }

  /** Changes only the fields given; `null` clears avatar or privacy. */
  async updateProfile(
    id: string,
    changes: { name?: string; avatar?: Avatar | null; privacy?: Privacy | null },
  ): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>(
      `update users set
         name = case when $2::boolean then $3 else name end,
         avatar = case when $4::boolean then $5::text::jsonb else avatar end,
         privacy = case when $6::boolean then $7::text::jsonb else privacy end,
         updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [
        id,
        changes.name !== undefined,
        changes.name ?? null,
        changes.avatar !== undefined,
        changes.avatar === undefined || changes.avatar === null ? null : JSON.stringify(changes.avatar),
        changes.privacy !== undefined,
        changes.privacy === undefined || changes.privacy === null ? null : JSON.stringify(changes.privacy),
      ],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }
}
