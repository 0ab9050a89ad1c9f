/**
 * Feedback (spec part 3 §4.8) and its state table (§3): reports are `open`; an editor acknowledges
 * (`ack`: a blocking category becomes a routing avoidance for 60 days) and later marks them `fixed`
 * or `unactionable` (the avoidance ends). Editor moves are designed in docs/incidents-feedback.md.
 */
import { randomUUID } from 'node:crypto';
import { IMPLICIT_SIGNALS, type FeedbackStatus, type ImplicitSignal } from '../../domain/feedback.js';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import type { Clock } from '../../shared/offset-clock.js';
import type { FeedbackReportRecord, FeedbackRepository } from '../../store/pg/feedback.js';
import { voiceOf, type LatLngBox } from '../incidents/voice.js';
import { BLOCKING_CATEGORIES, FEEDBACK_CATEGORIES, SOURCE_TRUST } from './feedback-catalog.js';
import { CELL_DEGREES, problemSpots, RECENCY_HALF_LIFE_DAYS } from './problem-spots.js';

export const AVOIDANCE_TTL_DAYS = 60;
const DAY = 86_400_000;
/** Problem spots look back this far. */
export const PROBLEM_SPOT_WINDOW_DAYS = 90;
/** At most this many reports and this many signals are scanned for problem spots. */
export const PROBLEM_SPOT_SCAN_LIMIT = 20_000;

/** Where each state may go (spec part 3 §3; `open` straight to a closing state is an editor dismissing a report). */
export const FEEDBACK_MOVES: Record<FeedbackStatus, readonly FeedbackStatus[]> = {
  open: ['ack', 'fixed', 'unactionable'],
  ack: ['fixed', 'unactionable'],
  fixed: [],
  unactionable: [],
};

export interface FeedbackInput {
  source: string;
  category: string;
  severity: number;
  lat: number;
  lng: number;
  context: Record<string, unknown>;
}

export interface RoutingAvoidance {
  id: string;
  category: string;
  lat: number;
  lng: number;
  source: string;
  since: string;
}

export class FeedbackService {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly now: Clock,
  ) {}

  categories() {
    return {
      provider: 'svc-feedback',
      categories: FEEDBACK_CATEGORIES,
      blockingCategories: BLOCKING_CATEGORIES,
      sources: [...SOURCE_TRUST.keys()].filter((source) => source !== 'implicit'),
      signals: IMPLICIT_SIGNALS,
      severity: { min: 1, max: 5, default: 3 },
      avoidanceTtlDays: AVOIDANCE_TTL_DAYS,
    };
  }

  async report(principal: Principal | undefined, input: FeedbackInput) {
    const id = randomUUID();
    await this.feedback.createReport({ id, reporter: voiceOf(principal), ...input, at: new Date(this.now()) });
    return { ok: true as const, id, status: 'open' as const };
  }

  /** POST /feedback/implicit: a known signal is stored; an unknown one answers the spec's `ok: false` with the list. */
  async implicit(principal: Principal | undefined, input: { signal: string; lat: number; lng: number; context: Record<string, unknown> }) {
    const reporter = voiceOf(principal);
    if (!(IMPLICIT_SIGNALS as readonly string[]).includes(input.signal)) return { ok: false as const, error: 'unknown signal', signals: [...IMPLICIT_SIGNALS] };
    await this.feedback.createSignal({ id: randomUUID(), reporter, signal: input.signal, lat: input.lat, lng: input.lng, context: input.context, at: new Date(this.now()) });
    return { ok: true as const, signal: input.signal as ImplicitSignal };
  }

  /** GET /admin/feedback: reports for editors, newest first. */
  async list(filter: { status?: FeedbackStatus; box?: LatLngBox; limit: number }) {
    const reports = await this.feedback.list(filter);
    return { provider: 'svc-feedback', count: reports.length, reports: reports.map((report) => this.view(report)) };
  }

  async find(id: string) {
    const report = await this.feedback.find(id);
    if (!report) throw new ApiError('NOT_FOUND', { message: 'No such feedback report' });
    return this.view(report);
  }

  /** POST /admin/feedback/{id}/status: one move of the state table. */
  async move(id: string, to: FeedbackStatus, note: string | undefined) {
    const report = await this.feedback.find(id);
    if (!report) throw new ApiError('NOT_FOUND', { message: 'No such feedback report' });
    const allowed = FEEDBACK_MOVES[report.status];
    if (!allowed.includes(to) || !(await this.feedback.move(id, report.status, to, new Date(this.now()), note))) {
      const current = (await this.feedback.find(id))!.status;
      throw new ApiError('STATE_CONFLICT', {
        message: `A report that is ${current} cannot move to ${to}`,
        details: { status: current, allowed: FEEDBACK_MOVES[current] },
      });
    }
    return this.find(id);
  }

  /** Acknowledged blocking reports within their 60 days (routing's avoidances), optionally in a box. */
  async avoidances(box?: LatLngBox, limit = 5_000): Promise<RoutingAvoidance[]> {
    const since = new Date(this.now() - AVOIDANCE_TTL_DAYS * DAY);
    const reports = await this.feedback.acknowledged(BLOCKING_CATEGORIES, since, box, limit);
    return reports.map((report) => ({ id: report.id, category: report.category, lat: report.lat, lng: report.lng, source: report.source, since: report.acknowledgedAt! }));
  }

  async routingAvoidances() {
    const avoidances = await this.avoidances();
    return { provider: 'svc-feedback', count: avoidances.length, ttlDays: AVOIDANCE_TTL_DAYS, avoidances };
  }

  async problemSpots(box: LatLngBox | undefined, limit: number) {
    const now = this.now();
    const { reports, signals } = await this.feedback.openSince(new Date(now - PROBLEM_SPOT_WINDOW_DAYS * DAY), box, PROBLEM_SPOT_SCAN_LIMIT);
    return {
      provider: 'svc-feedback',
      scanned: reports.length + signals.length,
      cellDegrees: CELL_DEGREES,
      recencyHalfLifeDays: RECENCY_HALF_LIFE_DAYS,
      spots: problemSpots(reports, signals, now, limit),
    };
  }

  private view(report: FeedbackReportRecord) {
    const blocking = BLOCKING_CATEGORIES.includes(report.category);
    const avoidanceEndsAt = blocking && report.status === 'ack' ? new Date(Date.parse(report.acknowledgedAt!) + AVOIDANCE_TTL_DAYS * DAY) : undefined;
    return {
      ...report,
      blocking,
      routingAvoidance: avoidanceEndsAt !== undefined && avoidanceEndsAt.getTime() > this.now(),
      avoidanceEndsAt: avoidanceEndsAt?.toISOString() ?? null,
    };
  }
}
