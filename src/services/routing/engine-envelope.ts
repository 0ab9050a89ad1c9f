/**
 * The envelope of every engine endpoint (spec part 3 §4.1, part 1 §7): `{ provider, available: true, path, data }`,
 * or, when the engine cannot answer, 201 `{ provider, available: false, path, request, reason }`. Which failures are
 * the engine's and which are the request's is decided here, once, for the built-in engine and the external one:
 *
 * - the engine's own: over its time budget (`timeout`), its waiting line full (`busy`), a worker that failed or a
 *   computation that answered a failure no input explains (`engine_error`), an external engine that did not answer
 *   (`unreachable`): the availability envelope, with `retryAfterSeconds` (and Retry-After) where retrying soon helps;
 * - the request's: input the engine cannot route (NO_ROAD_NEARBY, NO_ROUTE, COSTING_UNAVAILABLE, VALIDATION_ERROR)
 *   stays a 400 with its code, and a client that left stays CLIENT_CLOSED_REQUEST (499 in the log).
 */
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';

/** Why the engine could not answer. */
export type EngineOutageReason = 'timeout' | 'busy' | 'engine_error' | 'unreachable';

export type UnavailableEnvelope = {
  provider: 'svc';
  available: false;
  path: string;
  request: unknown;
  reason: EngineOutageReason;
  /** Seconds after which a retry may succeed (also sent as Retry-After); only where retrying soon helps. */
  retryAfterSeconds?: number;
  /** The external engine's HTTP status, when it answered with an error. */
  status?: number;
};

export type EngineEnvelope<T = unknown> = { provider: 'svc'; available: true; path: string; data: T } | UnavailableEnvelope;

/** Reasons a client may retry soon, with the wait: a busy line drains and a slow moment passes within a second. */
const RETRY_AFTER_SECONDS: Partial<Record<EngineOutageReason, number>> = { timeout: 1, busy: 1 };

export function availableEnvelope<T>(path: string, data: T): EngineEnvelope<T> {
  return { provider: 'svc', available: true, path, data };
}

/** The engine could not answer: 201 with the request echoed and the reason. */
export function unavailableEnvelope(path: string, request: unknown, reason: EngineOutageReason, extra: { status?: number; error?: unknown } = {}): UnavailableEnvelope {
  const retryAfterSeconds = RETRY_AFTER_SECONDS[reason];
  return { provider: 'svc', available: false, path, request, reason, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}), ...extra };
}

/** The Retry-After of an engine answer: set for an outage a retry may soon get past, else undefined. */
export function retryAfterOf(answer: unknown): number | undefined {
  if (typeof answer !== 'object' || answer === null || (answer as { available?: unknown }).available !== false) return undefined;
  const seconds = (answer as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : undefined;
}

/**
 * The engine failed for a reason of its own: a task threw in its worker or the worker died (`worker_failed`),
 * or a computation answered a failure no input explains (no map data, a hierarchy it could not be given).
 * Not an ApiError: where no envelope applies it is an unexpected failure, a 500 with its stack in the log.
 */
export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly failure: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineFailure';
  }
}

/** The outage an error stands for, or undefined when it is the request's (or the client's) and is answered as it is. */
export function outageReasonOf(error: unknown): EngineOutageReason | undefined {
  if (error instanceof EngineFailure) return 'engine_error';
  if (!(error instanceof ApiError)) return undefined;
  switch (error.code) {
    case 'COMPUTATION_TIMEOUT':
      return 'timeout';
    case 'SERVER_BUSY':
      return 'busy';
    case 'SERVICE_UNAVAILABLE': // a metric the engine could not prepare
      return 'engine_error';
    default:
      return undefined;
  }
}

/** Busy answers come in floods under overload: one log line per this many ms at most. */
const BUSY_LOG_INTERVAL_MS = 10_000;

/**
 * Turns the engine's own failures into the availability envelope, and logs them: the answer is a 201, so the
 * request log and its metrics no longer show them as 5xx.
 */
export class EngineOutages {
  private lastBusyLogMs = -Infinity;
  private busySinceLog = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The work's answer, or the envelope of the outage that stopped it; any other failure is thrown as it is. */
  async answer<T>(path: string, request: unknown, work: () => Promise<T>): Promise<T | UnavailableEnvelope> {
    try {
      return await work();
    } catch (error) {
      const reason = outageReasonOf(error);
      if (reason === undefined) throw error;
      this.log(path, reason, error);
      return unavailableEnvelope(path, request, reason);
    }
  }

  private log(path: string, reason: EngineOutageReason, error: unknown): void {
    if (reason === 'engine_error') {
      this.logger.error({ err: error, path }, 'routing engine failed: answered available: false');
    } else if (reason === 'busy') {
      this.busySinceLog++;
      const nowMs = this.now();
      if (nowMs - this.lastBusyLogMs < BUSY_LOG_INTERVAL_MS) return;
      this.logger.warn({ path, refused: this.busySinceLog, details: (error as ApiError).details }, 'routing workers busy: answered available: false');
      this.lastBusyLogMs = nowMs;
      this.busySinceLog = 0;
    } else {
      this.logger.warn({ path, reason, details: (error as ApiError).details }, 'routing engine could not answer: answered available: false');
    }
  }
}
