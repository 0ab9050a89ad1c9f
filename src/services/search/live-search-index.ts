/**
 * The in-memory candidate index kept up to date with the catalogue (docs/places.md "In-memory candidate
 * index"). Before a search answers, the index reads which places changed since it last read (one narrow
 * statement: the ids written by transactions its last snapshot did not see, with the writing transaction) and
 * reads in full only those it holds an older version of. So a search sees every write committed before it began, by any
 * process, including rating, review and click counters — the same guarantee a SQL read gave.
 *
 * Concurrent searches share reads: one read runs at a time, and the searches that arrive meanwhile wait for
 * the next one (the running read may have started before a write they must see).
 */
import type { Logger } from '../../shared/logger.js';
import type { IndexSnapshot, PlaceSearchRepository, SearchCandidate, SearchCandidateFilter } from '../../store/pg/place-search.js';
import { PlaceSearchIndex } from './place-search-index.js';

export type CandidateAnswer = { candidates: SearchCandidate[]; total: number; totalCapped: boolean };

export class LiveSearchIndex {
  private readonly index = new PlaceSearchIndex();
  /** Writing transaction of each place held. */
  private readonly versions = new Map<string, string>();
  /** The snapshot of the last read: what it did not see is read next (undefined: not loaded). */
  private snapshot: IndexSnapshot | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly repository: Pick<PlaceSearchRepository, 'indexChanges' | 'indexRecords' | 'candidates'>,
    private readonly logger: Logger,
  ) {}

  get loaded(): boolean {
    return this.snapshot !== undefined;
  }

  get size(): number {
    return this.index.size;
  }

  /**
   * Candidates as PlaceSearchRepository.candidates gives them, from memory once the index has loaded. Until
   * then (the first seconds after start at 100 000 places) the SQL store answers, while the load runs.
   */
  async candidates(filter: SearchCandidateFilter, countCap: number): Promise<CandidateAnswer> {
    if (!this.loaded) {
      void this.catchUp().catch((error: unknown) => this.logger.warn({ err: (error as Error).message }, 'search: loading the candidate index failed'));
      return this.repository.candidates(filter, countCap);
    }
    await this.catchUp();
    return this.index.candidates(filter, countCap);
  }

  /** Resolves once the index holds every write committed before the call. */
  catchUp(): Promise<void> {
    if (!this.running) {
      this.running = this.read().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.catchUp();
      });
    return this.queued;
  }

  private async read(): Promise<void> {
    const started = performance.now();
    const first = this.snapshot === undefined;
    const { changes, snapshot } = await this.repository.indexChanges(this.snapshot);
    const stale = changes.filter((change) => this.versions.get(change.id) !== change.xid).map((change) => change.id);
    if (stale.length > 0) {
      const records = await this.repository.indexRecords(stale);
      this.index.apply(records.map(({ xid: _xid, ...record }) => record));
      for (const record of records) this.versions.set(record.id, record.xid);
    }
    this.snapshot = snapshot;
    if (first) this.logger.info({ places: this.index.size, ms: Math.round(performance.now() - started) }, 'search: candidate index loaded');
  }
}
