/**
 * The stream frames, typed by hand: the OpenAPI document describes each WebSocket in prose only
 * (server side: src/edge/ws/stream-protocol.ts and fleet-stream-protocol.ts, docs/navigation.md,
 * docs/optimization.md).
 */

export interface LatLng {
  lat: number;
  lng: number;
}

/** One position of the traveller; `capturedAt` (ISO time) lets the server skip a resent fix. */
export interface NavigationFix extends LatLng {
  speed?: number;
  heading?: number;
  accuracy?: number;
  capturedAt?: string;
}

export interface NavigationManeuver {
  index: number;
  type: number;
  instruction: string;
  verbalAlert?: string;
  verbalPre?: string;
  verbalPost?: string;
  streetNames?: string[];
  distanceMeters: number;
  timeSeconds: number;
  lat: number;
  lng: number;
  cumulativeMeters: number;
}

export interface NavigationRoute {
  /** polyline6 */
  shape: string;
  maneuvers: NavigationManeuver[];
  distanceMeters: number;
  etaSeconds: number;
}

export type SessionStatus = 'active' | 'arrived' | 'cancelled' | 'expired';

export interface NavigationProgress {
  offRoute: boolean;
  arrived: boolean;
  shapeIndex: number;
  maneuverIndex: number;
  snapped: LatLng;
  distanceToRouteMeters: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  distanceToNextManeuverMeters: number;
  nextManeuver: { index: number; type: number; instruction: string; verbalAlert: string; cumulativeMeters: number; lat: number; lng: number } | null;
  progressFraction: number;
}

/** The session as GET /navigation/sessions/{id} answers it (the fields the client relies on). */
export interface NavigationSession {
  sessionId: string;
  status: SessionStatus;
  costing: string;
  language: string;
  origin: LatLng;
  destination: LatLng & { name?: string | null };
  routeShape: string;
  maneuvers: NavigationManeuver[];
  distanceMeters: number;
  etaSeconds: number;
  distanceRemainingMeters: number;
  durationRemainingSeconds: number;
  maneuverIndex: number;
  eventSeq: number;
  reroutes: number;
  progress: NavigationProgress | null;
  route: NavigationRoute;
  expiresAt: string;
  [field: string]: unknown;
}

export type NavigationEventType = 'maneuver_approaching' | 'maneuver_completed' | 'off_route' | 'rerouted' | 'arrived';

export interface NavigationEvent {
  seq: number;
  type: NavigationEventType;
  at: string;
  data: Record<string, unknown>;
}

/** The common error body of the API, as an error frame carries it. */
export interface ApiErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  code: string;
  details?: Record<string, unknown>;
  requestId: string;
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

export interface FleetVehicle {
  id: string;
  start: LatLng;
  end: LatLng | null;
  capacity: number | null;
  position: (LatLng & { at: string }) | null;
}

export interface FleetStop extends LatLng {
  id: string;
  demand: number;
  serviceSeconds: number;
  status: 'pending' | 'completed' | 'cancelled';
}

export interface FleetRoute {
  vehicleId: string;
  completedStopIds: string[];
  stopIds: string[];
  arrivalSeconds: number[];
  durationSeconds: number;
  distanceMeters: number;
}

export interface FleetPlan {
  planVersion: number;
  computedAt: string;
  changeSeq: number;
  feasible: boolean;
  routes: FleetRoute[];
  unassignedStopIds: string[];
  objective: { totalDurationSeconds: number; totalDistanceMeters: number; vehiclesUsed: number };
}

export interface Fleet {
  fleetId: string;
  name?: string | null;
  costing: string;
  vehicles: FleetVehicle[];
  stops: FleetStop[];
  changeSeq: number;
  planVersion: number;
  replanning: boolean;
  plan: FleetPlan | null;
  [field: string]: unknown;
}

export interface FleetPlanDiff {
  added: string[];
  removed: string[];
  moved: { stopId: string; fromVehicleId: string; toVehicleId: string }[];
  changedVehicleIds: string[];
}

export type FleetFrame =
  | { type: 'ready'; fleetId: string; resumedFrom: number; fleet: Fleet }
  | { type: 'plan'; fleetId: string; planVersion: number; previousPlanVersion: number; plan: FleetPlan; diff: FleetPlanDiff | null; resync?: boolean }
  | { type: 'ack'; id?: string; changeSeq: number; planVersion: number; replanning: boolean }
  | { type: 'pong'; id?: string }
  | ({ type: 'error'; id?: string } & ApiErrorBody);

export type NewFleetStop = LatLng & { id?: string; demand?: number; serviceSeconds?: number };

export type FleetEventMessage =
  | { type: 'position'; vehicleId: string; lat: number; lng: number; at?: string }
  | { type: 'add_stops'; stops: NewFleetStop[] }
  | { type: 'cancel_stop'; stopId: string }
  | { type: 'complete_stop'; stopId: string; vehicleId?: string }
  | { type: 'reoptimize' };
