/**
 * Live fleets in SQL: one row per fleet with its definition and current plan.
 * Writes are fenced by `revision` (see the migration); owner checks happen in
 * the fleet actor against `owner`; this module only stores.
 */
import type { FleetDefinition, FleetOwner, FleetPlan, FleetRecord } from '../../domain/fleet.js';
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

interface FleetRow extends Record<string, unknown> {
  id: string;
  owner_kind: FleetOwner['kind'];
  owner_id: string;
  definition: FleetDefinition;
  plan: FleetPlan | null;
  change_seq: number;
  revision: string | number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A fleet's write: its definition and plan, fenced by the revision it was computed from. */
export interface FleetWrite {
  id: string;
  expectedRevision: number;
  definition: FleetRecord['definition'];
  plan: FleetPlan | null;
  changeSeq: number;
  updatedAt: string;
}

export class FleetRepository {
  constructor(private readonly sql: SqlClient) {}

  async insert(record: FleetRecord, ownerProcess: string): Promise<void> {
    await this.sql.query(
      `insert into fleets (id, owner_kind, owner_id, definition, plan, plan_version, change_seq, revision, owner_process, created_at, updated_at)
       values ($1, $2, $3, $4::text::jsonb, $5::text::jsonb, $6, $7, $8, $9, $10, $11)`,
      [
        record.id,
        record.owner.kind,
        record.owner.id,
        JSON.stringify(record.definition),
        record.plan ? JSON.stringify(record.plan) : null,
        record.plan?.planVersion ?? 0,
        record.changeSeq,
        record.revision,
        ownerProcess,
        record.createdAt,
        record.updatedAt,
      ],
    );
  }

  async load(id: string): Promise<FleetRecord | undefined> {
    const rows = await this.sql.query<FleetRow>('select id, owner_kind, owner_id, definition, plan, change_seq, revision, created_at, updated_at from fleets where id = $1', [id]);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id,
      owner: { kind: row.owner_kind, id: row.owner_id },
      definition: row.definition,
      plan: row.plan,
      changeSeq: Number(row.change_seq),
      revision: Number(row.revision),
      createdAt: isoOf(row.created_at),
      updatedAt: isoOf(row.updated_at),
    };
  }

  /** Makes this process the owner if nobody wrote since `revision` was read; answers the new revision, or undefined when another process got there first. */
  async claim(id: string, revision: number, ownerProcess: string): Promise<number | undefined> {
    const rows = await this.sql.query<{ revision: string | number }>('update fleets set owner_process = $3, revision = revision + 1 where id = $1 and revision = $2 returning revision', [
      id,
      revision,
      ownerProcess,
    ]);
    return rows[0] ? Number(rows[0].revision) : undefined;
  }

  /** Writes the fleet if its fence holds; false when another process wrote since. */
  async write(write: FleetWrite): Promise<boolean> {
    const rows = await this.sql.query<{ id: string }>(
      `update fleets set definition = $3::text::jsonb, plan = $4::text::jsonb, plan_version = $5, change_seq = $6, updated_at = $7, revision = revision + 1
        where id = $1 and revision = $2 returning id`,
      [write.id, write.expectedRevision, JSON.stringify(write.definition), write.plan ? JSON.stringify(write.plan) : null, write.plan?.planVersion ?? 0, write.changeSeq, write.updatedAt],
    );
    return rows.length > 0;
  }

  /** Deletes fleets nobody has changed since `before` (a day's dispatch is long over); answers how many. */
  async deleteIdleBefore(before: Date): Promise<number> {
    const rows = await this.sql.query<{ id: string }>('delete from fleets where updated_at < $1 returning id', [before.toISOString()]);
    return rows.length;
  }
}
