/**
 * Learned traffic in SQL (migration 017, docs/traffic.md): the durable trip
 * queue, the profile sums, held-out traversals and segment contributors.
 * Claims are one statement with `for update skip locked`, so processes never
 * take the same trip at once; filing is fenced on the attempt a processor
 * claimed, so a trip re-claimed after a lost lease is filed once.
 */
import type { FiledObservation, ProfileRow, ProfileType, QueuedTrip, TripFix } from '../../domain/traffic.js';
import type { SqlClient } from '../sql/sql-client.js';
import { packFixes, unpackFixes } from './trip-fixes.js';

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

/**
 * Appended to the claim's and the filing's select list: that statement's transaction commits without waiting for
 * its WAL to reach the disk (`synchronous_commit = off` for this transaction only; the session keeps its setting).
 * Only the insert must be durable before it is acknowledged. A claim or a filing lost with the last few hundred
 * milliseconds of WAL in a database crash is lost whole (each is one statement) and leaves the trip unfinished,
 * so it is filed once all the same: a lost claim makes its processor's filing miss the fence (the attempt it
 * holds is gone), and the trip, still queued or with a lapsed lease, is queued again by the sweep; a lost filing
 * leaves the trip `processing` under a lease that runs out, and the sweep queues it again. Any later synchronous
 * commit (the next insert) flushes them too. Why: waiting for the flush twice a trip cost the intake's thread
 * CPU of its own (each wake-up after a sleep runs on cold caches): about 0.3 ms a trip on this machine.
 */
const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true) as async_commit`;

export class TrafficRepository {
  constructor(private readonly sql: SqlClient) {}

  /** Stores a trip as queued: once this returns, the trip survives any crash. Its fixes go packed (`packFixes`). */
  async insertTrip(trip: NewTrip): Promise<void> {
    await this.sql.query(
      `insert into traffic_trips (id, owner_kind, owner_id, contributor, simulated, holdout, fix_count, fix_data, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8::bytea, 'queued')`,
      [trip.id, trip.ownerKind, trip.ownerId, trip.contributor, trip.simulated, trip.holdout, trip.fixes.length, packFixes(trip.fixes)],
      { prepared: true },
    );
  }

  /** Claims up to `limit` trips: queued ones, or ones whose processor's lease ran out. */
  async claim(limit: number, leaseMs: number): Promise<QueuedTrip[]> {
    const rows = await this.sql.query<ClaimedRow>(
      `update traffic_trips set status = 'processing', attempts = attempts + 1, lease_expires_at = clock_timestamp() + ($2::integer * interval '1 millisecond')
        where id in (
          select id from traffic_trips
           where (fix_data is not null or fixes is not null) and (status = 'queued' or (status = 'processing' and lease_expires_at < clock_timestamp()))
           order by received_at limit $1 for update skip locked)
        returning id, contributor, simulated, holdout, fix_data, fixes, attempts, ${ASYNC_COMMIT}`,
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
    const rows = await this.sql.query<ClaimedRow>(
      `update traffic_trips set status = 'processing', attempts = attempts + 1, lease_expires_at = clock_timestamp() + ($2::integer * interval '1 millisecond')
        where id = $1 and (fix_data is not null or fixes is not null) and (status = 'queued' or (status = 'processing' and lease_expires_at < clock_timestamp()))
        returning id, contributor, simulated, holdout, fix_data, fixes, attempts, ${ASYNC_COMMIT}`,
      [id, leaseMs],
      { prepared: true },
    );
    if (rows[0]) return { trip: queuedTripOf(rows[0]) };
    const [held] = await this.sql.query<{ left_ms: number | string }>(
      `select greatest(0, extract(epoch from lease_expires_at - clock_timestamp()) * 1000)::integer as left_ms
         from traffic_trips where id = $1 and status = 'processing' and (fix_data is not null or fixes is not null)`,
      [id],
      { prepared: true },
    );
    return held ? { state: 'leased', leaseLeftMs: Number(held.left_ms) } : { state: 'finished' };
  }

  /**
   * Trips received at least `olderThanMs` ago and not finished, oldest first: the ones a lost enqueue may have
   * stranded. At least, not more than: PGlite's clock ticks in whole milliseconds, so a trip received in the same
   * millisecond as the sweep is 0 ms old there, and `0` must still take it.
   */
  async unfinishedTripIds(olderThanMs: number, limit: number): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>(
      `select id from traffic_trips
        where (fix_data is not null or fixes is not null) and received_at <= clock_timestamp() - ($1::integer * interval '1 millisecond')
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
   *
   * One statement (atomic on its own): the fence is a data-modifying CTE and every insert reads it, so an
   * unfenced trip files nothing. As a transaction of four statements (BEGIN, fence, two upserts, COMMIT: eight
   * round trips unprepared) the client's socket writes and protocol work were half the intake's CPU. The rows
   * go as three JSON texts (one `JSON.stringify` each, about 50 µs for 34 observations) rather than 20 arrays,
   * which the driver serialised element by element, escaping each (about 145 µs).
   */
  async fileTrip(trip: Pick<QueuedTrip, 'id' | 'attempts' | 'holdout' | 'contributor' | 'simulated'>, observations: readonly FiledObservation[], outcome: Record<string, unknown>): Promise<boolean> {
    const profiles = trip.holdout ? [] : profileSums(observations);
    const holdout = trip.holdout ? observations.map((o) => ({ s: o.segmentKey, c: o.country, o: new Date(o.observedAt).toISOString(), v: o.speedKph, f: o.freeFlowKph })) : [];
    const contributors = new Map<string, { s: string; la: number; ln: number }>();
    for (const o of observations) contributors.set(o.segmentKey, { s: o.segmentKey, la: o.lat, ln: o.lng });
    const rows = await this.sql.query<{ filed: boolean }>(
      FILE_TRIP,
      [trip.id, trip.attempts, JSON.stringify(outcome), trip.simulated, trip.contributor, JSON.stringify(profiles), JSON.stringify(holdout), JSON.stringify([...contributors.values()])],
      { prepared: true },
    );
    return rows[0]?.filed === true;
  }

  /** A trip that could not be processed (after its attempts): failed, raw fixes dropped. */
  async failTrip(id: string, attempts: number, reason: string): Promise<void> {
    await this.sql.query(
      `update traffic_trips set status = 'failed', fix_data = null, fixes = null, finished_at = clock_timestamp(), lease_expires_at = null, outcome = $3::text::jsonb
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

interface ClaimedRow extends Record<string, unknown> {
  id: string;
  contributor: string;
  simulated: boolean;
  holdout: boolean;
  /** Packed fixes (migration 028): a Buffer from postgres.js, a Uint8Array from PGlite. */
  fix_data: Uint8Array | null;
  /** The JSON fixes of a row stored before 028 (`[[lat, lng, t], ...]`; parsed by the driver or a string). */
  fixes: unknown;
  attempts: number;
}

function queuedTripOf(row: ClaimedRow): QueuedTrip {
  let fixes: TripFix[];
  if (row.fix_data) fixes = unpackFixes(row.fix_data);
  else {
    const raw = (typeof row.fixes === 'string' ? JSON.parse(row.fixes) : row.fixes) as [number, number, number][];
    fixes = raw.map(([lat, lng, t]) => ({ lat, lng, t }));
  }
  return { id: row.id, contributor: row.contributor, simulated: row.simulated, holdout: row.holdout, attempts: Number(row.attempts), fixes };
}


/**
 * One upsert row of the filing statement: a trip's observations summed per profile key (several of one trip on
 * one key become one row). Short names: the rows travel as JSON (`jsonb_to_recordset` in FILE_TRIP).
 */
interface ProfileSumRow {
  s: string;
  p: string;
  d: number;
  h: number;
  c: string;
  la: number;
  ln: number;
  f: number;
  n: number;
  ss: number;
  sq: number;
  r: number;
}

/** A trip's observations summed per profile row. (Built field by field: spreading the observation into each new row cost 8 µs a row.) */
function profileSums(observations: readonly FiledObservation[]): ProfileSumRow[] {
  const byKey = new Map<string, ProfileSumRow>();
  for (const o of observations) {
    const key = `${o.segmentKey}|${o.profileType}|${o.dow}|${o.hour}`;
    const ratio = o.freeFlowKph > 0 ? o.speedKph / o.freeFlowKph : 1;
    const entry = byKey.get(key);
    if (entry) {
      entry.n++;
      entry.ss += o.speedKph;
      entry.sq += o.speedKph ** 2;
      entry.r += ratio;
    } else {
      byKey.set(key, { s: o.segmentKey, p: o.profileType, d: o.dow, h: o.hour, c: o.country, la: o.lat, ln: o.lng, f: o.freeFlowKph, n: 1, ss: o.speedKph, sq: o.speedKph ** 2, r: ratio });
    }
  }
  return [...byKey.values()];
}

/**
 * The filing statement: the fence ($1 id, $2 attempts) marks the trip done; the profile sums ($6, JSON rows of
 * `ProfileSumRow`, empty for a held-out trip), the held-out traversals ($7, empty otherwise) and the contributor
 * marks ($8) are written only when the fence took the trip. `filed` says whether it did. The JSON goes in as
 * text (`::text::jsonb`): a parameter typed jsonb would be stringified by postgres.js again.
 */
const FILE_TRIP = `with fenced as (
    update traffic_trips set status = 'done', fix_data = null, fixes = null, finished_at = clock_timestamp(), lease_expires_at = null, outcome = $3::text::jsonb
     where id = $1::uuid and status = 'processing' and attempts = $2::integer returning id),
  profiles as (
    insert into traffic_profiles (segment_key, profile_type, dow, hour, country, lat, lng, free_flow_kph, sample_count, simulated_count, speed_sum, speed_sq_sum, ratio_sum)
    select s, p, d, h, c, la, ln, f, n, case when $4::boolean then n else 0 end, ss, sq, r
      from jsonb_to_recordset($6::text::jsonb)
           as t(s text, p text, d smallint, h smallint, c text, la float8, ln float8, f real, n integer, ss float8, sq float8, r float8)
     where exists (select 1 from fenced)
    on conflict (segment_key, profile_type, dow, hour) do update set
      sample_count = traffic_profiles.sample_count + excluded.sample_count,
      simulated_count = traffic_profiles.simulated_count + excluded.simulated_count,
      speed_sum = traffic_profiles.speed_sum + excluded.speed_sum,
      speed_sq_sum = traffic_profiles.speed_sq_sum + excluded.speed_sq_sum,
      ratio_sum = traffic_profiles.ratio_sum + excluded.ratio_sum,
      free_flow_kph = excluded.free_flow_kph,
      updated_at = clock_timestamp()),
  held_out as (
    insert into traffic_holdout (trip_id, segment_key, country, observed_at, speed_kph, free_flow_kph)
    select $1::uuid, s, c, o, v, f from jsonb_to_recordset($7::text::jsonb) as t(s text, c text, o timestamptz, v real, f real)
     where exists (select 1 from fenced)),
  contributed as (
    insert into traffic_segment_contributors (segment_key, contributor, lat, lng, last_seen)
    select s, $5::text, la, ln, clock_timestamp() from jsonb_to_recordset($8::text::jsonb) as t(s text, la float8, ln float8)
     where exists (select 1 from fenced)
    on conflict (segment_key, contributor) do update set last_seen = excluded.last_seen)
select exists (select 1 from fenced) as filed, ${ASYNC_COMMIT}`;
