/**
 * The stream frames, typed by hand: the OpenAPI document describes each WebSocket in prose only
 * (server side: src/edge/ws/stream-protocol.ts and fleet-stream-protocol.ts, docs/navigation.md,
 * docs/optimization.md). The records inside them are the server's own domain types (src/domain/, plain
 * JSON-safe types, and the session, fleet event and error types of the actors and the edge; imported as types
 * only, so nothing of the server reaches a bundle) so they cannot drift.
 */
import type { NavigationRoute, NavigationManeuver } from '../../../src/domain/navigation-route.js';
import type { LatLng, NavigationEvent, NavigationEventType, SessionProgress, SessionStatus } from '../../../src/domain/navigation-session.js';
import type { FleetPlan, FleetPlanRoute, FleetStop, FleetVehicle } from '../../../src/domain/fleet.js';
import type { SessionSnapshot } from '../../../src/actors/navigation-session/session-protocol.js';
import type { FleetEvent, FleetView } from '../../../src/actors/fleet/fleet-protocol.js';
import type { PlanDiff } from '../../../src/actors/fleet/fleet-model.js';
import type { ErrorBody } from '../../../src/edge/error-response.js';

export type { FleetPlan, FleetStop, FleetVehicle, LatLng, NavigationEvent, NavigationEventType, NavigationManeuver, NavigationRoute, SessionStatus };
export type FleetRoute = FleetPlanRoute;
/** The `progress` of a fix (PATCH answer, progress frames). */
export type NavigationProgress = SessionProgress;
/** The session as GET /navigation/sessions/{id} answers it and the stream's ready frame carries it. */
export type NavigationSession = SessionSnapshot;
/** The common error body of the API (docs/errors.md), as error frames carry it. */
export type ApiErrorBody = ErrorBody;

/** One position of the traveller; `capturedAt` (ISO time) lets the server skip a resent fix. */
export interface NavigationFix extends LatLng {
  speed?: number;
  heading?: number;
  accuracy?: number;
  capturedAt?: string;
}

export type NavigationFrame =
  | { type: 'ready'; session: NavigationSession; resumedFrom: number }
  | { type: 'event'; event: NavigationEvent }
  | ({ type: 'progress'; fixSeq: number; sessionId: string; status: SessionStatus; maneuverIndex: number; eventSeq: number; etaSeconds: number; distanceRemainingMeters: number; durationRemainingSeconds: number; progress: NavigationProgress | null })
  | { type: 'route'; sessionId: string; reroutes: number; route: NavigationRoute }
  | { type: 'status'; sessionId: string; status: Exclude<SessionStatus, 'active'>; eventSeq: number }
  | { type: 'ack'; id: string; accepted: number; eventSeq: number; status: string }
  | { type: 'pong'; id?: string }
  | { type: 'gap'; fromSeq: number; toSeq: number }
  | ({ type: 'error'; id?: string } & ApiErrorBody);

/** The fleet as GET /optimize/fleets/{fleetId} answers it and the stream's ready frame carries it. */
export type Fleet = FleetView;
export type FleetPlanDiff = PlanDiff;

export type FleetFrame =
  | { type: 'ready'; fleetId: string; resumedFrom: number; fleet: Fleet }
  | { type: 'plan'; fleetId: string; planVersion: number; previousPlanVersion: number; plan: FleetPlan; diff: FleetPlanDiff | null; resync?: boolean }
  | { type: 'ack'; id?: string; changeSeq: number; planVersion: number; replanning: boolean }
  | { type: 'pong'; id?: string }
  | ({ type: 'error'; id?: string } & ApiErrorBody);

/** A fleet event, as the stream and POST …/events take it. */
export type FleetEventMessage = FleetEvent;
export type NewFleetStop = Extract<FleetEvent, { type: 'add_stops' }>['stops'][number];
