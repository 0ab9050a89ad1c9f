/**
 * Asynchronous, durable ingestion of contributed trips (docs/traffic.md
 * "Intake"). A trip is acknowledged only after its row (with the raw fixes) is
 * stored `queued` in SQL and its id is on the work queue (JetStream with
 * NATS_URL, in process otherwise). Every process consumes the queue: it claims
 * the delivered trip's row, map-matches it on the solver pool, files each
 * timed segment traversal under its road's country, that country's local
 * weekday and hour and its calendar's profile type, marks the trip done — one
 * transaction, fenced on the claim — and only then acknowledges the message.
 * A process that dies before that leaves the message unacknowledged: after the
 * ack wait (= the claim's lease) it is delivered to another process, which
 * claims and files the trip once.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { WorkItem, WorkQueue } from '../../actors/runtime/work-queue/work-queue.js';
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
  /** A claimed trip not finished within this long is delivered again, to any process (default of TRAFFIC_TRIP_LEASE_MS). */
  leaseMs: 60_000,
  /** How often every process looks for trips a lost enqueue stranded (stored, never queued). */
  sweepIntervalMs: 60_000,
  /** A trip unfinished this long after its receipt is enqueued again (JetStream's duplicate window). */
  strandedAfterMs: 2 * 60_000,
  /** Most trips one sweep enqueues again. */
  sweepLimit: 500,
  /** A trip whose processing failed is tried again after this long. */
  retryDelayMs: 5_000,
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
  /** The trips' work queue (ids; the fixes stay in the row). */
  queue: WorkQueue;
  logger: Logger;
  /** The claim's lease, also the queue's ack wait (INGESTION.leaseMs by default). */
  leaseMs?: number;
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
  private readonly leaseMs: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(private readonly options: TripIngestionOptions) {
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? INGESTION.leaseMs;
  }

  start(): void {
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch((error: unknown) => this.options.logger.warn({ err: error }, 'traffic upkeep failed')), ms);
      timer.unref();
      this.timers.push(timer);
    };
    this.options.queue.consume((item) => this.handle(item), { concurrency: this.options.concurrency });
    every(INGESTION.sweepIntervalMs, () => this.sweep(INGESTION.strandedAfterMs));
    every(INGESTION.purgeIntervalMs, () => this.purge());
    void this.purge().catch((error: unknown) => this.options.logger.warn({ err: error }, 'traffic purge failed'));
    // the in-process queue starts empty: whatever the rows still show unfinished is queued again (a duplicate
    // of a JetStream message is one message within its window, and a claim that finds the trip done after it)
    void this.sweep(this.options.queue.kind === 'memory' ? 0 : INGESTION.strandedAfterMs).catch((error: unknown) => this.options.logger.warn({ err: error }, 'trip sweep failed'));
  }

  /** Validates and stores a trip, then queues it. The trip is durable when this resolves. */
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
      await this.options.queue.enqueue(id);
    } catch (error) {
      // stored: the sweep of any process queues it again
      this.options.logger.warn({ err: error, tripId: id }, 'trip not queued; the sweep will queue it');
    }
    return { tripId: id, status: 'queued', fixes: request.fixes.length, simulated: request.simulated };
  }

  async purge(): Promise<void> {
    const purged = await this.options.repository.purge(RAW_FIX_RETENTION_MS, INGESTION.aggregateRetentionMs);
    if (purged.trips + purged.holdout + purged.contributors > 0) this.options.logger.info(purged, 'traffic retention purge');
  }

  /** Queues again the trips received at least `olderThanMs` ago and still unfinished. */
  async sweep(olderThanMs: number): Promise<number> {
    const ids = await this.options.repository.unfinishedTripIds(olderThanMs, INGESTION.sweepLimit);
    for (const id of ids) await this.options.queue.enqueue(id);
    if (ids.length) this.options.logger.info({ trips: ids.length }, 'unfinished trips queued again');
    return ids.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.options.queue.close();
  }

  /**
   * One delivery: claim the row, process, commit, then acknowledge. A trip another processor holds is retried
   * when its lease runs out; a finished one (a duplicate delivery) is acknowledged without work.
   */
  private async handle(item: WorkItem): Promise<void> {
    if (this.closed) return item.retry(0);
    const { repository, solvers, calendars } = this.options;
    const claimed = await repository.claimTrip(item.id, this.leaseMs);
    if ('state' in claimed) {
      if (claimed.state === 'finished') return item.ack();
      return item.retry(claimed.leaseLeftMs + 250);
    }
    const trip = claimed.trip;
    // a trip that took its processor down every time (claimed more often than allowed) is given up
    if (trip.attempts > INGESTION.maxAttempts) {
      await repository.failTrip(trip.id, trip.attempts, 'processing failed');
      return item.ack();
    }
    try {
      const answer = await solvers.run('tripTraversals', { metric: { costing: 'auto', preference: 'fastest', avoid: [] }, fixes: trip.fixes.map((fix) => ({ lat: fix.lat, lon: fix.lng, t: fix.t })) }, undefined, { unbounded: true });
      if (!answer.ok) await repository.failTrip(trip.id, trip.attempts, answer.code);
      else {
        const observations = fileTraversals(answer.value.traversals, calendars);
        await repository.fileTrip(trip, observations, { segments: observations.length, matchedShare: Math.round(answer.value.matchedShare * 1000) / 1000, confidence: Math.round(answer.value.confidence * 1000) / 1000 });
      }
    } catch (error) {
      this.options.logger.warn({ err: error, tripId: trip.id }, 'trip processing failed');
      if (trip.attempts >= INGESTION.maxAttempts) await repository.failTrip(trip.id, trip.attempts, 'processing failed');
      else {
        await repository.release(trip.id, trip.attempts);
        return item.retry(INGESTION.retryDelayMs);
      }
    }
    // committed (filed, or failed for good): only now may the message go
    await item.ack();
  }
}
