/**
 * Navigation sessions as the API sees them (spec part 3 §4.2): plans the
 * first route, creates the session's actor, and turns every other call into
 * a command to the session wherever it lives; a stream watches the session's
 * frames through here too. Callers are identified by their key or user; the
 * actor refuses anyone else.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { NavigationSessionHost } from '../../actors/navigation-session/session-host.js';
import { newSessionRecord } from '../../actors/navigation-session/session-machine.js';
import type { SessionRoutePlanner } from '../../actors/navigation-session/navigation-session-actor.js';
import { DEFAULT_SESSION_ARRIVAL_METERS, DEFAULT_SESSION_CORRIDOR_METERS } from '../../actors/navigation-session/session-model.js';
import type { LatLng, SessionOwner, SessionPlan } from '../../domain/navigation-session.js';
import type { FeedFrame, FixAck, FixInput, SessionCommandBody, SessionEta, SessionEvents, SessionReply, SessionSnapshot } from '../../actors/navigation-session/session-protocol.js';
import { isUuid } from '../../shared/uuid.js';
import type { Avoidable, NavigationCosting, Preference } from '../../domain/costing.js';
import type { Principal } from '../../domain/principal.js';

/** The session's replies and frames, as the edge handles them. */
export type { FeedFrame, FixAck, SessionEvents, SessionSnapshot };

export interface CreateSessionInput {
  origin: LatLng;
  destination: LatLng & { name?: string; placeSlug?: string };
  costing: NavigationCosting;
  language: string;
  preference: Preference;
  avoid: Avoidable[];
  webhookUrl?: string;
}

/** Where a place slug says to arrive (its entrance), for arrival judged at the door, not the pin. */
export type ArrivalPointResolver = (destination: LatLng & { placeSlug?: string }, costing: NavigationCosting) => Promise<SessionPlan['arrivalPoint']>;

/** The webhook side of sessions: URL check at creation, and the signing secret handed to the creator. */
export interface SessionWebhooks {
  /** The normalised URL; throws ApiError VALIDATION_ERROR for a URL that may not be used. */
  assertUsableUrl(url: string): string;
  secretFor(sessionId: string): string;
  list(sessionId: string, limit: number): Promise<unknown>;
}

/**
 * The traffic-aware travel time from a position to the arrival point, departing at `departAtMs` (the learned
 * profiles along the fastest route, as POST /traffic/route computes it; docs/traffic.md).
 */
export type TrafficEtaSource = (input: { from: LatLng; to: LatLng; costing: 'auto' | 'truck'; departAtMs: number }) => Promise<{
  basedOnHistory: boolean;
  delaySeconds: number;
  trafficLevel: string;
  coverage: number;
  simulated: boolean;
}>;

/** The ETA answer: the base one, or the base one with the learned delay added (`source: "traffic"`). */
export type NavigationEta =
  | SessionEta
  | { sessionId: string; available: true; etaSeconds: number; arrivalTime: string; baseSeconds: number; delaySeconds: number; trafficLevel: string; coverage: number; simulated: boolean; source: 'traffic' };

export interface NavigationSessionsDeps {
  host: NavigationSessionHost;
  /** Traffic-aware ETAs; absent: every ETA is the base one. */
  trafficEta?: TrafficEtaSource;
  planRoute: SessionRoutePlanner;
  resolveArrival?: ArrivalPointResolver;
  webhooks?: SessionWebhooks;
  now?: () => number;
}

export function ownerOf(principal: Principal | undefined): SessionOwner {
  if (principal?.kind === 'key') return { kind: 'key', id: principal.keyId };
  if (principal?.kind === 'user') return { kind: 'user', id: principal.userId };
  throw new ApiError('UNAUTHENTICATED', { message: 'Navigation needs an API key or a bearer token' });
}

export class NavigationSessions {
  private readonly now: () => number;

  constructor(private readonly deps: NavigationSessionsDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(principal: Principal | undefined, input: CreateSessionInput) {
    const owner = ownerOf(principal);
    let webhookUrl: string | null = null;
    if (input.webhookUrl !== undefined) {
      if (!this.deps.webhooks) throw new ApiError('VALIDATION_ERROR', { message: ['webhookUrl: webhooks are not enabled on this server'] });
      webhookUrl = this.deps.webhooks.assertUsableUrl(input.webhookUrl);
    }
    const arrivalPoint = this.deps.resolveArrival
      ? await this.deps.resolveArrival(input.destination, input.costing)
      : { lat: input.destination.lat, lng: input.destination.lng, source: 'destination' as const };
    const plan: SessionPlan = {
      origin: input.origin,
      destination: input.destination,
      arrivalPoint,
      costing: input.costing,
      language: input.language,
      preference: input.preference,
      avoid: input.avoid,
      corridorMeters: DEFAULT_SESSION_CORRIDOR_METERS,
      arrivalRadiusMeters: DEFAULT_SESSION_ARRIVAL_METERS,
    };
    const route = await this.deps.planRoute(input.origin, plan);
    const record = newSessionRecord({ id: randomUUID(), owner, plan, route, webhookUrl, nowMs: this.now() });
    const snapshot = await this.deps.host.create(record);
    // the signing secret is derived, never stored: shown to the creator once, here
    return input.webhookUrl !== undefined && this.deps.webhooks ? { ...snapshot, webhookSecret: this.deps.webhooks.secretFor(record.id) } : snapshot;
  }

  get(principal: Principal | undefined, id: string): Promise<SessionSnapshot> {
    return this.send(principal, id, { op: 'get' });
  }

  /** PATCH: one fix; answers the progress without the batch fields. */
  async fix(principal: Principal | undefined, id: string, fix: FixInput) {
    const { accepted: _accepted, newEvents: _newEvents, ...answer } = await this.send(principal, id, { op: 'fixes', fixes: [fix] });
    return answer;
  }

  positions(principal: Principal | undefined, id: string, fixes: FixInput[], commandId?: string) {
    return this.send(principal, id, { op: 'fixes', fixes }, commandId);
  }

  /** A fix message of the stream: answers only what its ack needs (the progress frames carry the rest). */
  streamFixes(principal: Principal | undefined, id: string, fixes: FixInput[]): Promise<FixAck> {
    return this.send(principal, id, { op: 'fixes', fixes, answer: 'ack' });
  }

  /**
   * Streams the session's frames (progress, events, re-routes, the ending) to `listener`, from whichever process
   * owns it, until the returned function is called. Who may watch is checked by the reads that start a stream.
   */
  watch(principal: Principal | undefined, id: string, listener: (frames: FeedFrame[]) => void): () => void {
    const owner = ownerOf(principal);
    return this.deps.host.watch(checkId(id), owner, listener);
  }

  events(principal: Principal | undefined, id: string, since: number): Promise<SessionEvents> {
    return this.send(principal, id, { op: 'events', since });
  }

  /**
   * The base ETA from the session; for a driving session (auto, truck) with learned profiles along the rest of the
   * way, the base time plus the learned delay of the fastest route from the current position (the last snapped
   * fix, else the origin) to the arrival point, departing now. Any failure of the traffic side keeps the base answer.
   */
  async eta(principal: Principal | undefined, id: string): Promise<NavigationEta> {
    const base = await this.send(principal, id, { op: 'eta' });
    const trafficEta = this.deps.trafficEta;
    if (!trafficEta || base.arrivalTime === null) return base;
    const snapshot = await this.get(principal, id);
    if (snapshot.status !== 'active' || (snapshot.costing !== 'auto' && snapshot.costing !== 'truck')) return base;
    const from = snapshot.progress?.snapped ?? (snapshot.lastFix ? { lat: snapshot.lastFix.lat, lng: snapshot.lastFix.lng } : snapshot.origin);
    const nowMs = this.now();
    const traffic = await trafficEta({ from, to: { lat: snapshot.arrivalPoint.lat, lng: snapshot.arrivalPoint.lng }, costing: snapshot.costing, departAtMs: nowMs }).catch(() => undefined);
    if (!traffic?.basedOnHistory) return base;
    const baseSeconds = Math.round(base.etaSeconds);
    const etaSeconds = Math.max(0, baseSeconds + Math.round(traffic.delaySeconds));
    return {
      sessionId: base.sessionId,
      available: true,
      etaSeconds,
      arrivalTime: new Date(nowMs + etaSeconds * 1000).toISOString(),
      baseSeconds,
      delaySeconds: etaSeconds - baseSeconds,
      trafficLevel: traffic.trafficLevel,
      coverage: traffic.coverage,
      simulated: traffic.simulated,
      source: 'traffic',
    };
  }

  /** The webhook delivery log of a session, for its owner only. */
  async webhookDeliveries(principal: Principal | undefined, id: string, limit: number) {
    await this.get(principal, id);
    if (!this.deps.webhooks) return { sessionId: id, count: 0, deliveries: [] };
    return this.deps.webhooks.list(id.toLowerCase(), limit);
  }

  cancel(principal: Principal | undefined, id: string) {
    return this.send(principal, id, { op: 'cancel' });
  }

  recalculate(principal: Principal | undefined, id: string, input: { current: LatLng; heading?: number; costing?: NavigationCosting; preference?: Preference; avoid?: Avoidable[] }) {
    return this.send(principal, id, {
      op: 'recalculate',
      from: { ...input.current, ...(input.heading !== undefined ? { heading: input.heading } : {}) },
      ...(input.costing ? { costing: input.costing } : {}),
      ...(input.preference ? { preference: input.preference } : {}),
      ...(input.avoid ? { avoid: input.avoid } : {}),
    });
  }

  private send<B extends SessionCommandBody>(principal: Principal | undefined, id: string, body: B, commandId?: string): Promise<SessionReply<B>> {
    const owner = ownerOf(principal);
    return this.deps.host.send(checkId(id), owner, body, commandId);
  }
}

/** Session ids are UUIDs; anything else names no session (and must not reach a bus subject). */
function checkId(id: string): string {
  if (!isUuid(id)) throw new ApiError('NOT_FOUND', { message: 'Navigation session not found', details: { sessionId: id } });
  return id.toLowerCase();
}
