import type { SqlExecutor } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

export interface Destination {
  name: string;
  lat: number;
  lng: number;
}

export interface LiveSharePosition {
  lat: number;
  lng: number;
  heading: number | null;
  etaSeconds: number | null;
  destination: Destination | null;
}

export interface LiveShareRecord extends LiveSharePosition {
  id: string;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  lat: number;
  lng: number;
  heading: number | null;
  eta_seconds: number | null;
  destination: Destination | null;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'id, lat, lng, heading, eta_seconds, destination, expires_at, revoked_at, created_at, updated_at';
const toRecord = (row: Row): LiveShareRecord => ({
  id: row.id,
  lat: Number(row.lat),
  lng: Number(row.lng),
  heading: row.heading === null ? null : Number(row.heading),
  etaSeconds: row.eta_seconds === null ? null : Number(row.eta_seconds),
  destination: row.destination,
  expiresAt: isoOf(row.expires_at),
  revokedAt: isoOrNull(row.revoked_at),
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** Live location shares. Owner operations are scoped to the owner; the public read goes by the token's hash. */
export class LiveShareRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async create(userId: string, share: { id: string; tokenHash: string; expiresAt: Date } & LiveSharePosition): Promise<LiveShareRecord> {
    const rows = await this.sql.query<Row>(
      `insert into live_shares (id, user_id, token_hash, lat, lng, heading, eta_seconds, destination, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, $9) returning ${COLUMNS}`,
      [
        share.id,
        userId,
        share.tokenHash,
        share.lat,
        share.lng,
        share.heading,
        share.etaSeconds,
        share.destination === null ? null : JSON.stringify(share.destination),
        share.expiresAt.toISOString(),
      ],
    );
    return toRecord(rows[0]!);
  }

  async listActive(userId: string): Promise<LiveShareRecord[]> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from live_shares where user_id = $1 and revoked_at is null and expires_at > now() order by created_at desc limit 100`,
      [userId],
    );
    return rows.map(toRecord);
  }

  async listAll(userId: string): Promise<LiveShareRecord[]> {
    return (await this.sql.query<Row>(`select ${COLUMNS} from live_shares where user_id = $1 order by created_at desc`, [userId])).map(toRecord);
  }

  /** Moves an active share; null when it is not the owner's or no longer active. */
  async updatePosition(userId: string, id: string, position: Partial<LiveSharePosition>): Promise<LiveShareRecord | null> {
    const rows = await this.sql.query<Row>(
      `update live_shares set lat = coalesce($3, lat), lng = coalesce($4, lng), heading = coalesce($5, heading),
         eta_seconds = coalesce($6, eta_seconds), updated_at = clock_timestamp()
       where user_id = $1 and id = $2 and revoked_at is null and expires_at > now() returning ${COLUMNS}`,
      [userId, id, position.lat ?? null, position.lng ?? null, position.heading ?? null, position.etaSeconds ?? null],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async revoke(userId: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('update live_shares set revoked_at = now() where user_id = $1 and id = $2 and revoked_at is null returning id', [
      userId,
      id,
    ]);
    return rows.length > 0;
  }

  /** The public view of an active share, by the hash of its token. */
  async findActiveByTokenHash(tokenHash: string): Promise<LiveShareRecord | null> {
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from live_shares where token_hash = $1 and revoked_at is null and expires_at > now()`,
      [tokenHash],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }
}
