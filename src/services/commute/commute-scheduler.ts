/**
 * Leave-now alerts of saved commutes (docs/commute.md, "Alerts"). Every process ticks; each tick reads the
 * commutes driven today (Jordan date and weekday) with alerts on and no alert yet today, and, for those whose
 * `arriveBy` is within LOOKAHEAD_MS, asks the advisor when to leave. Once that moment has come (and the
 * arrival has not passed) the alert is fired through CommuteRepository.fireOnce: the (commute, day) row is
 * inserted with the inbox notification in one transaction, so with any number of processes exactly one
 * writes it, and a restarted process finds the day already alerted. Nothing is held in memory but a short
 * advice cache, so the schedule survives restarts by construction.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/logger.js';
import type { CommuteRecord, CommuteRepository } from '../../store/pg/commutes.js';
import { COMMUTE_TIME_ZONE, type CommuteAdvice, type CommuteAdvisor } from './commute-advice.js';
import { instantOf, parseHhMm, wallClock } from './zoned-time.js';

/** Commutes whose arrival is further away than this are not routed yet (2.5 × a 90-minute drive, plus buffer). */
export const LOOKAHEAD_MS = 4 * 60 * 60 * 1000;
/** How long a computed advice is reused for the same commute (profiles are hourly). */
export const ADVICE_CACHE_MS = 5 * 60 * 1000;
const PAGE = 200;

export interface CommuteSchedulerOptions {
  repository: CommuteRepository;
  advisor: CommuteAdvisor;
  now: () => number;
  intervalMs: number;
  logger: Logger;
  /** After an alert was written (the push dispatcher is woken). */
  onFired?: (notificationId: string) => void;
}

export class CommuteScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private readonly cache = new Map<string, { key: string; expiresMs: number; advice: CommuteAdvice }>();

  constructor(private readonly options: CommuteSchedulerOptions) {}

  start(): void {
    this.schedule(Math.min(1_000, this.options.intervalMs));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'commute alert tick failed'))
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  /** One pass over today's commutes; returns how many alerts this process fired. */
  async tick(): Promise<number> {
    const nowMs = this.options.now();
    const today = wallClock(COMMUTE_TIME_ZONE, nowMs);
    let fired = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.options.repository.dueCandidates(today.date, today.dow, after, PAGE);
      for (const commute of page) {
        if (this.stopped) return fired;
        if (await this.consider(commute, today.date, nowMs)) fired++;
      }
      if (page.length < PAGE) return fired;
      after = page[page.length - 1]!.id;
    }
  }

  private async consider(commute: CommuteRecord, date: string, nowMs: number): Promise<boolean> {
    const arrivalMs = instantOf(COMMUTE_TIME_ZONE, date, parseHhMm(commute.arriveBy)!);
    if (arrivalMs <= nowMs || arrivalMs - nowMs > LOOKAHEAD_MS) return false;
    let advice: CommuteAdvice;
    try {
      advice = await this.adviceFor(commute, date, arrivalMs, nowMs);
    } catch (error) {
      this.options.logger.warn({ err: error, commuteId: commute.id }, 'commute advice failed');
      return false;
    }
    if (!advice.available || Date.parse(advice.recommendedDepartAt) > nowMs) return false;
    const notificationId = await this.options.repository.fireOnce(commute, date, {
      id: randomUUID(),
      title: `Time to leave: ${commute.name}`,
      body: advice.message,
      data: { commuteId: commute.id, minutesBefore: advice.trafficEtaMin + commute.bufferMin },
    });
    if (!notificationId) return false;
    this.cache.delete(commute.id);
    this.options.logger.info({ commuteId: commute.id, date }, 'commute_leave_now sent');
    this.options.onFired?.(notificationId);
    return true;
  }

  private async adviceFor(commute: CommuteRecord, date: string, arrivalMs: number, nowMs: number): Promise<CommuteAdvice> {
    const key = `${date}|${commute.updatedAt}`;
    const cached = this.cache.get(commute.id);
    if (cached && cached.key === key && cached.expiresMs > nowMs) return cached.advice;
    const advice = await this.options.advisor.advise(commute, arrivalMs);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(commute.id, { key, expiresMs: nowMs + ADVICE_CACHE_MS, advice });
    return advice;
  }
}
