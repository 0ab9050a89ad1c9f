/**
 * Month-start announcements (spec part 2 §3): an operator announces, confirms or
 * corrects the first day of a Hijri month for a country. Each change is one
 * appended row (who, when, what); every process holds the starts in force in
 * memory and follows a change at once through the bus, and within
 * REFRESH_INTERVAL_MS through a periodic re-read should a message be lost.
 */
import { type Bus, type BusSubscription, encodeJson } from '../../actors/runtime/bus/bus.js';
import type { Subjects } from '../../actors/runtime/subjects.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { type DayNumber, isoOfDay, parseIsoDay } from './civil-days.js';
import { type CountryCode, isCountryCode } from './country-profiles.js';
import type { AnnouncedStart, AnnouncedStarts, HijriCalendar, MonthStartStatus } from './hijri-calendar.js';

export type MonthStartRecordStatus = 'announced' | 'confirmed' | 'withdrawn';

/** One appended change, as the store keeps it. */
export interface MonthStartRecord {
  id: string;
  country: string;
  hijriYear: number;
  hijriMonth: number;
  /** `YYYY-MM-DD`; for a withdrawal, the start withdrawn. */
  startDate: string;
  status: MonthStartRecordStatus;
  /** The operator (user id), or null for a change made outside the API. */
  actorId: string | null;
  note: string | null;
  createdAt: string;
}

export type NewMonthStartRecord = Omit<MonthStartRecord, 'id' | 'createdAt'>;

/** What the announcements need from storage (src/store/pg/hijri-month-starts.ts). */
export interface MonthStartStore {
  append(record: NewMonthStartRecord): Promise<MonthStartRecord>;
  /** The newest row of every month that has one. */
  latest(): Promise<MonthStartRecord[]>;
  history(country: string, hijriYear: number): Promise<MonthStartRecord[]>;
}

/** A start may move this far from the computed one: announcements differ by a day or two, never more. */
export const MAX_DAYS_FROM_COMPUTED = 3;
/** Safety net for a lost bus message: every process re-reads the starts this often. */
export const REFRESH_INTERVAL_MS = 30_000;

/** The starts in force, in memory, read synchronously by the Hijri calendar. */
export class AnnouncementBoard implements AnnouncedStarts {
  generation = 0;
  private starts = new Map<string, AnnouncedStart>();
  private signature = '';

  find(country: CountryCode, year: number, month: number): AnnouncedStart | undefined {
    return this.starts.get(`${country}:${year}:${month}`);
  }

  /** Replaces the starts with the newest rows; the generation moves only when something changed. */
  replace(latest: readonly MonthStartRecord[]): void {
    const starts = new Map<string, AnnouncedStart>();
    for (const record of latest) {
      const start = parseIsoDay(record.startDate);
      if (record.status === 'withdrawn' || start === undefined || !isCountryCode(record.country)) continue;
      starts.set(`${record.country}:${record.hijriYear}:${record.hijriMonth}`, { start, status: record.status });
    }
    const signature = [...starts].map(([key, value]) => `${key}=${value.start}/${value.status}`).sort().join(',');
    if (signature === this.signature) return;
    this.signature = signature;
    this.starts = starts;
    this.generation++;
  }
}

export interface MonthStartChange {
  country: CountryCode;
  hijriYear: number;
  hijriMonth: number;
}

export interface MonthStartAnnouncementsDeps {
  store: MonthStartStore;
  board: AnnouncementBoard;
  hijri: HijriCalendar;
  bus: Bus;
  subjects: Subjects;
  logger: Logger;
  refreshIntervalMs?: number;
}

export class MonthStartAnnouncements {
  private subscription: BusSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The read queued behind the running one, shared by every caller until it starts. */
  private queued: Promise<void> | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: MonthStartAnnouncementsDeps) {}

  /** Reads the starts in force, then follows changes from every process. */
  async start(): Promise<void> {
    await this.refresh();
    this.subscription = this.deps.bus.subscribe(this.deps.subjects.hijriMonthStarts(), () => {
      void this.refresh();
    });
    this.timer = setInterval(() => void this.refresh(), this.deps.refreshIntervalMs ?? REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.subscription?.unsubscribe();
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Re-reads the newest rows. One read at a time, and a call during a read gets the next one (the
   * running read may have started before the change the caller wants to see); a failure keeps the
   * starts held and is logged.
   */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    const read = this.running.then(async () => {
      this.queued = undefined;
      try {
        this.deps.board.replace(await this.deps.store.latest());
      } catch (error) {
        this.deps.logger.warn({ err: (error as Error).message }, 'hijri month starts not re-read');
      }
    });
    this.queued = read;
    this.running = read;
    return read;
  }

  /** A month as the calendar now dates it. */
  monthOf(change: MonthStartChange): MonthStartChange & { start: string; status: MonthStartStatus; computed: string } {
    const month = this.deps.hijri.monthStart(change.country, change.hijriYear, change.hijriMonth);
    return { ...change, start: isoOfDay(month.start), status: month.status, computed: isoOfDay(month.computed) };
  }

  /** Announces, confirms or corrects a month start. */
  async set(actorId: string | null, change: MonthStartChange, start: DayNumber, status: 'announced' | 'confirmed', note?: string): Promise<MonthStartRecord> {
    const computed = this.deps.hijri.computedStart(change.country, change.hijriYear, change.hijriMonth);
    if (Math.abs(start - computed) > MAX_DAYS_FROM_COMPUTED) {
      throw new ApiError('MONTH_START_IMPLAUSIBLE', {
        message: `${isoOfDay(start)} is more than ${MAX_DAYS_FROM_COMPUTED} days from the computed start ${isoOfDay(computed)} of ${change.hijriYear}/${change.hijriMonth}`,
        details: { computed: isoOfDay(computed), earliest: isoOfDay(computed - MAX_DAYS_FROM_COMPUTED), latest: isoOfDay(computed + MAX_DAYS_FROM_COMPUTED) },
      });
    }
    const record = await this.deps.store.append({ country: change.country, hijriYear: change.hijriYear, hijriMonth: change.hijriMonth, startDate: isoOfDay(start), status, actorId, note: note ?? null });
    await this.changed(change);
    return record;
  }

  /** Withdraws an announcement: the month goes back to its computed (expected) start. */
  async withdraw(actorId: string | null, change: MonthStartChange): Promise<MonthStartRecord> {
    const current = this.deps.board.find(change.country, change.hijriYear, change.hijriMonth);
    if (!current) throw new ApiError('NOT_FOUND', { message: `no announced start for ${change.country} ${change.hijriYear}/${change.hijriMonth}` });
    const record = await this.deps.store.append({ ...change, startDate: isoOfDay(current.start), status: 'withdrawn', actorId, note: null });
    await this.changed(change);
    return record;
  }

  history(country: CountryCode, hijriYear: number): Promise<MonthStartRecord[]> {
    return this.deps.store.history(country, hijriYear);
  }

  private async changed(change: MonthStartChange): Promise<void> {
    // this process at once; the others on the message (and the periodic re-read should it be lost)
    await this.refresh();
    try {
      this.deps.bus.publish(this.deps.subjects.hijriMonthStarts(), encodeJson(change));
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message, ...change }, 'hijri month start change not published');
    }
  }
}
