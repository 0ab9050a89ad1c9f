/**
 * Every bus subject is built here, so no other module spells one inline.
 * The namespace (BUS_NAMESPACE) keeps deployments or test runs sharing one
 * NATS server apart.
 */
export interface Subjects {
  readonly namespace: string;
  /** Broadcast that cached records of `kind` changed (e.g. API keys); every process listens. */
  cacheInvalidation(kind: string): string;
  /** Health echo served by every process; used by readiness and tests of the bus. */
  processEcho(): string;
  /** Requests to the process that owns navigation session `id` (its actor's address). */
  navigationSession(id: string): string;
  /** Progress frames, events and re-routes of session `id`, for every process streaming it. */
  navigationSessionFeed(id: string): string;
  /** Requests to the actor of optimization job `id`, answered by the process running it. */
  optimizationJob(id: string): string;
  /** Broadcast that a job was queued: every process with a free slot tries to claim it. */
  optimizationJobsQueued(): string;
  /** The JetStream work-queue subject of contributed trips (one message per trip id; services/traffic/trip-ingestion.ts). */
  trafficTripsWork(): string;
  /** Requests to the process that owns live fleet `id` (its actor's address). */
  fleet(id: string): string;
  /** Plan frames of fleet `id`, for every process streaming it. */
  fleetFeed(id: string): string;
  /** Broadcast that a Hijri month start was announced, confirmed, corrected or withdrawn; every process re-reads them. */
  hijriMonthStarts(): string;
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

function token(value: string): string {
  if (!TOKEN.test(value)) throw new Error(`Invalid subject token "${value}"`);
  return value;
}

export function createSubjects(namespace: string): Subjects {
  const root = token(namespace);
  return Object.freeze({
    namespace: root,
    cacheInvalidation: (kind: string) => `${root}.cache.invalidate.${token(kind)}`,
    processEcho: () => `${root}.process.echo`,
    navigationSession: (id: string) => `${root}.nav.session.${token(id)}`,
    navigationSessionFeed: (id: string) => `${root}.nav.feed.${token(id)}`,
    optimizationJob: (id: string) => `${root}.optimize.job.${token(id)}`,
    optimizationJobsQueued: () => `${root}.optimize.jobs.queued`,
    trafficTripsWork: () => `${root}.traffic.trips.work`,
    fleet: (id: string) => `${root}.fleet.actor.${token(id)}`,
    fleetFeed: (id: string) => `${root}.fleet.feed.${token(id)}`,
    hijriMonthStarts: () => `${root}.calendar.hijri-month-starts`,
  });
}
