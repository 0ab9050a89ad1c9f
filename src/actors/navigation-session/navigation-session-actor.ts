/**
 * One navigation session as an actor: a serial mailbox in front of the
 * session's state machine. Every command runs against a draft; the draft
 * becomes the session only once its write is durable, so a failed write
 * leaves the session as it was, and a write fenced off by a takeover makes
 * the actor retire (another process owns the session now).
 */
import type { RouteLine } from '../../solvers/navigation/route-line.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import { ApiError } from '../../shared/errors.js';
import { isoTimeAt } from '../../shared/iso-time.js';
import { Mailbox } from '../../shared/mailbox.js';
import { applyFix, applyReroute, isStaleFix, routeLineOf, travelHeading, type RawEvent } from './session-machine.js';
import { adoptTracking, copyProgress } from './tracking-adoption.js';
import { ENDED_STATUSES, REMEMBERED_COMMANDS, SESSION_IDLE_TTL_MS } from './session-model.js';
import {
  RETAINED_EVENTS,
  type AcceptedFix,
  type AppliedCommand,
  type LatLng,
  type NavigationEvent,
  type SessionPlan,
  type SessionRecord,
  type SessionStatus,
  type SessionTracking,
} from '../../domain/navigation-session.js';
import type {
  FeedFrame,
  FixAck,
  FixAnswer,
  FixInput,
  ProgressSummary,
  RecalculateAnswer,
  RecalculateBody,
  SessionCommand,
  EndedStatus,
  SessionCommandBody,
  SessionEnvelope,
  SessionEta,
  SessionReply,
  SessionSnapshot,
} from './session-protocol.js';
import type { SessionWrite } from '../../store/pg/navigation-sessions.js';

/** Plans a route for the session (in a solver worker); throws ApiError when none exists. */
export type SessionRoutePlanner = (from: LatLng & { heading?: number }, plan: SessionPlan) => Promise<NavigationRoute>;

export interface SessionActorDeps {
  planRoute: SessionRoutePlanner;
  /** Makes a write durable; false when the fence failed (the session was taken over). */
  persist(write: SessionWrite): Promise<boolean>;
  /** Hands frames to the session's streams, after the write that produced them is durable. */
  publish(sessionId: string, frames: FeedFrame[]): void;
  /** New events are durable (webhook delivery picks them up). */
  onEvents?(record: SessionRecord): void;
  /**
   * A live road-blocking incident within about 30 m of these route points (ahead of the traveller), other
   * than the ones named; undefined when none. Without it sessions do not watch for incidents.
   */
  incidentAhead?(points: LatLng[], known: ReadonlySet<string>): Promise<BlockingIncident | undefined>;
  now(): number;
}

export interface BlockingIncident {
  id: string;
  incidentType: string;
  lat: number;
  lng: number;
}

/** How often a session looks for new blocking incidents on its route ahead (ms). */
export const INCIDENT_CHECK_MS = 5_000;
/** Route points ahead handed to the incident check: one every ~this many metres at most. */
const INCIDENT_POINT_SPACING_M = 25;

/** The session's own transitions; anything else is a bug, not a user error. */
const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  active: ['arrived', 'cancelled', 'expired'],
  arrived: [],
  cancelled: [],
  expired: [],
};

/**
 * Fixes that change nothing but progress (no event, no status or route change) are written at most this often:
 * the store then always holds every event and the state that produced it, and progress at most this old. A
 * process that dies loses only those few seconds of progress, which the traveller's next fix restores; it never
 * loses or repeats an event, because a fix that raises one is written before anything is sent. Writing every
 * fix was a quarter of the server's CPU per fix and put a database round trip on every answer.
 */
export const CHECKPOINT_INTERVAL_MS = 5_000;

/** Off the route with no usable re-plan: try again after this long (ms). */
const REPLAN_RETRY_MS = 10_000;
const MAILBOX_CAPACITY = 64;

/** The session was taken over by another process; the command must go to the new owner. */
export class SessionFencedError extends Error {
  constructor(readonly sessionId: string) {
    super(`navigation session ${sessionId} is owned by another process now`);
    this.name = 'SessionFencedError';
  }
}

interface Draft {
  status: SessionStatus;
  tracking: SessionTracking;
  route: NavigationRoute;
  line: RouteLine;
  eventSeq: number;
  events: NavigationEvent[];
  frames: FeedFrame[];
  routeChanged: boolean;
  expiresAtMs: number;
}

export class NavigationSessionActor {
  /** `live` serves commands; `retired` after a fenced write or eviction — the host drops it. */
  private lifecycle: 'live' | 'retired' = 'live';
  private readonly mailbox = new Mailbox(MAILBOX_CAPACITY);
  private line: RouteLine;
  private lastReplanAttemptMs = 0;
  private lastIncidentCheckMs = -Infinity;
  /** Incidents already seen on the route (re-planned around or unavoidable): each raises one event. */
  private readonly knownIncidents = new Set<string>();
  /** When the store last received this session's state; progress applied since then is not written yet. */
  private persistedAtMs: number;
  private unsaved = false;
  private writeAlways = false;
  /** When a command last changed the session (undefined: not since it was loaded; the record's text holds). */
  private updatedAtMs: number | undefined;
  lastActivityMs: number;

  constructor(
    private readonly record: SessionRecord,
    private readonly deps: SessionActorDeps,
  ) {
    this.line = routeLineOf(record.route);
    this.lastActivityMs = deps.now();
    this.persistedAtMs = this.lastActivityMs;
  }

  get id(): string {
    return this.record.id;
  }

  get isLive(): boolean {
    return this.lifecycle === 'live';
  }

  get pending(): number {
    return this.mailbox.depth;
  }

  get isActive(): boolean {
    return this.record.status === 'active';
  }

  /** Ends the session when it has been idle past its expiry (run by the host's sweep). */
  expireIfDue(): Promise<void> {
    return this.mailbox.post(async () => {
      if (this.lifecycle === 'live' && this.record.status === 'active' && this.deps.now() >= this.record.expiresAtMs) await this.commit(this.expire());
    });
  }

  retire(): void {
    this.lifecycle = 'retired';
  }

  /** Whether progress not yet written has waited `olderThanMs` (the host's checkpoint sweep, shutdown). */
  hasUnsavedProgress(olderThanMs = 0): boolean {
    return this.lifecycle === 'live' && this.unsaved && this.deps.now() - this.persistedAtMs >= olderThanMs;
  }

  /** From now on every command is written before it is answered (the process is handing its sessions back). */
  writeEveryCommand(): void {
    this.writeAlways = true;
  }

  /** Writes progress not yet written (before the actor leaves memory or the process stops). */
  checkpoint(): Promise<void> {
    return this.mailbox.post(async () => {
      if (this.lifecycle === 'live' && this.unsaved) await this.commit(this.draft());
    });
  }

  /** Queues a command; answers its reply or throws ApiError / SessionFencedError. */
  handle<B extends SessionCommandBody>(command: B & SessionEnvelope): Promise<SessionReply<B>> {
    this.lastActivityMs = this.deps.now();
    // each branch of `process` answers its command's own reply (checked there by `answer`)
    return this.mailbox.post(() => this.process(command)) as Promise<SessionReply<B>>;
  }

  private async process(command: SessionCommand): Promise<SessionReply> {
    if (this.lifecycle !== 'live') throw new SessionFencedError(this.id);
    const { record } = this;
    if (command.caller.kind !== record.owner.kind || command.caller.id !== record.owner.id) {
      throw new ApiError('FORBIDDEN', { message: 'This navigation session belongs to another caller' });
    }
    if (record.status === 'active' && this.deps.now() >= record.expiresAtMs) await this.commit(this.expire());
    const remembered = record.tracking.recentCommands.find((applied) => applied.id === command.commandId);
    switch (command.op) {
      case 'get':
        return answer(command, this.snapshot());
      case 'events':
        return answer(command, { sessionId: record.id, status: record.status, eventSeq: record.eventSeq, events: record.events.filter((event) => event.seq > command.since) });
      case 'eta':
        return answer(command, this.eta());
      case 'watch':
        return answer(command, { sessionId: record.id, status: record.status, eventSeq: record.eventSeq });
      case 'fixes': {
        if (!remembered) this.assertActive();
        const { applied, newEvents } = remembered ? { applied: remembered, newEvents: null } : await this.acceptFixes(command.fixes, command.commandId);
        return command.answer === 'ack' ? answer(command, this.fixAck(applied)) : answer(command, this.fixAnswer(applied, newEvents));
      }
      case 'recalculate':
        if (remembered) return answer(command, this.recalculateAnswer());
        this.assertActive();
        return answer(command, await this.recalculate(command));
      case 'cancel':
        if (record.status !== 'cancelled') {
          this.assertActive();
          await this.commit(this.end('cancelled'));
        }
        return answer(command, { ended: true, sessionId: record.id, status: 'cancelled' });
    }
  }

  private assertActive(): void {
    const { status } = this.record;
    if (ENDED_STATUSES.has(status)) {
      throw new ApiError('SESSION_ENDED', { message: `The navigation session has ended (${status})`, details: { status, sessionId: this.record.id } });
    }
  }

  private draft(): Draft {
    const { record } = this;
    return {
      status: record.status,
      tracking: record.tracking,
      route: record.route,
      line: this.line,
      eventSeq: record.eventSeq,
      events: [],
      frames: [],
      routeChanged: false,
      expiresAtMs: record.expiresAtMs,
    };
  }

  private transition(draft: Draft, to: EndedStatus): void {
    if (!TRANSITIONS[draft.status].includes(to)) throw new Error(`navigation session ${this.id}: no transition ${draft.status} → ${to}`);
    draft.status = to;
    draft.frames.push({ type: 'status', sessionId: this.id, status: to, eventSeq: draft.eventSeq });
  }

  private append(draft: Draft, raw: RawEvent[], at: string): void {
    for (const event of raw) {
      draft.eventSeq++;
      const numbered: NavigationEvent = { seq: draft.eventSeq, type: event.type, at, data: event.data };
      draft.events.push(numbered);
      draft.frames.push({ type: 'event', sessionId: this.id, event: numbered });
    }
  }

  private end(status: 'cancelled' | 'expired'): Draft {
    const draft = this.draft();
    this.transition(draft, status);
    return draft;
  }

  private expire(): Draft {
    return this.end('expired');
  }

  private remember(draft: Draft, applied: AppliedCommand): void {
    draft.tracking = { ...draft.tracking, recentCommands: [...draft.tracking.recentCommands, applied].slice(-REMEMBERED_COMMANDS) };
  }

  /** Applies the fixes; answers what was applied and the events they raised. */
  private async acceptFixes(inputs: FixInput[], commandId: string): Promise<{ applied: AppliedCommand; newEvents: NavigationEvent[] }> {
    const nowMs = this.deps.now();
    const at = isoTimeAt(nowMs);
    const draft = this.draft();
    const fromSeq = draft.eventSeq;
    let accepted = 0;
    let rerouted = false;
    for (const input of inputs) {
      if (draft.status !== 'active') break;
      const fix = acceptedFix(input, at);
      if (isStaleFix(draft.tracking, fix)) continue;
      const previous = draft.tracking.lastFix;
      const step = applyFix(draft.tracking, draft.line, draft.route, this.record.plan, fix);
      draft.tracking = step.tracking;
      accepted++;
      this.append(draft, step.events, at);
      const offRoute = draft.tracking.progress?.offRoute === true;
      if (step.arrived) this.transition(draft, 'arrived');
      else if (step.leftRoute || (offRoute && nowMs - this.lastReplanAttemptMs >= REPLAN_RETRY_MS)) {
        rerouted = (await this.replan(draft, { lat: fix.lat, lng: fix.lng, ...optionalHeading(travelHeading(fix, previous)) }, at)) || rerouted;
      }
      draft.frames.push(this.progressFrame(draft));
    }
    if (accepted > 0 && !rerouted && draft.status === 'active') rerouted = await this.avoidIncidentAhead(draft, at, nowMs);
    draft.expiresAtMs = nowMs + SESSION_IDLE_TTL_MS;
    const applied: AppliedCommand = { id: commandId, fromSeq, toSeq: draft.eventSeq, accepted, rerouted };
    this.remember(draft, applied);
    const durable =
      this.writeAlways || draft.events.length > 0 || draft.status !== this.record.status || draft.routeChanged || nowMs - this.persistedAtMs >= CHECKPOINT_INTERVAL_MS;
    if (durable) await this.commit(draft);
    else this.adopt(draft, {}, false);
    return { applied, newEvents: draft.events };
  }

  /**
   * Looks (at most every INCIDENT_CHECK_MS) for a new road-blocking incident on the route ahead; when one
   * appeared, emits `incident_ahead` and re-plans from the last fix (the planner goes around it).
   */
  private async avoidIncidentAhead(draft: Draft, at: string, nowMs: number): Promise<boolean> {
    const fix = draft.tracking.lastFix;
    if (!this.deps.incidentAhead || !fix || nowMs - this.lastIncidentCheckMs < INCIDENT_CHECK_MS) return false;
    this.lastIncidentCheckMs = nowMs;
    const line = draft.line;
    const from = draft.tracking.tracker.alongMeters ?? 0;
    const points: LatLng[] = [];
    let lastAlong = -Infinity;
    for (let index = 0; index < line.lat.length; index++) {
      const along = line.along[index]!;
      if (along < from) continue;
      if (along - lastAlong >= INCIDENT_POINT_SPACING_M || index === line.lat.length - 1) {
        points.push({ lat: line.lat[index]!, lng: line.lng[index]! });
        lastAlong = along;
      }
    }
    if (points.length < 2) return false;
    let incident: BlockingIncident | undefined;
    try {
      incident = await this.deps.incidentAhead(points, this.knownIncidents);
    } catch {
      return false; // the check is advisory: a failed lookup never fails the fix
    }
    if (!incident) return false;
    this.knownIncidents.add(incident.id);
    this.append(draft, [{ type: 'incident_ahead', data: { incidentId: incident.id, incidentType: incident.incidentType, lat: incident.lat, lng: incident.lng } }], at);
    return this.replan(draft, { lat: fix.lat, lng: fix.lng, ...(fix.heading !== undefined ? { heading: fix.heading } : {}) }, at);
  }

  /** Re-plans from the traveller's position; false (and the session stays off route) when no route is found. */
  private async replan(draft: Draft, from: LatLng & { heading?: number }, at: string, overrides: Partial<SessionPlan> = {}): Promise<boolean> {
    this.lastReplanAttemptMs = this.deps.now();
    let route: NavigationRoute;
    try {
      route = await this.deps.planRoute(from, { ...this.record.plan, ...overrides });
    } catch (error) {
      // no route from where the traveller is (off the network, blocked), or the engine is overloaded for now
      // (SERVER_BUSY, COMPUTATION_TIMEOUT): the fix still counts; keep tracking and retry on a later fix
      if (error instanceof ApiError && (error.statusCode < 500 || error.code === 'SERVER_BUSY' || error.code === 'COMPUTATION_TIMEOUT')) return false;
      throw error;
    }
    const { tracking, event } = applyReroute(draft.tracking, route);
    draft.tracking = tracking;
    draft.route = route;
    draft.line = routeLineOf(route);
    draft.routeChanged = true;
    draft.frames.push({ type: 'route', sessionId: this.id, reroutes: tracking.reroutes, route });
    this.append(draft, [event], at);
    return true;
  }

  private async recalculate(command: RecalculateBody & SessionEnvelope): Promise<RecalculateAnswer> {
    const nowMs = this.deps.now();
    const at = new Date(nowMs).toISOString();
    const draft = this.draft();
    const overrides: Partial<SessionPlan> = {
      ...(command.costing ? { costing: command.costing } : {}),
      ...(command.preference ? { preference: command.preference } : {}),
      ...(command.avoid ? { avoid: command.avoid } : {}),
    };
    const fromSeq = draft.eventSeq;
    // an explicit recalculation reports a missing route to the caller instead of staying off route
    const route = await this.deps.planRoute(command.from, { ...this.record.plan, ...overrides });
    const { tracking, event } = applyReroute(draft.tracking, route);
    Object.assign(draft, { tracking, route, line: routeLineOf(route), routeChanged: true });
    draft.frames.push({ type: 'route', sessionId: this.id, reroutes: tracking.reroutes, route });
    this.append(draft, [event], at);
    draft.expiresAtMs = nowMs + SESSION_IDLE_TTL_MS;
    this.remember(draft, { id: command.commandId, fromSeq, toSeq: draft.eventSeq, accepted: 0, rerouted: true });
    await this.commit(draft, overrides);
    return this.recalculateAnswer();
  }

  /** Makes the draft durable, then the session; frames go out only after that. */
  private async commit(draft: Draft, planOverrides: Partial<SessionPlan> = {}): Promise<void> {
    const write: SessionWrite = {
      id: this.id,
      expectedRevision: this.record.revision,
      status: draft.status,
      tracking: draft.tracking,
      eventSeq: draft.eventSeq,
      expiresAtMs: draft.expiresAtMs,
      events: draft.events,
      ...(draft.routeChanged ? { route: draft.route } : {}),
    };
    const written = await this.deps.persist(write);
    if (!written) {
      this.retire();
      throw new SessionFencedError(this.id);
    }
    this.adopt(draft, planOverrides, true);
  }

  /** The draft becomes the session (after its write when `written`, else as unsaved progress); frames go out. */
  private adopt(draft: Draft, planOverrides: Partial<SessionPlan>, written: boolean): void {
    // in place: see tracking-adoption.ts
    const record = this.record;
    if (draft.events.length > 0) record.events = [...record.events, ...draft.events].slice(-RETAINED_EVENTS);
    if (Object.keys(planOverrides).length > 0) record.plan = { ...record.plan, ...planOverrides };
    record.status = draft.status;
    record.tracking = adoptTracking(record.tracking, draft.tracking);
    record.route = draft.route;
    record.eventSeq = draft.eventSeq;
    const nowMs = this.deps.now();
    if (written) {
      record.revision++;
      this.persistedAtMs = nowMs;
    }
    this.unsaved = !written;
    // the text is made when someone reads it: a new string per fix, held for a second, would only feed the collector
    this.updatedAtMs = nowMs;
    record.expiresAtMs = draft.expiresAtMs;
    this.line = draft.line;
    if (draft.frames.length > 0) this.deps.publish(this.id, draft.frames);
    if (draft.events.length > 0) this.deps.onEvents?.(this.record);
  }

  private summaryOf(state: SummarySource): ProgressSummary {
    const duration = durationLeft(state);
    return {
      sessionId: this.id,
      status: state.status,
      maneuverIndex: state.tracking.progress?.maneuverIndex ?? 0,
      eventSeq: state.eventSeq,
      etaSeconds: duration,
      distanceRemainingMeters: distanceLeft(state),
      durationRemainingSeconds: duration,
      progress: state.tracking.progress,
    };
  }

  /** The summary as a progress frame, made as one object (not a spread copy of the summary: one per fix). */
  private progressFrame(draft: Draft): FeedFrame {
    const duration = durationLeft(draft);
    return {
      type: 'progress',
      fixSeq: draft.tracking.fixCount,
      sessionId: this.id,
      status: draft.status,
      maneuverIndex: draft.tracking.progress?.maneuverIndex ?? 0,
      eventSeq: draft.eventSeq,
      etaSeconds: duration,
      distanceRemainingMeters: distanceLeft(draft),
      durationRemainingSeconds: duration,
      progress: draft.tracking.progress,
    };
  }

  /**
   * The summary of the session itself, to hand out: its progress is a copy, since the session's own
   * progress object changes in place with the next fix (drafts' objects never change, so frames
   * built from a draft need no copy).
   */
  private recordSummary(): ProgressSummary {
    const summary = this.summaryOf(this.record);
    return { ...summary, progress: copyProgress(summary.progress) };
  }

  private fixAnswer(applied: AppliedCommand, newEvents: NavigationEvent[] | null): FixAnswer {
    const events = newEvents ?? this.record.events.filter((event) => event.seq > applied.fromSeq && event.seq <= applied.toSeq);
    return {
      ...this.recordSummary(),
      reroute: applied.rerouted ? this.routeView() : null,
      accepted: applied.accepted,
      newEvents: events,
    };
  }

  /** The stream's answer to a fix message: its progress frames already carry the rest. */
  private fixAck(applied: AppliedCommand): FixAck {
    return { accepted: applied.accepted, eventSeq: this.record.eventSeq, status: this.record.status };
  }

  private routeView() {
    const { route } = this.record;
    return { shape: route.shape, maneuvers: route.maneuvers, distanceMeters: route.distanceMeters, etaSeconds: route.etaSeconds };
  }

  private recalculateAnswer(): RecalculateAnswer {
    return { provider: 'svc-navigation', sessionId: this.id, costing: this.record.plan.costing, preference: this.record.plan.preference, route: this.routeView() };
  }

  private eta(): SessionEta {
    const summary = this.summaryOf(this.record);
    const ended = ENDED_STATUSES.has(this.record.status);
    // no live traffic feed yet: the base (free-flow) estimate, said as such
    return {
      sessionId: this.id,
      available: false,
      etaSeconds: summary.durationRemainingSeconds,
      arrivalTime: ended ? null : new Date(this.deps.now() + summary.durationRemainingSeconds * 1000).toISOString(),
      delaySeconds: null,
      trafficLevel: null,
      source: 'base',
    };
  }

  snapshot(): SessionSnapshot {
    const { record } = this;
    const summary = this.recordSummary();
    return {
      sessionId: record.id,
      status: record.status,
      costing: record.plan.costing,
      language: record.plan.language,
      preference: record.plan.preference,
      avoid: record.plan.avoid,
      origin: record.plan.origin,
      destination: { lat: record.plan.destination.lat, lng: record.plan.destination.lng, name: record.plan.destination.name ?? null, ...(record.plan.destination.placeSlug ? { placeSlug: record.plan.destination.placeSlug } : {}) },
      arrivalPoint: record.plan.arrivalPoint,
      routeShape: record.route.shape,
      maneuvers: record.route.maneuvers,
      distanceMeters: record.route.distanceMeters,
      baseSeconds: record.route.etaSeconds,
      etaSeconds: summary.etaSeconds,
      distanceRemainingMeters: summary.distanceRemainingMeters,
      durationRemainingSeconds: summary.durationRemainingSeconds,
      maneuverIndex: summary.maneuverIndex,
      eventSeq: record.eventSeq,
      reroutes: record.tracking.reroutes,
      progress: summary.progress,
      lastFix: record.tracking.lastFix ? { ...record.tracking.lastFix } : null,
      webhookUrl: record.webhookUrl,
      createdAt: record.createdAt,
      updatedAt: this.updatedAtMs === undefined ? record.updatedAt : new Date(this.updatedAtMs).toISOString(),
      expiresAt: new Date(record.expiresAtMs).toISOString(),
      route: this.routeView(),
    };
  }
}

/** `reply` as the answer to `command`: checked against the session's protocol, so each command answers its own reply. */
function answer<B extends SessionCommandBody>(_command: B, reply: SessionReply<B>): SessionReply {
  return reply;
}

type SummarySource = { status: SessionStatus; tracking: SessionTracking; route: NavigationRoute; eventSeq: number };

function distanceLeft(state: SummarySource): number {
  return state.status === 'arrived' ? 0 : (state.tracking.progress?.distanceRemainingMeters ?? state.route.distanceMeters);
}

function durationLeft(state: SummarySource): number {
  return state.status === 'arrived' ? 0 : (state.tracking.progress?.durationRemainingSeconds ?? state.route.etaSeconds);
}

/**
 * The fix as the session keeps it, every field named (absent ones undefined, which JSON omits): one object
 * shape for every fix, built without a spread copy.
 */
function acceptedFix(input: FixInput, receivedAt: string): AcceptedFix {
  return { lat: input.lat, lng: input.lng, speed: input.speed, heading: input.heading, accuracy: input.accuracy, capturedAt: input.capturedAt, receivedAt };
}

function optionalHeading(heading: number | undefined): { heading?: number } {
  return heading === undefined ? {} : { heading };
}
