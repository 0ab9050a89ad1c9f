/**
 * A process-wide copy of the live road-blocking incidents, at most `maxAgeMs` old, for the navigation sessions'
 * look at their route ahead. Every active session looks every few seconds (INCIDENT_CHECK_MS): one query each
 * was a fifth of the Postgres statements of 1 000 sessions driving, for a table that holds a handful of live
 * closures and accidents. The copy is filtered in memory by box and by expiry at the moment of the look; a change
 * made in this process is seen by every look that starts after it, one made elsewhere within `maxAgeMs`.
 */
import type { IncidentRecord } from '../../store/pg/incidents.js';
import { incidentStatusAt } from './incident-status.js';
import type { LatLngBox } from './voice.js';

export interface BlockingIncidentSource {
  /** Every live blocking incident at `at`, newest first, at most `limit`. */
  liveBlocking(at: Date, limit: number): Promise<IncidentRecord[]>;
  /** The same, inside `box` only (used when the copy would not hold them all). */
  liveBlockingIn(box: LatLngBox, at: Date, limit: number): Promise<IncidentRecord[]>;
}

/** More live blocking incidents than this and the copy gives way to a query per look. */
const SNAPSHOT_CAPACITY = 2_000;
/** While the copy cannot hold them all, how often to read whether it can again (ms). */
const OVERFLOW_RECHECK_MS = 30_000;

interface Copy {
  /** Newest first; empty when the live ones did not fit. */
  records: readonly IncidentRecord[];
  complete: boolean;
}

export class BlockingIncidentSnapshot {
  private copy: Copy = { records: [], complete: false };
  private takenAtMs = -Infinity;
  /** Counts the changes made in this process: a copy read before the latest one is not kept. */
  private generation = 0;
  private loading: { generation: number; copy: Promise<Copy> } | undefined;

  constructor(
    private readonly source: BlockingIncidentSource,
    private readonly now: () => number,
    private readonly maxAgeMs = 1_000,
    /** Monotonic time for the copy's age (the service clock may be moved by tests and operators). */
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** Live blocking incidents inside `box`, at most `limit`, newest first. */
  async within(box: LatLngBox, limit: number): Promise<IncidentRecord[]> {
    const maxAgeMs = this.copy.complete ? this.maxAgeMs : OVERFLOW_RECHECK_MS;
    const copy = this.monotonicMs() - this.takenAtMs > maxAgeMs ? await this.refresh() : this.copy;
    const nowMs = this.now();
    if (!copy.complete) return this.source.liveBlockingIn(box, new Date(nowMs), limit);
    const found: IncidentRecord[] = [];
    for (const record of copy.records) {
      if (found.length >= limit) break;
      if (record.lat < box.south || record.lat > box.north || record.lng < box.west || record.lng > box.east) continue;
      // live at the look, not only at the copy: an expiry may have passed since
      if (incidentStatusAt(record, nowMs) !== 'active') continue;
      found.push(record);
    }
    return found;
  }

  /** An incident changed in this process: every look from now on reads a copy taken after it. */
  invalidate(): void {
    this.generation++;
    this.takenAtMs = -Infinity;
  }

  /** One query for every look that finds the copy stale since the same change; a later change starts another. */
  private refresh(): Promise<Copy> {
    const generation = this.generation;
    if (this.loading?.generation !== generation) {
      const copy = this.load(generation).finally(() => {
        if (this.loading?.copy === copy) this.loading = undefined;
      });
      this.loading = { generation, copy };
    }
    return this.loading.copy;
  }

  private async load(generation: number): Promise<Copy> {
    const startedAtMs = this.monotonicMs();
    const records = await this.source.liveBlocking(new Date(this.now()), SNAPSHOT_CAPACITY + 1);
    const copy: Copy = records.length <= SNAPSHOT_CAPACITY ? { records, complete: true } : { records: [], complete: false };
    // read before a change made meanwhile: it answers the looks that waited for it, and is not kept
    if (generation === this.generation) {
      this.copy = copy;
      this.takenAtMs = startedAtMs;
    }
    return copy;
  }
}
