/**
 * Asynchronous, durable ingestion of contributed trips (docs/traffic.md
 * "Intake"). A trip is acknowledged only after it is stored `queued` in SQL;
 * every process runs a processor that claims queued trips (woken over the bus,
 * and by a poll), map-matches them on the solver pool, files each timed
 * segment traversal under its road's country, that country's local weekday
 * and hour and its calendar's profile type, and marks the trip done — one
 * transaction, fenced on the claim. A process that dies mid-trip loses nothing:
 * its lease runs out and another process claims the trip again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Bus, BusSubscription } from '../../actors/runtime/bus/bus.js';
import type { Subjects } from '../../actors/runtime/subjects.js';
import type { FiledObservation, QueuedTrip } from '../../domain/traffic.js';
import type { Principal } from '../../domain/principal.js';
import type { Logger } from '../../shared/logger.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { SegmentTraversal } from '../../solvers/routing/traffic/trip-traversals.js';
import type { TrafficRepository } from '../../store/pg/traffic.js';
import type { CalendarService } from '../calendars/calendar-service.js';
import { countryAt } from '../geocoding/countries.js';
import { ApiError } from '../../shared/errors.js';
import { countryOrJordan, filingKey } from './traffic-model.js';
import { RAW_FIX_RETENTION_MS, traceProblem, type TripRequest } from './trip-request.js';

export const INGESTION = Object.freeze({
  /** A claimed trip not finished within this long is claimed again by any process. */
  leaseMs: 60_000,
  pollIntervalMs: 2_000,
  purgeIntervalMs: 10 * 60_000,
  /** Held-out traversals and contributor marks (aggregates, no raw fixes) are kept this long. */
  aggregateRetentionMs: 90 * 24 * 3_600_000,
  maxAttempts: 3,
  /** One trip in this many is held out of the model for validation (by its id). */
  holdoutEvery: 10,
});

export interface TripIngestionOptions {
  repository: TrafficRepository;
  solvers: SolverPool;
  calendars: CalendarService;
  bus: Bus;
  subjects: Subjects;
  logger: Logger;
  /** Trips processed at once by this process (the solver threads). */
  concurrency: number;
  now?: () => number;
}

/** The contributor pseudonym: a hash of the caller and its device id, never shown (only counted). */
export function contributorOf(principal: Principal, deviceId: string | undefined): string {
  const owner = principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.ownerId ?? principal.keyId}`;
  return createHash('sha256').update(`traffic-contributor\u0000${owner}\u0000${deviceId ?? ''}`).digest('base64url').slice(0, 22);
}

/** Whether a trip id is in the held-out tenth (deterministic: the same trip is always held out or never). */
export function isHoldout(id: string): boolean {
  return createHash('sha256').update(id).digest()[0]! % INGESTION.holdoutEvery === 0;
}

/** Files traversals: the road's country (JO outside the fifteen), its local clock and calendar at entry. */
export function fileTraversals(traversals: readonly SegmentTraversal[], calendars: Pick<CalendarService, 'flags'>): FiledObservation[] {
  return traversals.map((traversal) => {
    const country = countryOrJordan(countryAt(traversal.lon, traversal.lat)?.code);
    const key = filingKey(country, traversal.enteredAt, calendars.flags(country, traversal.enteredAt));
    return {
      segmentKey: traversal.segmentKey,
      profileType: key.profileType,
      dow: key.dow,
      hour: key.hour,
      country,
      lat: traversal.lat,
      lng: traversal.lon,
      speedKph: traversal.speedKph,
      freeFlowKph: traversal.freeFlowKph,
      observedAt: traversal.enteredAt,
    };
  });
}

export class TripIngestion {
  private readonly now: () => number;
  private subscription: BusSubscription | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private running = 0;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: TripIngestionOptions) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const { bus, subjects } = this.options;
    this.subscription = bus.subscribe(subjects.trafficTripsQueued(), () => this.pump());
    const every = (ms: number, work: () => Promise<unknown> | void) => {
      const timer = setInterval(() => void Promise.resolve(work()).catch((error: unknown) => this.options.logger.warn({ err: error }, 'traffic upkeep failed')), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(INGESTION.pollIntervalMs, () => this.pump());
    every(INGESTION.purgeIntervalMs, () => this.purge());
    void this.purge().catch((error: unknown) => this.options.logger.warn({ err: error }, 'traffic purge failed'));
    this.pump();
  }

  /** Validates and stores a trip as queued, then wakes the processors. The trip is durable when this resolves. */
  async submit(principal: Principal, request: TripRequest): Promise<{ tripId: string; status: 'queued'; fixes: number; simulated: boolean }> {
    const problem = traceProblem(request.fixes, this.now());
    if (problem) throw new ApiError('VALIDATION_ERROR', { message: problem });
    const id = randomUUID();
    await this.options.repository.insertTrip({
      id,
      ownerKind: principal.kind,
      ownerId: principal.kind === 'user' ? principal.userId : principal.keyId,
      contributor: contributorOf(principal, request.deviceId),
      simulated: request.simulated,
      holdout: isHoldout(id),
      fixes: request.fixes,
    });
    try {
      this.options.bus.publish(this.options.subjects.trafficTripsQueued(), new Uint8Array());
    } catch (error) {
      // stored: the next poll of any process finds it
      this.options.logger.warn({ err: error }, 'trip wake-up not published');
    }
    return { tripId: id, status: 'queued', fixes: request.fixes.length, simulated: request.simulated };
  }

  async purge(): Promise<void> {
    const purged = await this.options.repository.purge(RAW_FIX_RETENTION_MS, INGESTION.aggregateRetentionMs);
    if (purged.trips + purged.holdout + purged.contributors > 0) this.options.logger.info(purged, 'traffic retention purge');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.subscription?.unsubscribe();
    await this.pumping?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims trips while slots are free; one pass at a time. */
  pump(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        while (!this.closed && this.running < this.options.concurrency) {
          const trips = await this.options.repository.claim(this.options.concurrency - this.running, INGESTION.leaseMs);
          if (!trips.length) break;
          for (const trip of trips) this.launch(trip);
        }
      } while (this.pumpAgain && !this.closed);
    })()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'trip claim failed'))
      .finally(() => (this.pumping = undefined));
  }

  private launch(trip: QueuedTrip): void {
    this.running++;
    const work = this.process(trip)
      .catch((error: unknown) => this.options.logger.warn({ err: error, tripId: trip.id }, 'trip processing failed'))
      .finally(() => {
        this.running--;
        this.inFlight.delete(work);
        this.pump();
      });
    this.inFlight.add(work);
  }

  private async process(trip: QueuedTrip): Promise<void> {
    const { repository, solvers, calendars } = this.options;
    try {
      const answer = await solvers.run('tripTraversals', { metric: { costing: 'auto', preference: 'fastest', avoid: [] }, fixes: trip.fixes.map((fix) => ({ lat: fix.lat, lon: fix.lng, t: fix.t })) }, undefined, { unbounded: true });
      if (!answer.ok) {
        await repository.failTrip(trip.id, trip.attempts, answer.code);
        return;
      }
      const observations = fileTraversals(answer.value.traversals, calendars);
      await repository.fileTrip(trip, observations, { segments: observations.length, matchedShare: Math.round(answer.value.matchedShare * 1000) / 1000, confidence: Math.round(answer.value.confidence * 1000) / 1000 });
    } catch (error) {
      if (trip.attempts >= INGESTION.maxAttempts) await repository.failTrip(trip.id, trip.attempts, 'processing failed');
      else await repository.release(trip.id, trip.attempts);
      throw error;
    }
  }
}
