import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';
import type { IncidentType, IncidentVote } from '../../domain/incident.js';

export interface IncidentRecord {
  id: string;
  incidentType: IncidentType;
  lat: number;
  lng: number;
  description: string;
  reportedAt: string;
  lastConfirmedAt: string;
  expiresAt: string | null;
  clearedAt: string | null;
  /** Reports and confirmations (distinct voices). */
  supports: number;
  clears: number;
}

interface Row extends Record<string, unknown> {
  id: string;
  incident_type: string;
  lat: number;
  lng: number;
  description: string;
  reported_at: Date | string;
  last_confirmed_at: Date | string;
  expires_at: Date | string | null;
  cleared_at: Date | string | null;
  supports: number | string;
  clears: number | string;
}

const SELECT = `select i.id, i.incident_type, i.lat, i.lng, i.description, i.reported_at, i.last_confirmed_at, i.expires_at, i.cleared_at,
  (select count(*) from incident_votes v where v.incident_id = i.id and v.vote in ('report', 'confirm')) as supports,
  (select count(*) from incident_votes v where v.incident_id = i.id and v.vote = 'clear') as clears
  from incidents i`;
/** Live at `$1`: not cleared and not past its expiry. */
const LIVE = `i.cleared_at is null and (i.expires_at is null or i.expires_at > $1)`;

const toRecord = (row: Row): IncidentRecord => ({
  id: row.id,
  incidentType: row.incident_type as IncidentType,
  lat: Number(row.lat),
  lng: Number(row.lng),
  description: row.description,
  reportedAt: isoOf(row.reported_at),
  lastConfirmedAt: isoOf(row.last_confirmed_at),
  expiresAt: isoOrNull(row.expires_at),
  clearedAt: isoOrNull(row.cleared_at),
  supports: Number(row.supports),
  clears: Number(row.clears),
});

export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Community incidents and their votes (one vote per voice and incident, the latest wins). */
export class IncidentRepository {
  constructor(private readonly sql: SqlClient) {}

  transaction<T>(work: (tx: IncidentRepository) => Promise<T>): Promise<T> {
    return this.sql.transaction((tx) => work(new IncidentRepository(tx as SqlClient)));
  }

  private get executor(): SqlExecutor {
    return this.sql;
  }

  /** Serialises reports (merging needs to see the reports before it), across processes: held to the transaction's end. */
  async lockReports(): Promise<void> {
    await this.executor.query("select pg_advisory_xact_lock(hashtext('incident-reports'))");
  }

  async find(id: string): Promise<IncidentRecord | undefined> {
    const rows = await this.executor.query<Row>(`${SELECT} where i.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** Live incidents of a type inside a box, for merging a new report into. */
  async liveOfTypeIn(type: IncidentType, box: Box, at: Date): Promise<IncidentRecord[]> {
    const rows = await this.executor.query<Row>(
      `${SELECT} where ${LIVE} and i.incident_type = $2 and i.lat between $3 and $4 and i.lng between $5 and $6`,
      [at, type, box.south, box.north, box.west, box.east],
    );
    return rows.map(toRecord);
  }

  /** Live incidents inside a box (of some types), newest first, at most `limit`. */
  async liveIn(box: Box, at: Date, limit: number, types?: readonly IncidentType[]): Promise<IncidentRecord[]> {
    const rows = await this.executor.query<Row>(
      `${SELECT} where ${LIVE} and i.lat between $2 and $3 and i.lng between $4 and $5 ${types ? 'and i.incident_type = any($7)' : ''}
       order by i.last_confirmed_at desc limit $6`,
      [at, box.south, box.north, box.west, box.east, limit, ...(types ? [types] : [])],
    );
    return rows.map(toRecord);
  }

  async create(incident: { id: string; incidentType: IncidentType; lat: number; lng: number; description: string; at: Date; expiresAt: Date | null }, reporter: string): Promise<void> {
    await this.executor.query(
      `insert into incidents (id, incident_type, lat, lng, description, reported_at, last_confirmed_at, expires_at) values ($1, $2, $3, $4, $5, $6, $6, $7)`,
      [incident.id, incident.incidentType, incident.lat, incident.lng, incident.description, incident.at, incident.expiresAt],
    );
    await this.vote(incident.id, reporter, 'report', incident.at);
  }

  /** Records a voice's vote; returns the vote it replaced, if any. */
  async vote(id: string, voter: string, vote: 'report' | IncidentVote, at: Date): Promise<string | undefined> {
    const previous = await this.executor.query<{ vote: string }>('select vote from incident_votes where incident_id = $1 and voter = $2', [id, voter]);
    await this.executor.query(
      `insert into incident_votes (incident_id, voter, vote, voted_at) values ($1, $2, $3, $4)
       on conflict (incident_id, voter) do update set vote = excluded.vote, voted_at = excluded.voted_at`,
      [id, voter, vote, at],
    );
    return previous[0]?.vote;
  }

  /** A report or confirmation: the incident lives on from `at`. */
  async refresh(id: string, at: Date, expiresAt: Date | null): Promise<void> {
    await this.executor.query('update incidents set last_confirmed_at = $2, expires_at = $3 where id = $1', [id, at, expiresAt]);
  }

  async clear(id: string, at: Date): Promise<void> {
    await this.executor.query('update incidents set cleared_at = $2 where id = $1 and cleared_at is null', [id, at]);
  }
}
