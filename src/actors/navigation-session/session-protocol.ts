/**
 * What travels between processes for a session: the commands sent to its
 * owner (`nav.session.<id>`), each paired with the reply it gets (envelope:
 * runtime/owner-routing.ts), and the frames it publishes for streams
 * (`nav.feed.<id>`). JSON on the wire.
 */
import type { NavigationRoute } from '../../domain/navigation-route.js';
import type { ReplyTo } from '../runtime/actor-protocol.js';
import type { AcceptedFix, LatLng, NavigationEvent, SessionOwner, SessionPlan, SessionProgress, SessionStatus } from '../../domain/navigation-session.js';
import type { Avoidable, NavigationCosting, Preference } from '../../domain/costing.js';

export interface FixInput extends LatLng {
  speed?: number;
  heading?: number;
  accuracy?: number;
  capturedAt?: string;
}

/** What a command may name to re-plan the route from. */
export interface RecalculateBody {
  op: 'recalculate';
  from: LatLng & { heading?: number };
  costing?: NavigationCosting;
  preference?: Preference;
  avoid?: Avoidable[];
}

/**
 * Every command a session takes, paired with its reply. `answer: 'ack'` on `fixes` (the stream, which reads only
 * three fields per fix message) answers `{ accepted, eventSeq, status }` instead of the whole progress answer:
 * building, copying and (from a remote owner) encoding the full answer for every fix was a few per cent of the
 * server's CPU per fix.
 */
export type SessionExchange =
  | { command: { op: 'get' }; reply: SessionSnapshot }
  | { command: { op: 'fixes'; fixes: FixInput[]; answer?: undefined }; reply: FixAnswer }
  | { command: { op: 'fixes'; fixes: FixInput[]; answer: 'ack' }; reply: FixAck }
  | { command: { op: 'events'; since: number }; reply: SessionEvents }
  | { command: { op: 'eta' }; reply: SessionEta }
  | { command: RecalculateBody; reply: RecalculateAnswer }
  | { command: { op: 'cancel' }; reply: CancelAnswer }
  /** A process streams the session to its sockets: publish frames on the feed for a while. */
  | { command: { op: 'watch' }; reply: WatchAnswer };

export type SessionCommandBody = SessionExchange['command'];

/** What a session command carries besides its own fields. */
export interface SessionEnvelope {
  caller: SessionOwner;
  /** Same id on a retried delivery, so the owner applies a command once. */
  commandId: string;
  /** Set by a process that streams this session to sockets of its own: it wants the feed. */
  watcherProcess?: string;
}

export type SessionCommand = SessionCommandBody & SessionEnvelope;

/** The reply to command body `B`. */
export type SessionReply<B extends SessionCommandBody = SessionCommandBody> = ReplyTo<SessionExchange, B>;

/** What a fix message on the stream is answered with (`answer: 'ack'`). */
export interface FixAck {
  accepted: number;
  eventSeq: number;
  status: SessionStatus;
}

/** The summary every fix answer and progress frame carries. */
export interface ProgressSummary {
  sessionId: string;
  status: SessionStatus;
  maneuverIndex: number;
  eventSeq: number;
  etaSeconds: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  progress: SessionProgress | null;
}

/** The session as GET answers it (and the stream's ready frame carries). */
export interface SessionSnapshot {
  sessionId: string;
  status: SessionStatus;
  costing: NavigationCosting;
  language: string;
  preference: Preference;
  avoid: Avoidable[];
  origin: LatLng;
  destination: LatLng & { name: string | null; placeSlug?: string };
  arrivalPoint: SessionPlan['arrivalPoint'];
  routeShape: string;
  maneuvers: NavigationRoute['maneuvers'];
  distanceMeters: number;
  baseSeconds: number;
  etaSeconds: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  maneuverIndex: number;
  eventSeq: number;
  reroutes: number;
  progress: SessionProgress | null;
  lastFix: AcceptedFix | null;
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  route: NavigationRoute;
}

/** What a batch of fixes (or one) is answered with. */
export interface FixAnswer extends ProgressSummary {
  /** The new route when a fix of the batch re-planned it. */
  reroute: NavigationRoute | null;
  accepted: number;
  newEvents: NavigationEvent[];
}

/** The retained events after `since`. */
export interface SessionEvents {
  sessionId: string;
  status: SessionStatus;
  eventSeq: number;
  events: NavigationEvent[];
}

/** The arrival estimate: the base (free-flow) one while no live traffic feed exists. */
export interface SessionEta {
  sessionId: string;
  available: false;
  etaSeconds: number;
  arrivalTime: string | null;
  delaySeconds: null;
  trafficLevel: null;
  source: 'base';
}

/** The re-planned route, as POST /navigation/recalculate answers it for a session. */
export interface RecalculateAnswer {
  provider: 'svc-navigation';
  sessionId: string;
  costing: NavigationCosting;
  preference: Preference;
  route: NavigationRoute;
}

export interface CancelAnswer {
  ended: true;
  sessionId: string;
  status: 'cancelled';
}

/** Where the session's feed stands (the watch command only renews interest in it). */
export interface WatchAnswer {
  sessionId: string;
  status: SessionStatus;
  eventSeq: number;
}

/** Where a session may go from `active`: each is final. */
export type EndedStatus = Exclude<SessionStatus, 'active'>;

/** Server-to-client frames of the session stream (also the feed between processes). */
export type FeedFrame =
  | ({ type: 'progress'; fixSeq: number } & ProgressSummary)
  | { type: 'event'; sessionId: string; event: NavigationEvent }
  | { type: 'route'; sessionId: string; reroutes: number; route: NavigationRoute }
  | { type: 'status'; sessionId: string; status: EndedStatus; eventSeq: number };
