/**
 * A live fleet as its actor holds it and the store persists it: the
 * definition (vehicles, stops and what happened to them) and the current plan.
 * Plain JSON-safe data: the durable row is these fields, and the bus carries
 * them between processes. Designed here (spec part 3 shows no fleet records);
 * docs/optimization.md, "Live fleets".
 */
import type { FleetCosting } from './costing.js';
import type { SessionOwner } from './navigation-session.js';

/** Only the key or user that created the fleet may use it. */
export type FleetOwner = SessionOwner;

export interface LatLng {
  lat: number;
  lng: number;
}

export interface FleetVehicle {
  id: string;
  /** Where the vehicle starts its day (the depot). */
  start: LatLng;
  /** Where it must end (back at the depot); null: the route ends at its last stop. */
  end: LatLng | null;
  /** Load it carries; null: unlimited. */
  capacity: number | null;
  /** The last reported position (or the last stop it completed); plans start from here. */
  position: (LatLng & { at: string }) | null;
}

export type StopStatus = 'pending' | 'completed' | 'cancelled';

export interface FleetStop extends LatLng {
  id: string;
  demand: number;
  serviceSeconds: number;
  status: StopStatus;
  addedAt: string;
  /** Completed stops: by whom and when. They are locked: no plan moves them again. */
  completedBy?: string;
  completedAt?: string;
}

export interface FleetDefinition {
  name: string | null;
  costing: FleetCosting;
  vehicles: FleetVehicle[];
  stops: FleetStop[];
}

export interface FleetPlanRoute {
  vehicleId: string;
  /** Stops this vehicle completed, in the order it completed them (locked). */
  completedStopIds: string[];
  /** Pending stops in visiting order. */
  stopIds: string[];
  /** Seconds from the plan's computation until service starts at each of `stopIds`. */
  arrivalSeconds: number[];
  durationSeconds: number;
  distanceMeters: number;
}

export interface FleetPlanReason {
  code: string;
  stopIds: string[];
  message: string;
}

export interface FleetPlan {
  /** Monotonic per fleet: every new plan has the next version. */
  planVersion: number;
  computedAt: string;
  /** The plan includes every change up to this change number. */
  changeSeq: number;
  feasible: boolean;
  /** One entry per vehicle, in the fleet's vehicle order. */
  routes: FleetPlanRoute[];
  /** Pending stops no vehicle can serve (listed in `reasons`). */
  unassignedStopIds: string[];
  reasons?: FleetPlanReason[];
  objective: { totalDurationSeconds: number; totalDistanceMeters: number; vehiclesUsed: number };
}

export interface FleetRecord {
  id: string;
  owner: FleetOwner;
  definition: FleetDefinition;
  /** null until the first plan is computed. */
  plan: FleetPlan | null;
  /** Changes applied so far (stops added, cancelled, completed; positions do not count). */
  changeSeq: number;
  /** Write fence: a process writes only the revision it read. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}
