/**
 * Optimization jobs in SQL. Every state change is a fenced write: it names
 * the revision it was computed from and fails when another process has
 * written since (claimed the job). Leases are judged on the database clock.
 * Owner checks happen in the service against `owner`; this module only stores.
 */
import type { JobError, JobKind, JobOwner, JobRecord, JobState } from '../../domain/optimization-job.js';
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

interface JobRow extends Record<string, unknown> {
  id: string;
  owner_kind: JobOwner['kind'];
  owner_id: string;
  kind: JobKind;
  input: unknown;
  status: JobState['status'];
  attempts: number;
  result: unknown;
  error: JobError | null;
  revision: string | number;
  owner_process: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
}

const COLUMNS = 'id, owner_kind, owner_id, kind, input, status, attempts, result, error, revision, owner_process, created_at, started_at, finished_at, expires_at';

function stateOf(row: JobRow): JobState {
  const attempts = Number(row.attempts);
  switch (row.status) {
    case 'queued':
      return { status: 'queued', attempts };
    case 'running':
      return { status: 'running', attempts, owner: row.owner_process ?? '' };
    case 'completed':
      return { status: 'completed', attempts, result: row.result, finishedAt: isoOf(row.finished_at!) };
    case 'failed':
      return { status: 'failed', attempts, error: row.error!, finishedAt: isoOf(row.finished_at!) };
  }
}

function recordOf(row: JobRow): JobRecord {
  return {
    id: row.id,
    owner: { kind: row.owner_kind, id: row.owner_id },
    kind: row.kind,
    input: row.input,
    state: stateOf(row),
    revision: Number(row.revision),
    createdAt: isoOf(row.created_at),
    startedAt: isoOrNull(row.started_at),
    expiresAt: isoOrNull(row.expires_at),
  };
}

/** Caps on jobs not yet finished (queued or running). */
export interface OpenJobLimits {
  perOwner: number;
  total: number;
}

export type InsertOutcome = { inserted: true } | { inserted: false; ownerOpen: number; totalOpen: number };

export interface JobRepositoryOptions {
  /** How long a finished job is kept (ms). */
  retentionMs: number;
  /** How long a claim or renewal holds a job without another renewal (ms). */
  leaseMs: number;
}

export class OptimizationJobRepository {
  constructor(
    private readonly sql: SqlClient,
    private readonly options: JobRepositoryOptions,
  ) {}

  /**
   * Stores a new queued job unless its owner or the deployment already has too many open
   * jobs. Count and insert are one statement; concurrent submissions may overshoot a cap by
   * the few that race, which the caps' sizes absorb.
   */
  async insertWithinLimits(record: JobRecord, limits: OpenJobLimits): Promise<InsertOutcome> {
    const rows = await this.sql.query<{ owner_open: string | number; total_open: string | number; id: string | null }>(
      `with open as (
         select count(*) filter (where owner_kind = $2 and owner_id = $3) as owner_open, count(*) as total_open
           from optimization_jobs where status in ('queued', 'running')
       ), inserted as (
         insert into optimization_jobs (id, owner_kind, owner_id, kind, input, status, attempts, revision, created_at)
         select $1, $2, $3, $4, $5::text::jsonb, 'queued', 0, $6, $7 from open
          where owner_open < $8 and total_open < $9
         returning id
       )
       select owner_open, total_open, (select id from inserted) as id from open`,
      [record.id, record.owner.kind, record.owner.id, record.kind, JSON.stringify(record.input), record.revision, record.createdAt, limits.perOwner, limits.total],
    );
    const row = rows[0]!;
    if (row.id) return { inserted: true };
    return { inserted: false, ownerOpen: Number(row.owner_open), totalOpen: Number(row.total_open) };
  }

  async load(id: string): Promise<JobRecord | undefined> {
    const rows = await this.sql.query<JobRow>(`select ${COLUMNS} from optimization_jobs where id = $1`, [id]);
    return rows[0] ? recordOf(rows[0]) : undefined;
  }

  /** Jobs a process may claim now, oldest first: queued, or running under a lease nobody renewed. */
  async claimable(limit: number): Promise<JobRecord[]> {
    const rows = await this.sql.query<JobRow>(
      `select ${COLUMNS} from optimization_jobs
        where status = 'queued' or (status = 'running' and lease_expires_at < clock_timestamp())
        order by created_at limit $1`,
      [limit],
    );
    return rows.map(recordOf);
  }

  /** Running jobs of other processes under a live lease, claimed at least `graceMs` ago: their owners get asked whether they are alive. */
  async runningElsewhere(processId: string, graceMs: number, limit: number): Promise<JobRecord[]> {
    const rows = await this.sql.query<JobRow>(
      `select ${COLUMNS} from optimization_jobs
        where status = 'running' and owner_process <> $1 and lease_expires_at >= clock_timestamp()
          and claimed_at < clock_timestamp() - $2::double precision * interval '1 millisecond'
        order by created_at limit $3`,
      [processId, graceMs, limit],
    );
    return rows.map(recordOf);
  }

  /**
   * Writes `state` if the row is still at `expectedRevision`; answers the new revision, or
   * undefined when another process wrote first. A running state takes a fresh lease for
   * its owner; a finished one sets when the job is deleted.
   */
  async write(id: string, expectedRevision: number, state: JobState): Promise<number | undefined> {
    const running = state.status === 'running';
    const finishedAt = state.status === 'completed' || state.status === 'failed' ? state.finishedAt : null;
    const rows = await this.sql.query<{ revision: string | number }>(
      `update optimization_jobs set
          status = $3, attempts = $4, owner_process = $5,
          lease_expires_at = case when $6 then clock_timestamp() + $7::double precision * interval '1 millisecond' end,
          claimed_at = case when $6 then clock_timestamp() else claimed_at end,
          started_at = case when $6 then coalesce(started_at, clock_timestamp()) else started_at end,
          result = $8::text::jsonb, error = $9::text::jsonb,
          finished_at = $10::timestamptz,
          expires_at = $10::timestamptz + $11::double precision * interval '1 millisecond',
          revision = revision + 1
        where id = $1 and revision = $2
        returning revision`,
      [
        id,
        expectedRevision,
        state.status,
        state.attempts,
        running ? state.owner : null,
        running,
        this.options.leaseMs,
        state.status === 'completed' ? JSON.stringify(state.result ?? null) : null,
        state.status === 'failed' ? JSON.stringify(state.error) : null,
        finishedAt,
        this.options.retentionMs,
      ],
    );
    return rows[0] ? Number(rows[0].revision) : undefined;
  }

  /**
   * Extends the leases of the jobs `processId` runs; answers the ids it still owns (the
   * others were claimed by another process after their lease ran out). The revision is
   * left alone: the owner's own fenced writes stay valid.
   */
  async renew(processId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql.query<{ id: string }>(
      `update optimization_jobs set lease_expires_at = clock_timestamp() + $2::double precision * interval '1 millisecond'
        where owner_process = $1 and status = 'running' and id in (select value::uuid from jsonb_array_elements_text($3::text::jsonb))
        returning id`,
      [processId, this.options.leaseMs, JSON.stringify(ids)],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Deletes finished jobs past their retention; answers how many. */
  async deleteExpired(): Promise<number> {
    const rows = await this.sql.query<{ id: string }>('delete from optimization_jobs where expires_at < clock_timestamp() returning id');
    return rows.length;
  }
}
