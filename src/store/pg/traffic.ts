/**
 * Learned traffic in SQL (migration 017, docs/traffic.md): the durable trip
 * queue, the profile sums, held-out traversals and segment contributors.
 * Claims are one statement with `for update skip locked`, so processes never
 * take the same trip at once; filing is fenced on the attempt a processor
 * claimed, so a trip re-claimed after a lost lease is filed once.
 */
import type { FiledObservation, ProfileRow, ProfileType, QueuedTrip, TripFix } from '../../domain/traffic.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';

export interface BoundingBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export interface NewTrip {
  id: string;
  ownerKind: string;
  ownerId: string;
  contributor: string;
  simulated: boolean;
  holdout: boolean;
  fixes: TripFix[];
}

interface ProfileDbRow extends Record<string, unknown> {
  segment_key: string;
  profile_type: ProfileType;
  dow: number;
  hour: number;
  country: string;
  lat: number;
  lng: number;
  free_flow_kph: number;
  sample_count: number;
  simulated_count: number;
  speed_sum: number;
  speed_sq_sum: number;
  ratio_sum: number;
}

const PROFILE_COLUMNS = 'segment_key, profile_type, dow, hour, country, lat, lng, free_flow_kph, sample_count, simulated_count, speed_sum, speed_sq_sum, ratio_sum';

function profileOf(row: ProfileDbRow): ProfileRow {
  return {
    segmentKey: row.segment_key,
    profileType: row.profile_type,
    dow: Number(row.dow),
    hour: Number(row.hour),
    country: row.country,
    lat: Number(row.lat),
    lng: Number(row.lng),
    freeFlowKph: Number(row.free_flow_kph),
    sampleCount: Number(row.sample_count),
    simulatedCount: Number(row.simulated_count),
    speedSum: Number(row.speed_sum),
    speedSqSum: Number(row.speed_sq_sum),
    ratioSum: Number(row.ratio_sum),
  };
}

export interface TripCounts {
  queued: number;
  processing: number;
  done: number;
  failed: number;
  simulated: number;
  lastFinishedAt: string | null;
}

export class TrafficRepository {
  constructor(private readonly sql: SqlClient) {}

  /** Stores a trip as queued: once this returns, the trip survives any crash. */
  async insertTrip(trip: NewTrip): Promise<void> {
    await this.sql.query(
      `insert into traffic_trips (id, owner_kind, owner_id, contributor, simulated, holdout, fix_count, fixes, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, 'queued')`,
      [trip.id, trip.ownerKind, trip.ownerId, trip.contributor, trip.simulated, trip.holdout, trip.fixes.length, JSON.stringify(trip.fixes.map((fix) => [fix.lat, fix.lng, fix.t]))],
    );
  }

  /** Claims up to `limit` trips: queued ones, or ones whose processor's lease ran out. */
  async claim(limit: number, leaseMs: number): Promise<QueuedTrip[]> {
    const rows = await this.sql.query<{ id: string; contributor: string; simulated: boolean; holdout: boolean; fixes: unknown; attempts: number }>(
      `update traffic_trips set status = 'processing', attempts = attempts + 1, lease_expires_at = clock_timestamp() + ($2::integer * interval '1 millisecond')
        where id in (
          select id from traffic_trips
           where fixes is not null and (status = 'queued' or (status = 'processing' and lease_expires_at < clock_timestamp()))
           order by received_at limit $1 for update skip locked)
        returning id, contributor, simulated, holdout, fixes, attempts`,
      [limit, leaseMs],
    );
    return rows.map(queuedTripOf);
  }

  /**
   * Claims one trip by id (a work-queue delivery): when it is queued, or processing under a lease that ran out.
   * Otherwise says why not: `finished` (done, failed, purged: nothing left to do) or `leased` (another
   * processor holds it; `leaseLeftMs` until its lease runs out).
   */
  async claimTrip(id: string, leaseMs: number): Promise<{ trip: QueuedTrip } | { state: 'finished' } | { state: 'leased'; leaseLeftMs: number }> {
    const rows = await this.sql.query<{ id: string; contributor: string; simulated: boolean; holdout: boolean; fixes: unknown; attempts: number }>(
      `update traffic_trips set status = 'processing', attempts = attempts + 1, lease_expires_at = clock_timestamp() + ($2::integer * interval '1 millisecond')
        where id = $1 and fixes is not null and (status = 'queued' or (status = 'processing' and lease_expires_at < clock_timestamp()))
        returning id, contributor, simulated, holdout, fixes, attempts`,
      [id, leaseMs],
    );
    if (rows[0]) return { trip: queuedTripOf(rows[0]) };
    const [held] = await this.sql.query<{ left_ms: number | string }>(
      `select greatest(0, extract(epoch from lease_expires_at - clock_timestamp()) * 1000)::integer as left_ms
         from traffic_trips where id = $1 and status = 'processing' and fixes is not null`,
      [id],
    );
    return held ? { state: 'leased', leaseLeftMs: Number(held.left_ms) } : { state: 'finished' };
  }

  /** Trips received more than `olderThanMs` ago and not finished, oldest first: the ones a lost enqueue may have stranded. */
  async unfinishedTripIds(olderThanMs: number, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(
      `select id from traffic_trips
        where fixes is not null and received_at < clock_timestamp() - ($1::integer * interval '1 millisecond')
          and (status = 'queued' or (status = 'processing' and lease_expires_at < clock_timestamp()))
        order by received_at limit $2`,
      [olderThanMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Files a processed trip: its observations into the profiles (or the held-out set), its contributor onto
   * the segments, and the trip done with its raw fixes dropped. Nothing is filed when the trip was claimed
   * again since (`attempts` moved on) or finished: false then.
   */
  async fileTrip(trip: Pick<QueuedTrip, 'id' | 'attempts' | 'holdout' | 'contributor' | 'simulated'>, observations: readonly FiledObservation[], outcome: Record<string, unknown>): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const fenced = await tx.query(
        `update traffic_trips set status = 'done', fixes = null, finished_at = clock_timestamp(), lease_expires_at = null, outcome = $3::text::jsonb
          where id = $1 and status = 'processing' and attempts = $2 returning id`,
        [trip.id, trip.attempts, JSON.stringify(outcome)],
      );
      if (!fenced.length) return false;
      if (!observations.length) return true;
      if (trip.holdout) await insertHoldout(tx, trip.id, observations);
      else await upsertProfiles(tx, observations, trip.simulated);
      await upsertContributors(tx, observations, trip.contributor);
      return true;
    });
  }

  /** A trip that could not be processed (after its attempts): failed, raw fixes dropped. */
  async failTrip(id: string, attempts: number, reason: string): Promise<void> {
    await this.sql.query(
      `update traffic_trips set status = 'failed', fixes = null, finished_at = clock_timestamp(), lease_expires_at = null, outcome = $3::text::jsonb
        where id = $1 and attempts = $2 and status = 'processing'`,
      [id, attempts, JSON.stringify({ reason })],
    );
  }

  /** Gives a claimed trip back to the queue (shutdown), keeping its fixes. */
  async release(id: string, attempts: number): Promise<void> {
    await this.sql.query(`update traffic_trips set status = 'queued', lease_expires_at = null where id = $1 and attempts = $2 and status = 'processing'`, [id, attempts]);
  }

  /** Retention: trips (with any raw fixes) older than `tripRetentionMs`; held-out traversals and contributor marks older than `aggregateRetentionMs`. */
  async purge(tripRetentionMs: number, aggregateRetentionMs: number): Promise<{ trips: number; holdout: number; contributors: number }> {
    const trips = await this.sql.query(`delete from traffic_trips where received_at < clock_timestamp() - ($1::bigint * interval '1 millisecond') returning id`, [tripRetentionMs]);
    const holdout = await this.sql.query(`delete from traffic_holdout where observed_at < clock_timestamp() - ($1::bigint * interval '1 millisecond') returning trip_id`, [aggregateRetentionMs]);
    const contributors = await this.sql.query(`delete from traffic_segment_contributors where last_seen < clock_timestamp() - ($1::bigint * interval '1 millisecond') returning segment_key`, [aggregateRetentionMs]);
    return { trips: trips.length, holdout: holdout.length, contributors: contributors.length };
  }

  async profilesOfSegment(segmentKey: string): Promise<ProfileRow[]> {
    const rows = await this.sql.query<ProfileDbRow>(`select ${PROFILE_COLUMNS} from traffic_profiles where segment_key = $1`, [segmentKey]);
    return rows.map(profileOf);
  }

  /** Profiles whose segment midpoint lies in the box, at the given local hours (all hours without). */
  async profilesInBox(box: BoundingBox, hours: readonly number[] | undefined, limit: number): Promise<ProfileRow[]> {
    const rows = await this.sql.query<ProfileDbRow>(
      `select ${PROFILE_COLUMNS} from traffic_profiles
        where lat between $1 and $2 and lng between $3 and $4 ${hours ? 'and hour = any($6::smallint[])' : ''}
        order by segment_key limit $5`,
      hours ? [box.minLat, box.maxLat, box.minLng, box.maxLng, limit, hours] : [box.minLat, box.maxLat, box.minLng, box.maxLng, limit],
    );
    return rows.map(profileOf);
  }

  async contributorsInBox(box: BoundingBox, limit: number): Promise<{ lat: number; lng: number; contributor: string }[]> {
    const rows = await this.sql.query<{ lat: number; lng: number; contributor: string }>(
      `select lat, lng, contributor from traffic_segment_contributors where lat between $1 and $2 and lng between $3 and $4 limit $5`,
      [box.minLat, box.maxLat, box.minLng, box.maxLng, limit],
    );
    return rows.map((row) => ({ lat: Number(row.lat), lng: Number(row.lng), contributor: row.contributor }));
  }

  async tripCounts(): Promise<TripCounts> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `select count(*) filter (where status = 'queued') as queued, count(*) filter (where status = 'processing') as processing,
              count(*) filter (where status = 'done') as done, count(*) filter (where status = 'failed') as failed,
              count(*) filter (where simulated) as simulated, max(finished_at) as last_finished from traffic_trips`,
    );
    const row = rows[0]!;
    const last = row.last_finished as Date | string | null;
    return {
      queued: Number(row.queued),
      processing: Number(row.processing),
      done: Number(row.done),
      failed: Number(row.failed),
      simulated: Number(row.simulated),
      lastFinishedAt: last ? new Date(last).toISOString() : null,
    };
  }

  async profileStats(trustMin: number): Promise<{ profiles: number; segments: number; samples: number; meanSampleCount: number; trustworthy: number; simulatedSamples: number; lastUpdateAt: string | null; oldestUpdateAt: string | null; inSampleSqErrorSum: number }> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `select count(*) as profiles, count(distinct segment_key) as segments, coalesce(sum(sample_count), 0) as samples,
              coalesce(avg(sample_count), 0) as mean_samples, count(*) filter (where sample_count >= $1) as trustworthy,
              coalesce(sum(simulated_count), 0) as simulated, max(updated_at) as last_update, min(updated_at) as oldest_update,
              coalesce(sum(speed_sq_sum - speed_sum * speed_sum / sample_count), 0) as sq_error
         from traffic_profiles`,
      [trustMin],
    );
    const row = rows[0]!;
    const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
    return {
      profiles: Number(row.profiles),
      segments: Number(row.segments),
      samples: Number(row.samples),
      meanSampleCount: Number(row.mean_samples),
      trustworthy: Number(row.trustworthy),
      simulatedSamples: Number(row.simulated),
      lastUpdateAt: iso(row.last_update),
      oldestUpdateAt: iso(row.oldest_update),
      inSampleSqErrorSum: Math.max(0, Number(row.sq_error)),
    };
  }

  /** The newest held-out traversals (validation). */
  async holdout(limit: number): Promise<{ segmentKey: string; country: string; observedAt: number; speedKph: number }[]> {
    const rows = await this.sql.query<{ segment_key: string; country: string; observed_at: Date | string; speed_kph: number }>(
      `select segment_key, country, observed_at, speed_kph from traffic_holdout order by observed_at desc limit $1`,
      [limit],
    );
    return rows.map((row) => ({ segmentKey: row.segment_key, country: row.country, observedAt: new Date(row.observed_at).getTime(), speedKph: Number(row.speed_kph) }));
  }

  /** Every profile at the given local hours (a traffic metric's moment: one hour per timezone in use). */
  async profilesAtHours(hours: readonly number[], limit: number): Promise<ProfileRow[]> {
    const rows = await this.sql.query<ProfileDbRow>(`select ${PROFILE_COLUMNS} from traffic_profiles where hour = any($1::smallint[]) order by segment_key limit $2`, [hours, limit]);
    return rows.map(profileOf);
  }

  /** Changes whenever a profile is written (the newest update time; by its index, no scan): null before any. */
  async profilesVersion(): Promise<string | null> {
    const [row] = await this.sql.query<{ version: string | null }>(`select max(updated_at)::text as version from traffic_profiles`);
    return row?.version ?? null;
  }

  async profilesOfSegments(segmentKeys: readonly string[]): Promise<ProfileRow[]> {
    if (!segmentKeys.length) return [];
    const rows = await this.sql.query<ProfileDbRow>(`select ${PROFILE_COLUMNS} from traffic_profiles where segment_key = any($1::text[])`, [segmentKeys]);
    return rows.map(profileOf);
  }

  /** Changes in the last `days`: profile rows updated, distinct segments updated. */
  async changesSince(days: number): Promise<{ profiles: number; segments: number; trips: number }> {
    const rows = await this.sql.query<Record<string, unknown>>(
      `select (select count(*) from traffic_profiles where updated_at >= clock_timestamp() - ($1::integer * interval '1 day')) as profiles,
              (select count(distinct segment_key) from traffic_profiles where updated_at >= clock_timestamp() - ($1::integer * interval '1 day')) as segments,
              (select count(*) from traffic_trips where status = 'done' and finished_at >= clock_timestamp() - ($1::integer * interval '1 day')) as trips`,
      [days],
    );
    const row = rows[0]!;
    return { profiles: Number(row.profiles), segments: Number(row.segments), trips: Number(row.trips) };
  }
}

function queuedTripOf(row: { id: string; contributor: string; simulated: boolean; holdout: boolean; fixes: unknown; attempts: number }): QueuedTrip {
  const raw = (typeof row.fixes === 'string' ? JSON.parse(row.fixes) : row.fixes) as [number, number, number][];
  return { id: row.id, contributor: row.contributor, simulated: row.simulated, holdout: row.holdout, attempts: Number(row.attempts), fixes: raw.map(([lat, lng, t]) => ({ lat, lng, t })) };
}

async function insertHoldout(tx: SqlExecutor, tripId: string, observations: readonly FiledObservation[]): Promise<void> {
  await tx.query(
    `insert into traffic_holdout (trip_id, segment_key, country, observed_at, speed_kph, free_flow_kph)
     select $1, * from unnest($2::text[], $3::text[], $4::timestamptz[], $5::real[], $6::real[])`,
    [
      tripId,
      observations.map((o) => o.segmentKey),
      observations.map((o) => o.country),
      observations.map((o) => new Date(o.observedAt).toISOString()),
      observations.map((o) => o.speedKph),
      observations.map((o) => o.freeFlowKph),
    ],
  );
}

/** Adds the observations to their profile rows; several of one trip on one key are summed first (one upsert per key). */
async function upsertProfiles(tx: SqlExecutor, observations: readonly FiledObservation[], simulated: boolean): Promise<void> {
  const byKey = new Map<string, FiledObservation & { n: number; speedSum: number; speedSqSum: number; ratioSum: number }>();
  for (const o of observations) {
    const key = `${o.segmentKey}|${o.profileType}|${o.dow}|${o.hour}`;
    const ratio = o.freeFlowKph > 0 ? o.speedKph / o.freeFlowKph : 1;
    const entry = byKey.get(key);
    if (entry) {
      entry.n++;
      entry.speedSum += o.speedKph;
      entry.speedSqSum += o.speedKph ** 2;
      entry.ratioSum += ratio;
    } else byKey.set(key, { ...o, n: 1, speedSum: o.speedKph, speedSqSum: o.speedKph ** 2, ratioSum: ratio });
  }
  const list = [...byKey.values()];
  await tx.query(
    `insert into traffic_profiles (segment_key, profile_type, dow, hour, country, lat, lng, free_flow_kph, sample_count, simulated_count, speed_sum, speed_sq_sum, ratio_sum)
     select s, p, d, h, c, la, ln, f, n, case when $13 then n else 0 end, ss, sq, r
       from unnest($1::text[], $2::text[], $3::smallint[], $4::smallint[], $5::text[], $6::float8[], $7::float8[], $8::real[], $9::integer[], $10::float8[], $11::float8[], $12::float8[])
            as t(s, p, d, h, c, la, ln, f, n, ss, sq, r)
     on conflict (segment_key, profile_type, dow, hour) do update set
       sample_count = traffic_profiles.sample_count + excluded.sample_count,
       simulated_count = traffic_profiles.simulated_count + excluded.simulated_count,
       speed_sum = traffic_profiles.speed_sum + excluded.speed_sum,
       speed_sq_sum = traffic_profiles.speed_sq_sum + excluded.speed_sq_sum,
       ratio_sum = traffic_profiles.ratio_sum + excluded.ratio_sum,
       free_flow_kph = excluded.free_flow_kph,
       updated_at = clock_timestamp()`,
    [
      list.map((o) => o.segmentKey),
      list.map((o) => o.profileType),
      list.map((o) => o.dow),
      list.map((o) => o.hour),
      list.map((o) => o.country),
      list.map((o) => o.lat),
      list.map((o) => o.lng),
      list.map((o) => o.freeFlowKph),
      list.map((o) => o.n),
      list.map((o) => o.speedSum),
      list.map((o) => o.speedSqSum),
      list.map((o) => o.ratioSum),
      simulated,
    ],
  );
}

async function upsertContributors(tx: SqlExecutor, observations: readonly FiledObservation[], contributor: string): Promise<void> {
  const bySegment = new Map<string, FiledObservation>();
  for (const o of observations) bySegment.set(o.segmentKey, o);
  const list = [...bySegment.values()];
  await tx.query(
    `insert into traffic_segment_contributors (segment_key, contributor, lat, lng, last_seen)
     select s, $1, la, ln, clock_timestamp() from unnest($2::text[], $3::float8[], $4::float8[]) as t(s, la, ln)
     on conflict (segment_key, contributor) do update set last_seen = excluded.last_seen`,
    [contributor, list.map((o) => o.segmentKey), list.map((o) => o.lat), list.map((o) => o.lng)],
  );
}
