import { unlessParentDeleted } from '../sql/sql-error.js';
import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';
import type { ApiKeyRecord } from '../../domain/api-key.js';

interface Row extends Record<string, unknown> {
  id: string;
  project_id: string;
  label: string;
  last_four: string;
  scopes: Record<string, boolean>;
  plan: string;
  quota_per_minute: number;
  quota_per_day: number;
  unlimited: boolean;
  active: boolean;
  restrictions: { referrers: string[]; ips: string[] };
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const COLUMNS =
  'id, project_id, label, last_four, scopes, plan, quota_per_minute, quota_per_day, unlimited, active, restrictions, created_at, last_used_at';
/** The same columns of `api_keys k` in a join. */
const KEY_COLUMNS = COLUMNS.split(', ').map((column) => `k.${column}`).join(', ');

/**
 * A key as the access gate reads it: its record, the operator's hold on it and its owner's standing, so that a key of
 * a disabled account is refused like a deactivated one.
 */
export interface GateKeyRecord extends ApiKeyRecord {
  ownerId: string;
  ownerDisabled: boolean;
  suspended: boolean;
}

interface GateRow extends Row {
  owner_id: string;
  owner_disabled: boolean;
  suspended: boolean;
}

const GATE_COLUMNS = `${KEY_COLUMNS}, k.owner_id, k.suspended, u.disabled as owner_disabled`;

const toGateRecord = (row: GateRow): GateKeyRecord => ({ ...toRecord(row), ownerId: row.owner_id, ownerDisabled: row.owner_disabled, suspended: row.suspended });

const toRecord = (row: Row): ApiKeyRecord => ({
  id: row.id,
  projectId: row.project_id,
  label: row.label,
  lastFour: row.last_four,
  scopes: row.scopes,
  plan: row.plan,
  quotaPerMinute: Number(row.quota_per_minute),
  quotaPerDay: Number(row.quota_per_day),
  unlimited: row.unlimited,
  active: row.active,
  restrictions: row.restrictions,
  createdAt: isoOf(row.created_at),
  lastUsedAt: isoOrNull(row.last_used_at),
});

/** The editable settings of a key. */
export interface ApiKeySettings {
  label: string;
  scopes: Record<string, boolean>;
  plan: string;
  quotaPerMinute: number;
  quotaPerDay: number;
  active: boolean;
  restrictions: { referrers: string[]; ips: string[] };
}

/** The settings as SQL parameters, in the column order create and update both use (label … restrictions). */
function settingsParameters(settings: ApiKeySettings): unknown[] {
  return [
    settings.label,
    JSON.stringify(settings.scopes),
    settings.plan,
    settings.quotaPerMinute,
    settings.quotaPerDay,
    settings.active,
    JSON.stringify(settings.restrictions),
  ];
}

/** API keys: only the SHA-256 of the secret and its last four characters are stored; every query is scoped to the owner. */
export class ApiKeyRepository {
  constructor(private readonly sql: SqlExecutor) {}

  /** Inserts under one of the owner's projects; null when the project is not the owner's. */
  async create(ownerId: string, key: { id: string; projectId: string; keyHash: string; lastFour: string } & ApiKeySettings): Promise<ApiKeyRecord | null> {
    // null too when the project is deleted while this insert runs
    const rows = await unlessParentDeleted(
      this.sql.query<Row>(
        `insert into api_keys (id, owner_id, project_id, key_hash, last_four, label, scopes, plan, quota_per_minute, quota_per_day, active, restrictions)
         select $1, $2, p.id, $4, $5, $6, $7::text::jsonb, $8, $9, $10, $11, $12::text::jsonb from projects p where p.id = $3 and p.owner_id = $2
         returning ${COLUMNS}`,
        [key.id, ownerId, key.projectId, key.keyHash, key.lastFour, ...settingsParameters(key)],
      ),
      'api_keys_project_id_fkey',
    );
    return rows?.[0] ? toRecord(rows[0]) : null;
  }

  /** The access gate's lookup: a key by the hash of its secret (no owner scope: the secret is the credential). */
  async findByHash(keyHash: string): Promise<GateKeyRecord | null> {
    const rows = await this.sql.query<GateRow>(`select ${GATE_COLUMNS} from api_keys k join users u on u.id = k.owner_id where k.key_hash = $1`, [keyHash]);
    return rows[0] ? toGateRecord(rows[0]) : null;
  }

  /** The sandbox's lookup (the portal already checked the caller owns the key). */
  async findById(id: string): Promise<GateKeyRecord | null> {
    const rows = await this.sql.query<GateRow>(`select ${GATE_COLUMNS} from api_keys k join users u on u.id = k.owner_id where k.id = $1`, [id]);
    return rows[0] ? toGateRecord(rows[0]) : null;
  }

  async list(ownerId: string, projectId?: string): Promise<ApiKeyRecord[]> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from api_keys where owner_id = $1 and ($2::uuid is null or project_id = $2) order by created_at, id limit 1000`,
      [ownerId, projectId ?? null],
    );
    return rows.map(toRecord);
  }

  async find(ownerId: string, id: string): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from api_keys where owner_id = $1 and id = $2`, [ownerId, id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async update(ownerId: string, id: string, settings: ApiKeySettings): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.query<Row>(
      `update api_keys set label = $3, scopes = $4::text::jsonb, plan = $5, quota_per_minute = $6, quota_per_day = $7,
         active = $8, restrictions = $9::text::jsonb, updated_at = now()
       where owner_id = $1 and id = $2 returning ${COLUMNS}`,
      [ownerId, id, ...settingsParameters(settings)],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Operator-only changes (no owner scope): unlimited, quotas beyond the
   * self-serve caps, and the operator's hold. Absent fields stay as they are.
   */
  async setOperatorLimits(
    id: string,
    limits: { unlimited?: boolean; quotaPerMinute?: number; quotaPerDay?: number; suspended?: boolean },
  ): Promise<(ApiKeyRecord & { suspended: boolean }) | null> {
    const rows = await this.sql.query<Row & { suspended: boolean }>(
      `update api_keys set unlimited = coalesce($2, unlimited), quota_per_minute = coalesce($3, quota_per_minute),
         quota_per_day = coalesce($4, quota_per_day), suspended = coalesce($5, suspended), updated_at = now()
       where id = $1 returning ${COLUMNS}, suspended`,
      [id, limits.unlimited ?? null, limits.quotaPerMinute ?? null, limits.quotaPerDay ?? null, limits.suspended ?? null],
    );
    return rows[0] ? { ...toRecord(rows[0]), suspended: rows[0].suspended } : null;
  }

  /** Replaces the secret: the old one stops matching at once. */
  async rotate(ownerId: string, id: string, keyHash: string, lastFour: string): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.query<Row>(
      `update api_keys set key_hash = $3, last_four = $4, updated_at = now() where owner_id = $1 and id = $2 returning ${COLUMNS}`,
      [ownerId, id, keyHash, lastFour],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async delete(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('delete from api_keys where owner_id = $1 and id = $2 returning id', [ownerId, id]);
    return rows.length > 0;
  }

  async counts(ownerId: string): Promise<{ total: number; active: number }> {
    const rows = await this.sql.query<{ total: unknown; active: unknown }>(
      'select count(*) as total, count(*) filter (where active) as active from api_keys where owner_id = $1',
      [ownerId],
    );
    return { total: Number(rows[0]!.total), active: Number(rows[0]!.active) };
  }

  /** Raw and weighted requests of the key in the month starting `periodStart` (YYYY-MM-DD). */
  async monthlyUsage(ownerId: string, id: string, periodStart: string): Promise<{ raw: number; weighted: number }> {
    const rows = await this.sql.query<{ raw_requests: unknown; weighted_requests: unknown }>(
      `select u.raw_requests, u.weighted_requests from api_key_usage_monthly u
       join api_keys k on k.id = u.key_id where k.owner_id = $1 and u.key_id = $2 and u.period_start = $3`,
      [ownerId, id, periodStart],
    );
    return { raw: Number(rows[0]?.raw_requests ?? 0), weighted: Number(rows[0]?.weighted_requests ?? 0) };
  }
  /**
   * Usage of every key of one of the owner's projects in the month starting `periodStart`, with each key's
   * plan; keys without requests count zero. Null when the project is not the owner's.
   */
  async projectMonthlyUsage(
    ownerId: string,
    projectId: string,
    periodStart: string,
  ): Promise<{ id: string; label: string; plan: string; raw: number; weighted: number }[] | null> {
    const projects = await this.sql.query('select id from projects where owner_id = $1 and id = $2', [ownerId, projectId]);
    if (projects.length === 0) return null;
    const rows = await this.sql.query<{ id: string; label: string; plan: string; raw_requests: unknown; weighted_requests: unknown }>(
      `select k.id, k.label, k.plan, coalesce(u.raw_requests, 0) as raw_requests, coalesce(u.weighted_requests, 0) as weighted_requests
       from api_keys k left join api_key_usage_monthly u on u.key_id = k.id and u.period_start = $3
       where k.owner_id = $1 and k.project_id = $2 order by k.created_at, k.id limit 1000`,
      [ownerId, projectId, periodStart],
    );
    return rows.map((row) => ({ id: row.id, label: row.label, plan: row.plan, raw: Number(row.raw_requests), weighted: Number(row.weighted_requests) }));
  }
}
