/**
 * A process-wide copy of the live road-blocking incidents, at most `maxAgeMs` old, for the navigation sessions'
 * look at their route ahead. Every active session looks every few seconds (INCIDENT_CHECK_MS): one query each
 * was a fifth of the Postgres statements of 1 000 sessions driving, for a table that holds a handful of live
 * closures and accidents. The copy is filtered in memory by box and by expiry at the moment of the look; a change
 * made in this process drops it at once, one made elsewhere is seen within `maxAgeMs`.
 */
import type { IncidentRecord } from '../../store/pg/incidents.js';
import type { LatLngBox } from './voice.js';

export interface BlockingIncidentSource {
  /** Every live blocking incident at `at`, newest first, at most `limit`. */
  liveBlocking(at: Date, limit: number): Promise<IncidentRecord[]>;
  /** The same, inside `box` only (used when the copy would not hold them all). */
  liveBlockingIn(box: LatLngBox, at: Date, limit: number): Promise<IncidentRecord[]>;
}

/** More live blocking incidents than this and the copy gives way to a query per look. */
const SNAPSHOT_CAPACITY = 2_000;

export class BlockingIncidentSnapshot {
  private records: IncidentRecord[] = [];
  private complete = false;
  private takenAtMs = -Infinity;
  private generation = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly source: BlockingIncidentSource,
    private readonly now: () => number,
    private readonly maxAgeMs = 1_000,
    /** Monotonic time for the copy's age (the service clock may be moved by tests and operators). */
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** Live blocking incidents inside `box`, at most `limit`, newest first. */
  async within(box: LatLngBox, limit: number): Promise<IncidentRecord[]> {
    if (this.monotonicMs() - this.takenAtMs > this.maxAgeMs) await this.refresh();
    const nowMs = this.now();
    if (!this.complete) return this.source.liveBlockingIn(box, new Date(nowMs), limit);
    const found: IncidentRecord[] = [];
    for (const record of this.records) {
      if (found.length >= limit) break;
      if (record.lat < box.south || record.lat > box.north || record.lng < box.west || record.lng > box.east) continue;
      // live at the look, not only at the copy: an expiry may have passed since
      if (record.clearedAt !== null || (record.expiresAt !== null && Date.parse(record.expiresAt) <= nowMs)) continue;
      found.push(record);
    }
    return found;
  }

  /** An incident changed in this process: the next look reads the store. */
  invalidate(): void {
    this.generation++;
    this.takenAtMs = -Infinity;
  }

  /** One query for every caller that finds the copy stale at the same time. */
  private refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<void> {
    const generation = this.generation;
    const startedAtMs = this.monotonicMs();
    const records = await this.source.liveBlocking(new Date(this.now()), SNAPSHOT_CAPACITY + 1);
    // a change made while the query ran may be missing from its answer: keep the answer for this look only
    const fresh = generation === this.generation;
    this.records = records.slice(0, SNAPSHOT_CAPACITY);
    this.complete = records.length <= SNAPSHOT_CAPACITY;
    this.takenAtMs = fresh ? startedAtMs : -Infinity;
  }
}
