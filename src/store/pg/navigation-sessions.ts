/**
 * Navigation sessions and their event log in SQL. Writes are fenced by
 * `revision`: a write names the revision it was computed from and fails when
 * another process has written (taken the session over) since. Every owner
 * check happens in the actor against `owner`; this module only stores.
 */
import type { NavigationRoute } from '../../domain/navigation-route.js';
import { RETAINED_EVENTS, type NavigationEvent, type SessionOwner, type SessionPlan, type SessionRecord, type SessionStatus, type SessionTracking } from '../../domain/navigation-session.js';
import type { SqlClient } from '../sql/sql-client.js';
import { isoOf } from './row-mapping.js';

interface SessionRow extends Record<string, unknown> {
  id: string;
  owner_kind: 'key' | 'user';
  owner_id: string;
  status: SessionStatus;
  request: SessionPlan;
  route: NavigationRoute;
  progress: SessionTracking;
  event_seq: number;
  webhook_url: string | null;
  revision: string | number;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string;
}

interface EventRow extends Record<string, unknown> {
  seq: number;
  type: NavigationEvent['type'];
  at: Date | string;
  data: Record<string, unknown>;
}

const COLUMNS = 'id, owner_kind, owner_id, status, request, route, progress, event_seq, webhook_url, revision, created_at, updated_at, expires_at';

const eventOf = (row: EventRow): NavigationEvent => ({ seq: Number(row.seq), type: row.type, at: isoOf(row.at), data: row.data });

/** One session's write: its new state, the events it appended, and the revision it was computed from. */
export interface SessionWrite {
  id: string;
  expectedRevision: number;
  status: SessionStatus;
  tracking: SessionTracking;
  eventSeq: number;
  expiresAtMs: number;
  /** Only when the route changed (a re-plan). */
  route?: NavigationRoute;
  events: NavigationEvent[];
}

export class NavigationSessionRepository {
  constructor(private readonly sql: SqlClient) {}

  async insert(record: SessionRecord, ownerProcess: string): Promise<void> {
    await this.sql.query(
      `insert into nav_sessions (id, owner_kind, owner_id, status, request, route, progress, event_seq, webhook_url, revision, owner_process, created_at, updated_at, expires_at)
       values ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb, $7::text::jsonb, $8, $9, $10, $11, $12, $12, $13)`,
      [
        record.id,
        record.owner.kind,
        record.owner.id,
        record.status,
        JSON.stringify(record.plan),
        JSON.stringify(record.route),
        JSON.stringify(record.tracking),
        record.eventSeq,
        record.webhookUrl,
        record.revision,
        ownerProcess,
        record.createdAt,
        new Date(record.expiresAtMs).toISOString(),
      ],
    );
  }

  /** The session with its retained events, or undefined. */
  async load(id: string): Promise<SessionRecord | undefined> {
    const rows = await this.sql.query<SessionRow>(`select ${COLUMNS} from nav_sessions where id = $1`, [id]);
    const row = rows[0];
    if (!row) return undefined;
    const events = await this.eventsSince(id, Math.max(0, Number(row.event_seq) - RETAINED_EVENTS));
    const owner: SessionOwner = { kind: row.owner_kind, id: row.owner_id };
    return {
      id: row.id,
      owner,
      status: row.status,
      plan: row.request,
      route: row.route,
      tracking: row.progress,
      eventSeq: Number(row.event_seq),
      events,
      webhookUrl: row.webhook_url,
      revision: Number(row.revision),
      createdAt: isoOf(row.created_at),
      updatedAt: isoOf(row.updated_at),
      expiresAtMs: new Date(row.expires_at).getTime(),
    };
  }

  /**
   * Events after `since`, in seq order, at most `limit` (all without one). Also the webhook outbox:
   * the events are durable when the session commits them, so delivery needs no write of its own.
   */
  async eventsSince(id: string, since: number, limit?: number): Promise<NavigationEvent[]> {
    const rows = await this.sql.query<EventRow>('select seq, type, at, data from nav_session_events where session_id = $1 and seq > $2 order by seq limit $3', [
      id,
      since,
      limit ?? null,
    ]);
    return rows.map(eventOf);
  }

  /**
   * Makes this process the owner if nobody wrote since `revision` was read; answers the new
   * revision, or undefined when another process got there first.
   */
  async claim(id: string, revision: number, ownerProcess: string): Promise<number | undefined> {
    const rows = await this.sql.query<{ revision: string | number }>(
      'update nav_sessions set owner_process = $3, revision = revision + 1 where id = $1 and revision = $2 returning revision',
      [id, revision, ownerProcess],
    );
    return rows[0] ? Number(rows[0].revision) : undefined;
  }

  /**
   * Applies many sessions' writes at once (group commit). Answers the ids whose
   * fence held; the others were taken over and wrote nothing.
   */
  async writeMany(writes: readonly SessionWrite[]): Promise<Set<string>> {
    const updates = writes.map((write) => ({
      id: write.id,
      rev: write.expectedRevision,
      status: write.status,
      progress: write.tracking,
      event_seq: write.eventSeq,
      expires_at: new Date(write.expiresAtMs).toISOString(),
      route: write.route ?? null,
    }));
    const events = writes.flatMap((write) => write.events.map((event) => ({ session_id: write.id, seq: event.seq, type: event.type, at: event.at, data: event.data })));
    // One statement (atomic on its own): a single round trip per batch. Events are inserted only
    // for sessions whose fence held.
    const rows = await this.sql.query<{ id: string }>(
      `with written as (
         update nav_sessions s
            set status = u.status, progress = u.progress, event_seq = u.event_seq, expires_at = u.expires_at,
                route = coalesce(u.route, s.route), revision = s.revision + 1, updated_at = clock_timestamp()
           from jsonb_to_recordset($1::text::jsonb) as u(id uuid, rev bigint, status text, progress jsonb, event_seq integer, expires_at timestamptz, route jsonb)
          where s.id = u.id and s.revision = u.rev
          returning s.id
       ), appended as (
         insert into nav_session_events (session_id, seq, type, at, data)
         select e.session_id, e.seq, e.type, e.at, e.data
           from jsonb_to_recordset($2::text::jsonb) as e(session_id uuid, seq integer, type text, at timestamptz, data jsonb)
          where e.session_id in (select id from written)
       )
       select id from written`,
      [JSON.stringify(updates), JSON.stringify(events)],
      // the group commit of every session's checkpoints and events: hundreds of runs a second under load
      { prepared: true },
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Ends active sessions idle past their expiry (any process may run it); answers their ids. */
  async expireIdle(now: Date): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(
      `update nav_sessions set status = 'expired', revision = revision + 1, updated_at = clock_timestamp()
        where status = 'active' and expires_at < $1 returning id`,
      [now.toISOString()],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes sessions (and their events) that ended before `before`. */
  async deleteEndedBefore(before: Date): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(`delete from nav_sessions where status <> 'active' and updated_at < $1 returning id`, [before.toISOString()]);
    return rows.length;
  }
}
