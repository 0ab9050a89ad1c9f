/**
 * The pure transitions of a navigation session: a fix moves the tracking
 * forward and yields events; a re-plan swaps the route; cancel and expiry end
 * it. No I/O and no clock of its own (times come in), so the actor decides
 * when to persist and the tests drive it directly.
 */
import { initialBearingDegrees, haversineMeters } from '../../solvers/graph/geodesy.js';
import { RouteLine } from '../../solvers/navigation/route-line.js';
import { initialTrackerState, trackFix, type Progress, type TrackerEvent } from '../../solvers/navigation/progress-tracker.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import { roundTo } from '../../shared/rounding.js';
import { SESSION_IDLE_TTL_MS } from './session-model.js';
import type { AcceptedFix, NavigationEventType, SessionOwner, SessionPlan, SessionProgress, SessionRecord, SessionTracking } from '../../domain/navigation-session.js';

/** An event before the session numbers and timestamps it. */
export interface RawEvent {
  type: NavigationEventType;
  data: Record<string, unknown>;
}

/** Fixes closer together than this say nothing reliable about the direction of travel (m). */
const HEADING_FROM_MOVE_METERS = 5;

export function newTracking(): SessionTracking {
  return { tracker: initialTrackerState(), fixCount: 0, lastFix: null, progress: null, reroutes: 0, recentCommands: [] };
}

/** A session as it is created: active on its first route, no fix and no event yet, idle expiry from `nowMs`. */
export function newSessionRecord(session: { id: string; owner: SessionOwner; plan: SessionPlan; route: NavigationRoute; webhookUrl: string | null; nowMs: number }): SessionRecord {
  const at = new Date(session.nowMs).toISOString();
  return {
    id: session.id,
    owner: session.owner,
    status: 'active',
    plan: session.plan,
    route: session.route,
    tracking: newTracking(),
    eventSeq: 0,
    events: [],
    webhookUrl: session.webhookUrl,
    revision: 1,
    createdAt: at,
    updatedAt: at,
    expiresAtMs: session.nowMs + SESSION_IDLE_TTL_MS,
  };
}

/** The measured line the tracker follows; built once per route. */
export function routeLineOf(route: NavigationRoute): RouteLine {
  const line = RouteLine.fromShape(route.shape, {
    maneuvers: route.maneuvers.map((maneuver) => ({ cumulativeMeters: maneuver.cumulativeMeters, timeSeconds: maneuver.timeSeconds })),
    baseSeconds: route.etaSeconds,
    totalMeters: route.distanceMeters > 0 ? route.distanceMeters : undefined,
  });
  if (line) return line;
  // origin and destination snapped to the same point: a route of no length, still trackable
  const [lat, lng] = [route.maneuvers[0]?.lat ?? 0, route.maneuvers[0]?.lng ?? 0];
  return RouteLine.fromPoints([
    [lat, lng],
    [lat + 1e-6, lng],
  ])!;
}

/** Whether `fix` is not newer than the last accepted one by device time (a resent or late fix). */
export function isStaleFix(tracking: SessionTracking, fix: AcceptedFix): boolean {
  const last = tracking.lastFix?.capturedAt;
  return last !== undefined && fix.capturedAt !== undefined && Date.parse(fix.capturedAt) <= Date.parse(last);
}

function describeEvent(event: TrackerEvent, route: NavigationRoute, fix: AcceptedFix, plan: SessionPlan): RawEvent {
  switch (event.type) {
    case 'maneuver_approaching': {
      const maneuver = route.maneuvers[event.data.maneuverIndex];
      return {
        type: event.type,
        data: { ...event.data, type: maneuver?.type ?? null, instruction: maneuver?.instruction ?? '', verbalAlert: maneuver?.verbalAlert ?? '', streetNames: maneuver?.streetNames ?? [] },
      };
    }
    case 'maneuver_completed':
      return { type: event.type, data: { maneuverIndex: event.data.maneuverIndex, instruction: route.maneuvers[event.data.maneuverIndex]?.instruction ?? '' } };
    case 'off_route':
      return { type: event.type, data: { distanceToRouteMeters: event.data.distanceToRouteMeters, lat: fix.lat, lng: fix.lng } };
    case 'arrived':
      return {
        type: event.type,
        data: {
          distanceToDestinationMeters: event.data.distanceToDestinationMeters,
          lat: fix.lat,
          lng: fix.lng,
          arrivalPoint: plan.arrivalPoint,
          ...(plan.destination.name ? { name: plan.destination.name } : {}),
          instruction: route.maneuvers[route.maneuvers.length - 1]?.instruction ?? '',
        },
      };
  }
}

export function sessionProgressOf(progress: Progress, route: NavigationRoute): SessionProgress {
  const next = progress.nextManeuverIndex === null ? undefined : route.maneuvers[progress.nextManeuverIndex];
  return {
    offRoute: progress.offRoute,
    arrived: progress.arrived,
    shapeIndex: progress.shapeIndex,
    maneuverIndex: progress.maneuverIndex,
    snapped: progress.snapped,
    distanceToRouteMeters: progress.distanceToRouteMeters,
    distanceRemainingMeters: progress.distanceRemainingMeters,
    durationRemainingSeconds: progress.durationRemainingSeconds,
    distanceToNextManeuverMeters: progress.distanceToNextManeuverMeters,
    nextManeuver: next
      ? { index: next.index, type: next.type, instruction: next.instruction, verbalAlert: next.verbalAlert, cumulativeMeters: next.cumulativeMeters, lat: next.lat, lng: next.lng }
      : null,
    progressFraction: progress.progressFraction,
  };
}

export interface FixStep {
  tracking: SessionTracking;
  events: RawEvent[];
  arrived: boolean;
  /** The fix took the traveller off the route: re-plan now. */
  leftRoute: boolean;
}

/** One accepted fix against the current route. */
export function applyFix(tracking: SessionTracking, line: RouteLine, route: NavigationRoute, plan: SessionPlan, fix: AcceptedFix): FixStep {
  const { state, progress, events } = trackFix(line, tracking.tracker, fix, {
    corridorMeters: plan.corridorMeters,
    arrivalRadiusMeters: plan.arrivalRadiusMeters,
    destination: plan.arrivalPoint,
  });
  return {
    tracking: { ...tracking, tracker: state, fixCount: tracking.fixCount + 1, lastFix: fix, progress: sessionProgressOf(progress, route) },
    events: events.map((event) => describeEvent(event, route, fix, plan)),
    arrived: state.arrived,
    leftRoute: events.some((event) => event.type === 'off_route'),
  };
}

/** The direction of travel at the last fix: its own heading, else the bearing from the fix before. */
export function travelHeading(fix: AcceptedFix, previous: AcceptedFix | null): number | undefined {
  if (fix.heading !== undefined) return fix.heading;
  if (!previous || haversineMeters(previous.lat, previous.lng, fix.lat, fix.lng) < HEADING_FROM_MOVE_METERS) return undefined;
  return roundTo(initialBearingDegrees(previous.lat, previous.lng, fix.lat, fix.lng), 1);
}

/** The route replaced by a re-plan from the current position: tracking starts over on it. */
export function applyReroute(tracking: SessionTracking, route: NavigationRoute): { tracking: SessionTracking; event: RawEvent } {
  const reroutes = tracking.reroutes + 1;
  return {
    tracking: { ...tracking, tracker: initialTrackerState(), reroutes, progress: tracking.progress ? { ...tracking.progress, offRoute: false } : null },
    event: { type: 'rerouted', data: { reroutes, distanceMeters: route.distanceMeters, etaSeconds: route.etaSeconds } },
  };
}
