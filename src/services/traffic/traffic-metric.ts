/**
 * The routing engine's traffic metric (docs/traffic.md "Traffic in routing"):
 * for the moment a route asks for (`date_time`), every road segment's learned
 * speed ratio, resolved in its own country's clock and calendar with the
 * profile fallback ramadan → holiday → weekend → typical and only from
 * trustworthy profiles, mapped to the pack's edges. The engine divides each
 * listed edge's travel time by its ratio; every other edge keeps free flow.
 * Without a trustworthy profile at that moment there is no traffic metric at
 * all, so the route is exactly the free-flow one.
 *
 * The ratios of a moment are kept per half hour (every timezone of the region
 * is a whole number of half hours from UTC, so within one half hour every
 * country's local hour and date stay the same) and read again when the
 * profiles changed, at most once a minute.
 */
import { createHash } from 'node:crypto';
import type { MapPack } from '../../datapack/map-pack.js';
import type { ProfileRow, ProfileType } from '../../domain/traffic.js';
import type { TrafficWeights } from '../../solvers/routing/costing/profiles.js';
import { segmentEdgeIndex } from '../../solvers/routing/traffic/trip-traversals.js';
import type { TrafficRepository } from '../../store/pg/traffic.js';
import type { CalendarService } from '../calendars/calendar-service.js';
import { COUNTRY_CODES, COUNTRY_PROFILES, type CountryCode } from '../calendars/country-profiles.js';
import { countryAt } from '../geocoding/countries.js';
import { countryOrJordan, fallbackKeys, groupBySegment, localClock, pool, PROFILE_TYPES, profileTypeOf, TRUST_MIN_SAMPLES, type LocalClock } from './traffic-model.js';

export const TRAFFIC_METRIC = Object.freeze({
  /** Speed ratios are kept within these bounds, as POST /traffic/route does. */
  minRatio: 0.25,
  maxRatio: 1.5,
  /** Most profile rows one moment reads (all segments at one local hour per timezone). */
  maxRows: 500_000,
  /** Moments whose ratios are kept (least recently used beyond this are dropped). */
  cachedMoments: 8,
  /** The moment's cache slot: 30 minutes. */
  slotMs: 30 * 60_000,
  /**
   * A moment's ratios are read again when the profiles changed, but at most this often: a busy intake changes
   * them every second, and every new content is a new metric whose hierarchy has to be built.
   */
  refreshMs: 60_000,
});

/** Valhalla's `date_time`: 0 now, 1 depart at, 2 arrive by, 3 invariant (no time: free flow). */
export interface DateTimeRequest {
  type: 0 | 1 | 2 | 3;
  /** `YYYY-MM-DDTHH:MM` local time of the first location's country, or an ISO date-time with `Z` or an offset. */
  value?: string;
}

/** What the route answer says about the metric it was searched on (`trafficModel`). */
export interface TrafficModelAnswer {
  /** True when the search ran on learned traffic (at least one segment had a trustworthy profile). */
  used: boolean;
  metric: 'traffic' | 'free-flow';
  reason?: string;
  dateTimeType: DateTimeRequest['type'];
  /** The moment the metric is for (UTC). */
  at: string;
  /** The first location's country, whose clock reads a local `value` and whose calendar is shown. */
  country: CountryCode;
  profileType: ProfileType;
  dow: number;
  todBucket: number;
  calendar: { isHoliday: boolean; isWeekend: boolean; isRamadan: boolean };
  /** Segments (directed pack edges) whose time was taken from a trustworthy profile. */
  segmentsWithProfiles: number;
  /** How many of them each profile type answered (each segment falls back on its own). */
  profileTypes: Record<ProfileType, number>;
  trustMinSamples: number;
  simulated: boolean;
}

export interface TrafficMetricChoice {
  /** Undefined: search at free flow. */
  weights?: TrafficWeights;
  model: TrafficModelAnswer;
}

/** The ratios of one moment over the pack's edges. */
interface MomentWeights {
  weights?: TrafficWeights;
  profileTypes: Record<ProfileType, number>;
  simulated: boolean;
}

type Flags = { isHoliday: boolean; isWeekend: boolean; isRamadan: boolean };

export class TrafficMetrics {
  private edges?: Map<string, number>;
  private readonly moments = new Map<number, { version: string; readAtMs: number; weights: Promise<MomentWeights> }>();

  constructor(
    private readonly repository: Pick<TrafficRepository, 'profilesAtHours' | 'profilesVersion'>,
    private readonly calendars: Pick<CalendarService, 'flags'>,
    private readonly pack: MapPack,
    private readonly now: () => number = Date.now,
  ) {}

  /** The metric for a route asked at `dateTime` from `origin`. */
  async choose(dateTime: DateTimeRequest, origin: { lat: number; lon: number }): Promise<TrafficMetricChoice> {
    const country = countryOrJordan(countryAt(origin.lon, origin.lat)?.code);
    const atMs = dateTime.type === 0 || dateTime.value === undefined ? this.now() : instantOf(country, dateTime.value);
    const clock = localClock(country, atMs);
    const flags = this.flagsOf(country, atMs);
    const base = {
      dateTimeType: dateTime.type,
      at: new Date(atMs).toISOString(),
      country,
      profileType: profileTypeOf(flags),
      dow: clock.dow,
      todBucket: clock.hour,
      calendar: flags,
      trustMinSamples: TRUST_MIN_SAMPLES,
    };
    if (dateTime.type === 3) {
      return { model: { used: false, metric: 'free-flow', reason: 'date_time type 3 (invariant) asks for no time: free flow', ...base, segmentsWithProfiles: 0, profileTypes: emptyCounts(), simulated: false } };
    }
    const moment = await this.momentWeights(atMs);
    const used = moment.weights !== undefined;
    return {
      ...(moment.weights ? { weights: moment.weights } : {}),
      model: {
        used,
        metric: used ? 'traffic' : 'free-flow',
        ...(used ? {} : { reason: 'no trustworthy traffic profile at this moment: free flow' }),
        ...base,
        segmentsWithProfiles: moment.weights?.edges.length ?? 0,
        profileTypes: moment.profileTypes,
        simulated: moment.simulated,
      },
    };
  }

  private async momentWeights(atMs: number): Promise<MomentWeights> {
    const version = await this.repository.profilesVersion();
    if (version === null) return { profileTypes: emptyCounts(), simulated: false };
    const slot = Math.floor(atMs / TRAFFIC_METRIC.slotMs);
    const known = this.moments.get(slot);
    this.moments.delete(slot);
    if (known && (known.version === version || this.now() - known.readAtMs < TRAFFIC_METRIC.refreshMs)) {
      this.moments.set(slot, known);
      return known.weights;
    }
    const weights = this.readMoment(atMs);
    const entry = { version, readAtMs: this.now(), weights };
    this.moments.set(slot, entry);
    weights.catch(() => {
      if (this.moments.get(slot) === entry) this.moments.delete(slot);
    });
    if (this.moments.size > TRAFFIC_METRIC.cachedMoments) this.moments.delete(this.moments.keys().next().value!);
    return weights;
  }

  private async readMoment(atMs: number): Promise<MomentWeights> {
    const clocks = new Map<CountryCode, LocalClock>();
    for (const code of COUNTRY_CODES) clocks.set(code, localClock(code, atMs));
    const rows = await this.repository.profilesAtHours([...new Set([...clocks.values()].map((clock) => clock.hour))], TRAFFIC_METRIC.maxRows);
    this.edges ??= segmentEdgeIndex(this.pack);
    const flagsByCountry = new Map<CountryCode, Flags>();
    const profileTypes = emptyCounts();
    const pairs: [number, number][] = [];
    let simulated = false;
    for (const [segmentKey, segmentRows] of groupBySegment(rows)) {
      const edge = this.edges.get(segmentKey);
      if (edge === undefined) continue;
      const country = countryOrJordan(segmentRows[0]!.country);
      const clock = clocks.get(country)!;
      let flags = flagsByCountry.get(country);
      if (!flags) flagsByCountry.set(country, (flags = this.flagsOf(country, atMs)));
      const resolved = trustworthyProfile(segmentRows, clock, flags);
      if (!resolved) continue;
      pairs.push([edge, Math.min(TRAFFIC_METRIC.maxRatio, Math.max(TRAFFIC_METRIC.minRatio, resolved.ratio))]);
      profileTypes[resolved.profileType]++;
      simulated ||= resolved.simulated;
    }
    if (!pairs.length) return { profileTypes, simulated: false };
    pairs.sort((a, b) => a[0] - b[0]);
    const edges = Uint32Array.from(pairs, (pair) => pair[0]);
    const speedRatio = Float32Array.from(pairs, (pair) => pair[1]);
    return { weights: { id: contentId(edges, speedRatio), edges, speedRatio }, profileTypes, simulated };
  }

  private flagsOf(country: CountryCode, atMs: number): Flags {
    const all = this.calendars.flags(country, atMs);
    return { isHoliday: all.isHoliday, isWeekend: all.isWeekend, isRamadan: all.isRamadan };
  }
}

/**
 * The first fallback key (ramadan → holiday → weekend → typical, the weekday then pooled) whose pooled
 * samples reach the trust threshold, at the clock's hour. A key with too few samples does not stop the
 * fallback: a trustworthy typical profile times the road better than two holiday samples.
 */
export function trustworthyProfile(rows: readonly ProfileRow[], clock: LocalClock, flags: Flags): { profileType: ProfileType; ratio: number; simulated: boolean } | undefined {
  for (const key of fallbackKeys(clock, flags)) {
    const sums = pool(rows.filter((row) => row.hour === clock.hour && row.profileType === key.profileType && (key.dow === undefined || row.dow === key.dow)));
    if (sums && sums.sampleCount >= TRUST_MIN_SAMPLES) return { profileType: key.profileType, ratio: sums.ratioSum / sums.sampleCount, simulated: sums.simulatedCount > 0 };
  }
  return undefined;
}

/** A local date-time without offset is read in the country's timezone; with `Z` or an offset it is an instant. */
export function instantOf(country: CountryCode, value: string): number {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(value)) return Date.parse(value);
  const [date, time] = value.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute, second = 0] = time.split(':').map(Number) as [number, number, number?];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // the offset at the wall time read as UTC, then once more at the corrected instant (a summer-time change between them)
  let instant = wall - offsetMs(country, wall);
  instant = wall - offsetMs(country, instant);
  return instant;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The country's UTC offset at an instant (ms). */
function offsetMs(country: CountryCode, atMs: number): number {
  const timeZone = COUNTRY_PROFILES[country].timeZone;
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    offsetFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(atMs)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return local - Math.floor(atMs / 1000) * 1000;
}

function contentId(edges: Uint32Array, speedRatio: Float32Array): string {
  const hash = createHash('sha256');
  hash.update(new Uint8Array(edges.buffer, edges.byteOffset, edges.byteLength));
  hash.update(new Uint8Array(speedRatio.buffer, speedRatio.byteOffset, speedRatio.byteLength));
  return hash.digest('base64url').slice(0, 16);
}

function emptyCounts(): Record<ProfileType, number> {
  return Object.fromEntries(PROFILE_TYPES.map((type) => [type, 0])) as Record<ProfileType, number>;
}
