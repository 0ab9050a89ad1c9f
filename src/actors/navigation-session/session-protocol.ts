/**
 * What travels between processes for a session: the commands sent to its
 * owner (`nav.session.<id>`; replies: runtime/owner-routing.ts), and the frames it
 * publishes for streams (`nav.feed.<id>`). JSON on the wire.
 */
import type { NavigationRoute } from '../../domain/navigation-route.js';
import type { LatLng, NavigationEvent, SessionOwner, SessionProgress, SessionStatus } from '../../domain/navigation-session.js';
import type { Avoidable, NavigationCosting, Preference } from '../../domain/costing.js';

export interface FixInput extends LatLng {
  speed?: number;
  heading?: number;
  accuracy?: number;
  capturedAt?: string;
}

export type SessionCommandBody =
  | { op: 'get' }
  /**
   * `answer: 'ack'` (the stream, which reads only these three fields per fix message) answers `{ accepted,
   * eventSeq, status }` instead of the whole progress answer: building, copying and (from a remote owner)
   * encoding the full answer for every fix was a few per cent of the server's CPU per fix.
   */
  | { op: 'fixes'; fixes: FixInput[]; answer?: 'ack' }
  | { op: 'events'; since: number }
  | { op: 'eta' }
  | { op: 'recalculate'; from: LatLng & { heading?: number }; costing?: NavigationCosting; preference?: Preference; avoid?: Avoidable[] }
  | { op: 'cancel' }
  /** A process streams the session to its sockets: publish frames on the feed for a while. */
  | { op: 'watch' };

export type SessionCommand = SessionCommandBody & {
  caller: SessionOwner;
  /** Same id on a retried delivery, so the owner applies a command once. */
  commandId: string;
  /** Set by a process that streams this session to sockets of its own: it wants the feed. */
  watcherProcess?: string;
};

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

/** Server-to-client frames of the session stream (also the feed between processes). */
export type FeedFrame =
  | ({ type: 'progress'; fixSeq: number } & ProgressSummary)
  | { type: 'event'; sessionId: string; event: NavigationEvent }
  | { type: 'route'; sessionId: string; reroutes: number; route: NavigationRoute }
  | { type: 'status'; sessionId: string; status: SessionStatus; eventSeq: number };
