import { ApiError } from '../../shared/errors.js';
import { TIER_BUDGET_MS, type Tier } from './parallel-search.js';

/**
 * Synchronous route optimizations (`POST /optimize/routes`, `/optimize/reoptimize`) one process takes at once,
 * running or waiting. Each holds every worker thread for its whole tier (up to 20 s for `best`), so requests run one
 * after the other: the fourth waits three tiers (a minute at `best`). One more is refused at once with 503
 * SERVER_BUSY and a Retry-After of its tier's length, instead of waiting in a line with no end (the pool's own line
 * is unbounded: jobs queue there, and must not be refused). Jobs (`POST /optimize/jobs`) are not counted: they queue
 * in the database under caps of their own.
 */
export const SYNCHRONOUS_OPTIMIZATIONS_PER_PROCESS = 4;

export class SearchAdmission {
  private inFlight = 0;

  constructor(private readonly maxInFlight = SYNCHRONOUS_OPTIMIZATIONS_PER_PROCESS) {}

  async run<T>(tier: Tier, work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.maxInFlight) {
      throw new ApiError('SERVER_BUSY', {
        message: `${this.maxInFlight} route optimizations are already running or waiting on this server; retry later or submit a job (POST /optimize/jobs)`,
        details: { maxInFlight: this.maxInFlight },
        headers: { 'retry-after': String(Math.ceil(TIER_BUDGET_MS[tier] / 1_000)) },
      });
    }
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
    }
  }
}
