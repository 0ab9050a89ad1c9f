/**
 * The learned-traffic endpoints (spec part 3 §4.4; docs/traffic.md): every
 * answer is read from the profiles the contributed trips built. Where nothing
 * was learned the answer says so (404, `unknown`, empty curves), never free
 * flow or an invented value.
 */
import type { ProfileRow } from '../../domain/traffic.js';
import { ApiError } from '../../shared/errors.js';
import type { BoundingBox, TrafficRepository } from '../../store/pg/traffic.js';
import type { CalendarService } from '../calendars/calendar-service.js';
import { COUNTRY_CODES, type CountryCode } from '../calendars/country-profiles.js';
import {

  CONGESTION_BANDS,
  bandOf,
  countryOrJordan,
  describeSums,
  groupBySegment,
  localClock,
  pool,
  popularityCells,
  POPULARITY,
  resolveProfile,
  TRUST_MIN_SAMPLES,
  type ResolvedProfile,
} from './traffic-model.js';
import { parseAt, parseBbox, parseHorizons, parseHour, parseIntIn, parseSegmentKey, type TrafficRouteRequest } from './traffic-queries.js';
import type { RoutingService } from '../routing/routing-service.js';
import type { TrafficMetrics } from './traffic-metric.js';
import { sameSegments, timeRoute, trafficLevelOf } from './route-timing.js';
import { INGESTION } from './trip-ingestion.js';
import { RAW_FIX_RETENTION_MS } from './trip-request.js';

export const PROVIDER = 'svc-traffic-model';
export const ATTRIBUTION = '© OpenStreetMap contributors, ODbL';
/** Most profile rows one bbox request reads (a city's worth); beyond it the answer says `truncated`. */
export const MAX_BOX_ROWS = 50_000;
/** Held-out traversals one validation reads (the newest). */
export const VALIDATION_SAMPLE = 5_000;

type Query = Record<string, string | undefined>;
interface Moment {
  clock: ReturnType<typeof localClock>;
  flags: { isHoliday: boolean; isWeekend: boolean; isRamadan: boolean };
}

export class TrafficService {
  constructor(
    private readonly repository: TrafficRepository,
    private readonly calendars: Pick<CalendarService, 'flags'>,
    private readonly now: () => number = Date.now,
    private readonly routing?: Pick<RoutingService, 'segments'>,
    /** The engine's traffic metric per moment: routes are searched on it where it exists (wired with routing). */
    private readonly metrics?: Pick<TrafficMetrics, 'choose'>,
  ) {}

  /**
   * POST /traffic/route: the fastest route departing at `departAt` (default now), timed segment by segment with
   * the clock advancing (route-timing.ts). Where the engine has a traffic metric for that moment (trustworthy
   * profiles, as for `date_time` on /routing/route), the route is searched on it and the free-flow fastest route
   * is timed beside it (`freeFlowRoute`); without one the search, and the answer, are the free-flow ones.
   */
  async route(request: TrafficRouteRequest) {
    if (!this.routing) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'Routing is not available' });
    const departMs = request.departAt ? Date.parse(request.departAt) : this.now();
    const metric = { costing: request.costing, preference: 'fastest' as const, avoid: [] };
    const choice = await this.metrics?.choose({ type: 1, value: new Date(departMs).toISOString() }, request.locations[0]!);
    const [routed, freeFlowRouted] = await Promise.all([
      this.routing.segments(choice?.weights ? { ...metric, traffic: choice.weights } : metric, request.locations),
      choice?.weights ? this.routing.segments(metric, request.locations) : undefined,
    ]);
    const keys = new Set([routed, freeFlowRouted].flatMap((path) => path?.legs.flatMap((leg) => leg.segments.map((segment) => segment.segmentKey)) ?? []));
    const bySegment = groupBySegment(await this.repository.profilesOfSegments([...keys]));
    const asked = request.country === undefined ? undefined : countryOrJordan(request.country);
    const resolve = (rows: readonly ProfileRow[], atMs: number) => this.resolveAt(rows, this.countryFor(asked, rows[0]!.country), atMs).resolved;
    const timed = timeRoute(routed, bySegment, departMs, resolve);
    const freeFlowTimed = freeFlowRouted ? timeRoute(freeFlowRouted, bySegment, departMs, resolve) : undefined;
    return {
      provider: PROVIDER,
      available: true,
      basedOnHistory: timed.segmentsWithProfile > 0,
      departAt: new Date(departMs).toISOString(),
      arrivalAt: new Date(timed.arrivalMs).toISOString(),
      distanceMeters: Math.round(timed.distanceMeters),
      freeFlowSeconds: Math.round(timed.freeFlowSeconds),
      trafficSeconds: Math.round(timed.trafficSeconds),
      delaySeconds: Math.round(timed.trafficSeconds) - Math.round(timed.freeFlowSeconds),
      trafficLevel: trafficLevelOf(timed),
      coverage: timed.distanceMeters > 0 ? Math.round((timed.coveredMeters / timed.distanceMeters) * 1000) / 1000 : 0,
      segmentsWithProfile: timed.segmentsWithProfile,
      segmentCount: timed.segmentCount,
      simulated: timed.simulated || (freeFlowTimed?.simulated ?? false),
      // only when the search ran on learned traffic: without it the answer is what it always was
      ...(choice?.weights && freeFlowRouted && freeFlowTimed
        ? {
            trafficModel: choice.model,
            freeFlowRoute: {
              sameRoute: sameSegments(routed, freeFlowRouted),
              distanceMeters: Math.round(freeFlowTimed.distanceMeters),
              freeFlowSeconds: Math.round(freeFlowTimed.freeFlowSeconds),
              trafficSeconds: Math.round(freeFlowTimed.trafficSeconds),
            },
          }
        : {}),
      legs: timed.legs,
      attribution: ATTRIBUTION,
    };
  }

  /**
   * The traffic-aware ETA between two points departing at `departAtMs` (navigation's `source: "traffic"` ETA).
   * `delaySeconds` is the route's traffic time over the free-flow fastest time: when the search on learned
   * traffic leaves the free-flow road, the delay is that of the better road, measured from the free-flow time
   * the session's own base time stands for.
   */
  async etaBetween(input: { from: { lat: number; lng: number }; to: { lat: number; lng: number }; costing: 'auto' | 'truck'; departAtMs: number }) {
    const routed = await this.route({ locations: [{ lat: input.from.lat, lon: input.from.lng }, { lat: input.to.lat, lon: input.to.lng }], costing: input.costing, departAt: new Date(input.departAtMs).toISOString() });
    const freeFlowSeconds = routed.freeFlowRoute?.freeFlowSeconds ?? routed.freeFlowSeconds;
    return { basedOnHistory: routed.basedOnHistory, delaySeconds: routed.trafficSeconds - freeFlowSeconds, trafficLevel: routed.trafficLevel, coverage: routed.coverage, simulated: routed.simulated };
  }

  /**
   * A corridor's learned profiles read once, timed at any instant (POST /commute/advice): each segment's
   * free-flow seconds divided by its profile's speed ratio at `atMs` in the road's own country (ratio kept
   * within [0.25, 1.5], as for /traffic/route), the total capped at `capFactor` times free flow. Segments
   * without a profile keep their free-flow time.
   */
  async corridor(segments: readonly { segmentKey: string; seconds: number; meters: number }[]) {
    const bySegment = groupBySegment(await this.repository.profilesOfSegments([...new Set(segments.map((segment) => segment.segmentKey))]));
    const freeFlowSeconds = segments.reduce((sum, segment) => sum + segment.seconds, 0);
    return {
      freeFlowSeconds,
      at: (atMs: number, capFactor: number) => {
        let trafficSeconds = 0;
        let sampled = 0;
        let coveredMeters = 0;
        let ratioMeters = 0;
        let simulated = false;
        for (const segment of segments) {
          const rows = bySegment.get(segment.segmentKey);
          const resolved = rows ? this.resolveAt(rows, countryOrJordan(rows[0]!.country), atMs).resolved : undefined;
          const described = resolved ? describeSums(resolved.sums) : undefined;
          trafficSeconds += segment.seconds / (described ? Math.min(1.5, Math.max(0.25, described.speedRatio)) : 1);
          if (!described) continue;
          sampled++;
          coveredMeters += segment.meters;
          ratioMeters += described.speedRatio * segment.meters;
          simulated ||= described.simulated;
        }
        const meanRatio = coveredMeters > 0 ? ratioMeters / coveredMeters : undefined;
        return {
          trafficSeconds: Math.min(trafficSeconds, freeFlowSeconds * capFactor),
          segmentsSampled: sampled,
          congestion: meanRatio === undefined ? ('unknown' as const) : bandOf(meanRatio).congestion,
          simulated,
        };
      },
    };
  }

  /** The country whose clock and calendar read a moment: the one asked for (unknown → JO), else the road's own. */
  private countryFor(asked: string | undefined, road: string | undefined): CountryCode {
    return countryOrJordan(asked ?? road);
  }

  /** A country's clock and calendar flags at an instant (one Intl call and one cached flag lookup). */
  private momentIn(country: CountryCode, atMs: number): Moment {
    const clock = localClock(country, atMs);
    const all = this.calendars.flags(country, atMs);
    return { clock, flags: { isHoliday: all.isHoliday, isWeekend: all.isWeekend, isRamadan: all.isRamadan } };
  }

  private resolveAt(rows: readonly ProfileRow[], country: CountryCode, atMs: number, moment: Moment = this.momentIn(country, atMs)): { resolved: ResolvedProfile | undefined } & Moment {
    return { resolved: resolveProfile(rows, moment.clock, moment.flags), ...moment };
  }

  async profile(query: Query) {
    const segmentKey = parseSegmentKey(query.segmentKey);
    const atMs = parseAt(query.at, this.now());
    const rows = await this.repository.profilesOfSegment(segmentKey);
    const country = this.countryFor(query.country, rows[0]?.country);
    const { resolved, clock, flags } = this.resolveAt(rows, country, atMs);
    if (!resolved) throw new ApiError('NOT_FOUND', { message: 'No traffic profile for this segment' });
    const described = describeSums(resolved.sums);
    return {
      provider: PROVIDER,
      segmentKey,
      country,
      at: new Date(atMs).toISOString(),
      profileType: resolved.profileType,
      dow: clock.dow,
      todBucket: clock.hour,
      congestion: described.congestion,
      label: described.label,
      speedRatio: described.speedRatio,
      meanSpeedKph: described.meanSpeedKph,
      freeFlowKph: resolved.sums.freeFlowKph,
      sampleCount: resolved.sums.sampleCount,
      trustworthy: described.trustworthy,
      pooledWeekdays: resolved.pooledDow,
      simulated: described.simulated,
      calendar: flags,
      attribution: ATTRIBUTION,
    };
  }

  async labels(query: Query) {
    const box = parseBbox(query.bbox);
    const atMs = parseAt(query.at, this.now());
    const asked = query.country === undefined ? undefined : countryOrJordan(query.country);
    const countries: CountryCode[] = asked ? [asked] : [...COUNTRY_CODES];
    const hours = [...new Set(countries.map((country) => localClock(country, atMs).hour))];
    const rows = await this.repository.profilesInBox(box, hours, MAX_BOX_ROWS + 1);
    const truncated = rows.length > MAX_BOX_ROWS;
    const bySegment = groupBySegment(rows.slice(0, MAX_BOX_ROWS));
    const labels = [];
    const moments = new Map<CountryCode, Moment>();
    for (const [segmentKey, segmentRows] of bySegment) {
      const country = this.countryFor(asked, segmentRows[0]!.country);
      let moment = moments.get(country);
      if (!moment) moments.set(country, (moment = this.momentIn(country, atMs)));
      const { resolved } = this.resolveAt(segmentRows, country, atMs, moment);
      if (!resolved) continue;
      const described = describeSums(resolved.sums);
      labels.push({
        segmentKey,
        label: described.label,
        congestion: described.congestion,
        speedRatio: described.speedRatio,
        profileType: resolved.profileType,
        reason: `${resolved.profileType} profile${resolved.pooledDow ? ' (weekdays pooled)' : ''} at ${String(moment.clock.hour).padStart(2, '0')}:00 ${country} time from ${resolved.sums.sampleCount} sample${resolved.sums.sampleCount === 1 ? '' : 's'}${described.trustworthy ? '' : ` (below the trust threshold of ${TRUST_MIN_SAMPLES})`}${described.simulated ? '; includes simulated trips' : ''}`,
        sampleCount: resolved.sums.sampleCount,
        lat: segmentRows[0]!.lat,
        lng: segmentRows[0]!.lng,
        simulated: described.simulated,
      });
    }
    return { provider: PROVIDER, count: labels.length, at: new Date(atMs).toISOString(), truncated, labels, attribution: ATTRIBUTION };
  }

  async forecast(query: Query) {
    const segmentKey = parseSegmentKey(query.segmentKey);
    const horizons = parseHorizons(query.horizons);
    const nowMs = this.now();
    const rows = await this.repository.profilesOfSegment(segmentKey);
    const country = this.countryFor(query.country, rows[0]?.country);
    const forecast = horizons.map((horizonMin) => {
      const atMs = nowMs + horizonMin * 60_000;
      const { resolved } = this.resolveAt(rows, country, atMs);
      if (!resolved) return { horizonMin, at: new Date(atMs).toISOString(), congestion: 'unknown' as const, label: null, speedRatio: null, profileType: null, sampleCount: 0 };
      const described = describeSums(resolved.sums);
      return { horizonMin, at: new Date(atMs).toISOString(), congestion: described.congestion, label: described.label, speedRatio: described.speedRatio, profileType: resolved.profileType, sampleCount: resolved.sums.sampleCount };
    });
    return {
      provider: PROVIDER,
      segmentKey,
      country,
      model: { kind: 'historical-profile', fallback: ['ramadan', 'holiday', 'weekend', 'typical'], trustMinSamples: TRUST_MIN_SAMPLES, simulated: rows.some((row) => row.simulatedCount > 0) },
      forecast,
    };
  }

  /** Weekday (typical) and weekend curves of a box: per local hour, the sample-weighted speed ratio. */
  private async curves(box: BoundingBox) {
    const rows = await this.repository.profilesInBox(box, undefined, MAX_BOX_ROWS + 1);
    const used = rows.slice(0, MAX_BOX_ROWS);
    const curveOf = (type: 'typical' | 'weekend') =>
      Array.from({ length: 24 }, (_, hour) => {
        const sums = pool(used.filter((row) => row.profileType === type && row.hour === hour));
        if (!sums) return { hour, speedRatio: null, congestion: 'unknown' as const, sampleCount: 0 };
        const described = describeSums(sums);
        return { hour, speedRatio: described.speedRatio, congestion: described.congestion, sampleCount: sums.sampleCount };
      });
    return { rows: used, truncated: rows.length > MAX_BOX_ROWS, weekday: curveOf('typical'), weekend: curveOf('weekend'), simulated: used.some((row) => row.simulatedCount > 0) };
  }

  async departOptimizer(query: Query) {
    const box = parseBbox(query.bbox);
    const from = parseHour(query.from, 6, 'from');
    const to = parseHour(query.to, 22, 'to');
    if (from > to) throw new ApiError('VALIDATION_ERROR', { message: 'from must not be after to' });
    const { weekday, simulated } = await this.curves(box);
    const inWindow = weekday.filter((point) => point.hour >= from && point.hour <= to && point.speedRatio !== null) as { hour: number; speedRatio: number; sampleCount: number }[];
    const window = { from, to };
    if (!inWindow.length) {
      return { provider: PROVIDER, window, recommendedDeparture: null, worstDeparture: null, vsWorstFasterPct: null, basedOnSamples: 0, simulated, summary: 'No traffic has been learned in this area for these hours.' };
    }
    const best = inWindow.reduce((a, b) => (b.speedRatio > a.speedRatio ? b : a));
    const worst = inWindow.reduce((a, b) => (b.speedRatio < a.speedRatio ? b : a));
    // travel time scales with 1 / speed ratio: leaving at the best hour takes worst/best of the worst hour's time
    const faster = Math.round((1 - worst.speedRatio / best.speedRatio) * 1000) / 10;
    const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
    return {
      provider: PROVIDER,
      window,
      recommendedDeparture: hh(best.hour),
      worstDeparture: hh(worst.hour),
      vsWorstFasterPct: faster,
      basedOnSamples: inWindow.reduce((sum, point) => sum + point.sampleCount, 0),
      simulated,
      summary: `On working days, leaving at ${hh(best.hour)} (local time) is about ${faster}% faster than at ${hh(worst.hour)}, the slowest hour between ${hh(from)} and ${hh(to)}.`,
    };
  }

  async dna(query: Query) {
    const box = parseBbox(query.bbox);
    const { weekday, weekend, simulated } = await this.curves(box);
    const known = weekday.filter((point) => point.speedRatio !== null) as { hour: number; speedRatio: number }[];
    if (!known.length) return { provider: PROVIDER, pattern: 'unknown', peakHour: null, quietHour: null, curve: weekday, weekendCurve: weekend, weekdayWeekendDelta: null, simulated };
    const peak = known.reduce((a, b) => (b.speedRatio < a.speedRatio ? b : a));
    const quiet = known.reduce((a, b) => (b.speedRatio > a.speedRatio ? b : a));
    return { provider: PROVIDER, pattern: patternOf(known), peakHour: peak.hour, quietHour: quiet.hour, curve: weekday, weekendCurve: weekend, weekdayWeekendDelta: delta(weekday, weekend), simulated };
  }

  async insights(query: Query) {
    const box = query.bbox === undefined ? { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 } : parseBbox(query.bbox);
    const { rows, weekday, weekend, simulated, truncated } = await this.curves(box);
    const bySegment = groupBySegment(rows.filter((row) => row.profileType === 'typical' || row.profileType === 'weekend'));
    const segments = [...bySegment].map(([segmentKey, segmentRows]) => {
      // the segment's slowest trustworthy hour
      const slowest = segmentRows.filter((row) => row.sampleCount >= TRUST_MIN_SAMPLES).map((row) => ({ row, ratio: row.ratioSum / row.sampleCount })).sort((a, b) => a.ratio - b.ratio)[0];
      return slowest ? { segmentKey, lat: slowest.row.lat, lng: slowest.row.lng, slowestHour: slowest.row.hour, profileType: slowest.row.profileType, speedRatio: Math.round(slowest.ratio * 1000) / 1000, label: bandOf(slowest.ratio).label, sampleCount: slowest.row.sampleCount } : undefined;
    });
    const busiest = segments.filter((segment) => segment !== undefined).sort((a, b) => a.speedRatio - b.speedRatio).slice(0, 10);
    return { provider: PROVIDER, busiestSegments: busiest, hourCurve: weekday, weekdayVsWeekend: { weekday: meanRatio(weekday), weekend: meanRatio(weekend), delta: delta(weekday, weekend) }, truncated, simulated };
  }

  async popularity(query: Query) {
    const box = parseBbox(query.bbox);
    const zoom = parseIntIn(query.z, POPULARITY.defaultZoom, POPULARITY.minZoom, POPULARITY.maxZoom, 'z');
    const visits = await this.repository.contributorsInBox(box, MAX_BOX_ROWS);
    return {
      provider: PROVIDER,
      mechanism: { name: 'laplace', epsilon: POPULARITY.epsilon, sensitivity: POPULARITY.sensitivity, scale: POPULARITY.sensitivity / POPULARITY.epsilon, kAnonymity: POPULARITY.kAnonymity, grid: `web-mercator tiles at zoom ${zoom}, cell centres`, counts: 'distinct contributors per cell' },
      cells: popularityCells(visits, zoom),
    };
  }

  async status() {
    const [trips, profiles] = await Promise.all([this.repository.tripCounts(), this.repository.profileStats(TRUST_MIN_SAMPLES)]);
    return {
      provider: PROVIDER,
      trips: { ...trips, retentionDays: RAW_FIX_RETENTION_MS / 86_400_000, holdoutShare: 1 / INGESTION.holdoutEvery },
      profiles: { rows: profiles.profiles, segments: profiles.segments, samples: profiles.samples, simulatedSamples: profiles.simulatedSamples, lastUpdateAt: profiles.lastUpdateAt },
      trustMinSamples: TRUST_MIN_SAMPLES,
      congestionBands: CONGESTION_BANDS,
    };
  }

  async validation() {
    const [stats, holdout] = await Promise.all([this.repository.profileStats(TRUST_MIN_SAMPLES), this.repository.holdout(VALIDATION_SAMPLE)]);
    const rows = groupBySegment(await this.repository.profilesOfSegments([...new Set(holdout.map((h) => h.segmentKey))]));
    let predicted = 0;
    let absSum = 0;
    let sqSum = 0;
    for (const observation of holdout) {
      const segmentRows = rows.get(observation.segmentKey);
      if (!segmentRows) continue;
      const { resolved } = this.resolveAt(segmentRows, countryOrJordan(observation.country), observation.observedAt);
      if (!resolved) continue;
      const error = resolved.sums.speedSum / resolved.sums.sampleCount - observation.speedKph;
      predicted++;
      absSum += Math.abs(error);
      sqSum += error ** 2;
    }
    const round = (value: number) => Math.round(value * 100) / 100;
    return {
      provider: PROVIDER,
      profiles: stats.profiles,
      meanSampleCount: round(stats.meanSampleCount),
      trustworthyPct: stats.profiles ? round((100 * stats.trustworthy) / stats.profiles) : 0,
      trustMinSamples: TRUST_MIN_SAMPLES,
      heldOut: {
        traversals: holdout.length,
        coverage: holdout.length ? round(predicted / holdout.length) : 0,
        maeKph: predicted ? round(absSum / predicted) : null,
        rmseKph: predicted ? round(Math.sqrt(sqSum / predicted)) : null,
      },
      inSample: { rmseKph: stats.samples ? round(Math.sqrt(stats.inSampleSqErrorSum / stats.samples)) : null },
      simulatedSamples: stats.simulatedSamples,
    };
  }

  async summary(query: Query) {
    const days = parseIntIn(query.days, 30, 1, 365, 'days');
    const [changes, stats] = await Promise.all([this.repository.changesSince(days), this.repository.profileStats(TRUST_MIN_SAMPLES)]);
    return {
      windowDays: days,
      changesInWindow: changes.profiles,
      byEntityType: { trafficProfile: changes.profiles, trafficSegment: changes.segments, trip: changes.trips },
      freshness: { lastProfileUpdateAt: stats.lastUpdateAt, oldestProfileUpdateAt: stats.oldestUpdateAt },
    };
  }
}


type CurvePoint = { hour: number; speedRatio: number | null; sampleCount: number };

function meanRatio(curve: readonly CurvePoint[]): number | null {
  const known = curve.filter((point) => point.speedRatio !== null);
  if (!known.length) return null;
  const samples = known.reduce((sum, point) => sum + point.sampleCount, 0);
  return Math.round((known.reduce((sum, point) => sum + point.speedRatio! * point.sampleCount, 0) / samples) * 1000) / 1000;
}

/** Weekend minus weekday mean speed ratio (positive: weekends flow better). */
function delta(weekday: readonly CurvePoint[], weekend: readonly CurvePoint[]): number | null {
  const a = meanRatio(weekday);
  const b = meanRatio(weekend);
  return a === null || b === null ? null : Math.round((b - a) * 1000) / 1000;
}

/** `double-peak` (a morning 6–11 and an evening 14–20 dip), `morning-peak`, `evening-peak`, `flat` (spread under 0.1), from the weekday curve. */
function patternOf(known: readonly { hour: number; speedRatio: number }[]): string {
  const max = Math.max(...known.map((point) => point.speedRatio));
  const min = Math.min(...known.map((point) => point.speedRatio));
  if (max - min < 0.1) return 'flat';
  const dip = (from: number, to: number) => known.some((point) => point.hour >= from && point.hour <= to && point.speedRatio <= min + (max - min) * 0.35);
  const morning = dip(6, 11);
  const evening = dip(14, 20);
  if (morning && evening) return 'double-peak';
  if (morning) return 'morning-peak';
  if (evening) return 'evening-peak';
  return 'midday-peak';
}


