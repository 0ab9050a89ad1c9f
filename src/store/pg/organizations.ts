import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  slug: string;
  created_at: Date | string;
}

const toRecord = (row: Row): OrganizationRecord => ({ id: row.id, name: row.name, slug: row.slug, createdAt: isoOf(row.created_at) });

/** Organizations; every query is scoped to the owner. */
export class OrganizationRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Inserts; returns null when the owner already has an organization with that slug. */
  async create(ownerId: string, organization: { id: string; name: string; slug: string }): Promise<OrganizationRecord | null> {
    const rows = await this.sql.query<Row>(
      `insert into organizations (id, owner_id, name, slug) values ($1, $2, $3, $4)
       on conflict (owner_id, slug) do nothing returning id, name, slug, created_at`,
      [organization.id, ownerId, organization.name, organization.slug],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(ownerId: string): Promise<OrganizationRecord[]> {
    const rows = await this.sql.query<Row>(
      'select id, name, slug, created_at from organizations where owner_id = $1 order by created_at, id limit 500',
      [ownerId],
    );
    return rows.map(toRecord);
  }

  async find(ownerId: string, id: string): Promise<OrganizationRecord | null> {
    const rows = await this.sql.query<Row>('select id, name, slug, created_at from organizations where owner_id = $1 and id = $2', [ownerId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async rename(ownerId: string, id: string, name: string): Promise<OrganizationRecord | null> {
    const rows = await this.sql.query<Row>(
      'update organizations set name = $3 where owner_id = $1 and id = $2 returning id, name, slug, created_at',
      [ownerId, id, name],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Deletes with its projects and keys (foreign keys cascade); returns whether it existed. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('delete from organizations where owner_id = $1 and id = $2 returning id', [ownerId, id]);
    return rows.length > 0;
  }

  async count(ownerId: string): Promise<number> {
    const rows = await this.sql.query<{ count: unknown }>('select count(*) as count from organizations where owner_id = $1', [ownerId]);
    return Number(rows[0]!.count);
  }
}
