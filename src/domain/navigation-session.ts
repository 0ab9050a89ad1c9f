/**
 * The navigation session as its actor holds it and the store persists it
 * (spec part 3 §2.2, §2.3). Plain JSON-safe data: the durable row is these
 * fields, and the bus carries parts of them between processes.
 */
import type { Avoidable, NavigationCosting, Preference } from './costing.js';
import type { NavigationRoute } from './navigation-route.js';

/** `active → arrived | cancelled | expired`; the three ends are final. */
export type SessionStatus = 'active' | 'arrived' | 'cancelled' | 'expired';

/** Who created the session: only the same key or user may use it. */
export interface SessionOwner {
  kind: 'key' | 'user';
  id: string;
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** What the session was created with; re-plans reuse it. */
export interface SessionPlan {
  origin: LatLng;
  destination: LatLng & { name?: string; placeSlug?: string };
  /** Where arrival is judged: the destination, or the entrance its place slug resolved to. */
  arrivalPoint: LatLng & { source: 'destination' | 'entrance' | 'road_access' };
  costing: NavigationCosting;
  language: string;
  preference: Preference;
  avoid: Avoidable[];
  corridorMeters: number;
  arrivalRadiusMeters: number;
}

export type NavigationEventType = 'maneuver_approaching' | 'maneuver_completed' | 'off_route' | 'incident_ahead' | 'rerouted' | 'arrived';

export interface NavigationEvent {
  seq: number;
  type: NavigationEventType;
  at: string;
  data: Record<string, unknown>;
}

/** A fix as the session accepted it. */
export interface AcceptedFix extends LatLng {
  speed?: number;
  heading?: number;
  accuracy?: number;
  /** Device time of the fix, when given: fixes not newer than the last accepted one are skipped. */
  capturedAt?: string;
  receivedAt: string;
}

/** The API progress object of the last accepted fix (PATCH response `progress`). */
export interface SessionProgress {
  offRoute: boolean;
  arrived: boolean;
  shapeIndex: number;
  maneuverIndex: number;
  snapped: LatLng;
  distanceToRouteMeters: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  distanceToNextManeuverMeters: number | null;
  nextManeuver: { index: number; type: number; instruction: string; verbalAlert: string; cumulativeMeters: number; lat: number; lng: number } | null;
  progressFraction: number;
}

/** A command already applied, so a retried delivery of it answers instead of applying it twice. */
export interface AppliedCommand {
  id: string;
  /** eventSeq before and after it, and the fixes it accepted. */
  fromSeq: number;
  toSeq: number;
  accepted: number;
  /** Whether it re-planned the route. */
  rerouted: boolean;
}

/** Where progress tracking stands on the route; the tracker (solvers/navigation) reads and advances it. */
export interface TrackerState {
  /** Metres along the route at the last fix on route; undefined before the first fix. */
  alongMeters: number | undefined;
  offRouteStreak: number;
  /** Highest maneuver index announced as approaching (-1: none). */
  approached: number;
  /** Highest maneuver index reported completed (0: only the departure). */
  completed: number;
  arrived: boolean;
}

/** Everything that changes with a fix: rewritten on every accepted fix. */
export interface SessionTracking {
  tracker: TrackerState;
  /** Accepted fixes so far; numbers the progress frames of the stream. */
  fixCount: number;
  lastFix: AcceptedFix | null;
  progress: SessionProgress | null;
  reroutes: number;
  recentCommands: AppliedCommand[];
}

export interface SessionRecord {
  id: string;
  owner: SessionOwner;
  status: SessionStatus;
  plan: SessionPlan;
  route: NavigationRoute;
  tracking: SessionTracking;
  eventSeq: number;
  /** The newest events (at most RETAINED_EVENTS), oldest first. */
  events: NavigationEvent[];
  webhookUrl: string | null;
  /** Write fence: the row's revision this copy was read at or last wrote. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** Epoch ms; about 6 h after the last activity. */
  expiresAtMs: number;
}

/** The newest events a session record carries: the actor trims to them, the store reads them back. */
export const RETAINED_EVENTS = 50;
