/**
 * POST /commute/advice (spec part 3 §4.4; docs/commute.md): when to leave home to reach work by `arriveBy`
 * (Jordan time). The corridor is the fastest route; its traffic ETA is the learned profiles of its segments
 * at the arrival moment (the same model as POST /traffic/route), capped at 2.5 times free flow. Without any
 * learned profile on the corridor the ETA is free flow and `basedOnHistory` is false.
 */
import { ApiError } from '../../shared/errors.js';
import { COUNTRY_PROFILES } from '../calendars/country-profiles.js';
import type { RoutingService } from '../routing/routing-service.js';
import type { TrafficService } from '../traffic/traffic-service.js';
import { hhMm, instantOf, nextDate, parseHhMm, wallClock } from './zoned-time.js';

export const COMMUTE_PROVIDER = 'svc-commute';
/** `arriveBy` is read in Jordan time (spec part 3 §4.4). */
export const COMMUTE_TIME_ZONE = COUNTRY_PROFILES.JO.timeZone;
/** The traffic ETA never exceeds this many times free flow. */
export const TRAFFIC_CAP_FACTOR = 2.5;
/** Departure within this many minutes: `leave_soon`. */
export const LEAVE_SOON_MINUTES = 15;
/** Candidate departures for `bestDepartureWindow`: this many slots, this many minutes apart. */
export const WINDOW_SLOTS = 9;
export const WINDOW_STEP_MINUTES = 15;

export type CommuteStatus = 'leave_now' | 'leave_soon' | 'on_track';
export interface LatLng {
  lat: number;
  lng: number;
}
export interface CommuteQuestion {
  home: LatLng;
  work: LatLng;
  arriveBy?: string | undefined;
  bufferMin: number;
  costing: 'auto' | 'truck';
}

const minutes = (ms: number) => Math.round(ms / 60_000);

export class CommuteAdvisor {
  constructor(
    private readonly routing: Pick<RoutingService, 'segments'>,
    private readonly traffic: Pick<TrafficService, 'corridor'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The instant `arriveBy` names next: today in Jordan if still ahead, else tomorrow. */
  nextArrival(arriveBy: string, nowMs = this.now()): number {
    const minute = parseHhMm(arriveBy);
    if (minute === undefined) throw new ApiError('VALIDATION_ERROR', { message: 'arriveBy must be HH:MM (24-hour, Jordan time)' });
    const today = wallClock(COMMUTE_TIME_ZONE, nowMs).date;
    const atToday = instantOf(COMMUTE_TIME_ZONE, today, minute);
    return atToday > nowMs ? atToday : instantOf(COMMUTE_TIME_ZONE, nextDate(today), minute);
  }

  /** Advice for a question; `arrivalMs` fixes which day's `arriveBy` is meant (the scheduler's), else the next one. */
  async advise(question: CommuteQuestion, arrivalMs?: number) {
    const nowMs = this.now();
    let routed;
    try {
      routed = await this.routing.segments({ costing: question.costing, preference: 'fastest', avoid: [] }, [
        { lat: question.home.lat, lon: question.home.lng },
        { lat: question.work.lat, lon: question.work.lng },
      ]);
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'NO_ROUTE' || error.code === 'NO_ROAD_NEARBY')) {
        return { provider: COMMUTE_PROVIDER, available: false as const, message: typeof error.messages === 'string' ? error.messages : error.messages.join('; ') };
      }
      throw error;
    }
    const segments = routed.legs.flatMap((leg) => leg.segments);
    const corridor = await this.traffic.corridor(segments);
    const distanceMeters = segments.reduce((sum, segment) => sum + segment.meters, 0);
    const bufferMs = question.bufferMin * 60_000;
    const etaAt = (atMs: number) => corridor.at(atMs, TRAFFIC_CAP_FACTOR);

    let arriveAtMs: number;
    let departMs: number;
    let timed: ReturnType<typeof etaAt>;
    let candidates: { departMs: number; etaMs: number }[];
    if (question.arriveBy !== undefined) {
      arriveAtMs = arrivalMs ?? this.nextArrival(question.arriveBy, nowMs);
      // at work `bufferMin` early; the profiles are read at that moment
      const targetMs = arriveAtMs - bufferMs;
      timed = etaAt(targetMs);
      departMs = targetMs - timed.trafficSeconds * 1000;
      candidates = Array.from({ length: WINDOW_SLOTS }, (_, slot) => {
        const at = targetMs - slot * WINDOW_STEP_MINUTES * 60_000;
        const etaMs = etaAt(at).trafficSeconds * 1000;
        return { departMs: at - etaMs, etaMs };
      });
    } else {
      // no target: leaving now, arriving when the traffic at the free-flow arrival allows
      timed = etaAt(nowMs + corridor.freeFlowSeconds * 1000);
      departMs = nowMs;
      arriveAtMs = nowMs + timed.trafficSeconds * 1000 + bufferMs;
      candidates = Array.from({ length: WINDOW_SLOTS }, (_, slot) => {
        const at = nowMs + slot * WINDOW_STEP_MINUTES * 60_000;
        return { departMs: at, etaMs: etaAt(at + corridor.freeFlowSeconds * 1000).trafficSeconds * 1000 };
      });
    }
    // the quickest drive among the slots; on a tie the latest departure (less waiting at work)
    const best = candidates.reduce((a, b) => (minutes(b.etaMs) < minutes(a.etaMs) ? b : a));
    const windowEnd = Math.max(best.departMs, Math.min(best.departMs + WINDOW_STEP_MINUTES * 60_000, question.arriveBy !== undefined ? departMs : Number.POSITIVE_INFINITY));
    const leaveInMs = departMs - nowMs;
    const status: CommuteStatus = leaveInMs <= 0 ? 'leave_now' : leaveInMs <= LEAVE_SOON_MINUTES * 60_000 ? 'leave_soon' : 'on_track';
    const freeFlowEtaMin = minutes(corridor.freeFlowSeconds * 1000);
    const trafficEtaMin = minutes(timed.trafficSeconds * 1000);
    const basedOnHistory = timed.segmentsSampled > 0;
    const arriveBy = question.arriveBy ?? hhMm(COMMUTE_TIME_ZONE, arriveAtMs);
    const recommendedDepart = hhMm(COMMUTE_TIME_ZONE, departMs);
    return {
      provider: COMMUTE_PROVIDER,
      available: true as const,
      distanceKm: Math.round(distanceMeters / 10) / 100,
      freeFlowEtaMin,
      trafficEtaMin,
      delayMin: trafficEtaMin - freeFlowEtaMin,
      congestion: timed.congestion,
      basedOnHistory,
      segmentsSampled: timed.segmentsSampled,
      arriveBy,
      arriveAt: new Date(arriveAtMs).toISOString(),
      recommendedDepart,
      recommendedDepartAt: new Date(departMs).toISOString(),
      leaveInMin: Math.max(0, Math.ceil(leaveInMs / 60_000)),
      status,
      message: messageOf(status, { trafficEtaMin, congestion: timed.congestion, arriveBy, recommendedDepart, leaveInMin: Math.ceil(leaveInMs / 60_000), basedOnHistory }),
      bestDepartureWindow: { from: hhMm(COMMUTE_TIME_ZONE, best.departMs), to: hhMm(COMMUTE_TIME_ZONE, windowEnd), trafficEtaMin: minutes(best.etaMs) },
      bufferMin: question.bufferMin,
      timeZone: COMMUTE_TIME_ZONE,
      simulated: timed.simulated,
      attribution: '© OpenStreetMap contributors, ODbL',
    };
  }
}

export type CommuteAdvice = Awaited<ReturnType<CommuteAdvisor['advise']>>;

function messageOf(
  status: CommuteStatus,
  facts: { trafficEtaMin: number; congestion: string; arriveBy: string; recommendedDepart: string; leaveInMin: number; basedOnHistory: boolean },
): string {
  const traffic = facts.basedOnHistory ? `about ${facts.trafficEtaMin} min in ${facts.congestion} traffic` : `about ${facts.trafficEtaMin} min (no traffic history for this route: free-flow estimate)`;
  if (status === 'leave_now') {
    return facts.leaveInMin < 0
      ? `Leave now: you are ${-facts.leaveInMin} min behind the ${facts.recommendedDepart} departure for ${facts.arriveBy}; the drive takes ${traffic}.`
      : `Leave now to arrive by ${facts.arriveBy}; the drive takes ${traffic}.`;
  }
  if (status === 'leave_soon') return `Leave in ${facts.leaveInMin} min (at ${facts.recommendedDepart}) to arrive by ${facts.arriveBy}; the drive takes ${traffic}.`;
  return `On track: leave at ${facts.recommendedDepart} to arrive by ${facts.arriveBy}; the drive takes ${traffic}.`;
}
