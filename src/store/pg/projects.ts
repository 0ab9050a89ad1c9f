import type { SqlExecutor } from '../sql/sql-client.js';
import { unlessParentDeleted } from '../sql/sql-error.js';
import { isoOf } from './row-mapping.js';

export interface ProjectRecord {
  id: string;
  name: string;
  organizationId: string;
  createdAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  organization_id: string;
  created_at: Date | string;
}

const COLUMNS = 'id, name, organization_id, created_at';
const toRecord = (row: Row): ProjectRecord => ({
  id: row.id,
  name: row.name,
  organizationId: row.organization_id,
  createdAt: isoOf(row.created_at),
});

/** Projects; every query is scoped to the owner. */
export class ProjectRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Inserts under one of the owner's organizations; null when the organization is not the owner's. */
  async create(ownerId: string, project: { id: string; name: string; organizationId: string }): Promise<ProjectRecord | null> {
    // null too when the organization is deleted while this insert runs
    const rows = await unlessParentDeleted(
      this.sql.query<Row>(
        `insert into projects (id, owner_id, organization_id, name)
         select $1, $2, o.id, $4 from organizations o where o.id = $3 and o.owner_id = $2
         returning ${COLUMNS}`,
        [project.id, ownerId, project.organizationId, project.name],
      ),
      'projects_organization_id_fkey',
    );
    return rows?.[0] ? toRecord(rows[0]) : null;
  }

  async list(ownerId: string, organizationId?: string): Promise<ProjectRecord[]> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from projects where owner_id = $1 and ($2::uuid is null or organization_id = $2)
       order by created_at, id limit 1000`,
      [ownerId, organizationId ?? null],
    );
    return rows.map(toRecord);
  }

  async find(ownerId: string, id: string): Promise<ProjectRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from projects where owner_id = $1 and id = $2`, [ownerId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async rename(ownerId: string, id: string, name: string): Promise<ProjectRecord | null> {
    const rows = await this.sql.query<Row>(`update projects set name = $3 where owner_id = $1 and id = $2 returning ${COLUMNS}`, [ownerId, id, name]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('delete from projects where owner_id = $1 and id = $2 returning id', [ownerId, id]);
    return rows.length > 0;
  }

  async count(ownerId: string): Promise<number> {
    const rows = await this.sql.query<{ count: unknown }>('select count(*) as count from projects where owner_id = $1', [ownerId]);
    return Number(rows[0]!.count);
  }
}
