/**
 * Live fleets for the edge (REST and the stream): create a fleet, read it and
 * its plan, apply dispatcher events, watch its plan frames. Every call names
 * its caller; the fleet's actor answers only its owner (403 otherwise).
 */
import { randomUUID } from 'node:crypto';
import type { FleetHost } from '../../actors/fleet/fleet-host.js';
import { checkStopBounds } from '../../actors/fleet/fleet-events.js';
import type { FleetOwner, FleetRecord } from '../../domain/fleet.js';
import type { ApplyResult, FleetEvent, FleetView, PlanFrame } from '../../actors/fleet/fleet-protocol.js';
import type { FleetCreate } from './fleet-requests.js';
import { ApiError } from '../../shared/errors.js';
import { isUuid } from '../../shared/uuid.js';
import type { Principal } from '../../domain/principal.js';

/** How long creating a fleet waits for its first plan before answering without one (ms). */
const FIRST_PLAN_WAIT_MS = 8_000;

/** The fleet's replies, events and frames, as the edge handles them. */
export type { ApplyResult, FleetEvent, FleetView, PlanFrame };

export function fleetOwnerOf(principal: Principal | undefined): FleetOwner {
  if (principal?.kind === 'key') return { kind: 'key', id: principal.keyId };
  if (principal?.kind === 'user') return { kind: 'user', id: principal.userId };
  throw new ApiError('UNAUTHENTICATED', { message: 'Live fleets need an API key or a bearer token' });
}

export class LiveFleets {
  constructor(private readonly host: FleetHost) {}

  /** Stores the fleet and answers it with its first plan (or planVersion 0 when planning takes longer). */
  async create(principal: Principal | undefined, input: FleetCreate): Promise<FleetView> {
    const owner = fleetOwnerOf(principal);
    const now = new Date().toISOString();
    const record: FleetRecord = {
      id: randomUUID(),
      owner,
      definition: {
        name: input.name ?? null,
        costing: input.costing,
        vehicles: input.vehicles.map((vehicle) => ({ id: vehicle.id, start: vehicle.start, end: vehicle.end ?? null, capacity: vehicle.capacity ?? null, position: null })),
        stops: input.stops.map((stop) => ({ id: stop.id ?? randomUUID(), lat: stop.lat, lng: stop.lng, demand: stop.demand ?? 0, serviceSeconds: stop.serviceSeconds ?? 0, status: 'pending', addedAt: now })),
      },
      plan: null,
      changeSeq: input.stops.length > 0 ? 1 : 0,
      revision: 1,
      createdAt: now,
      updatedAt: now,
    };
    checkStopBounds(record.definition);
    const fleet = await this.host.create(record, FIRST_PLAN_WAIT_MS);
    // a fleet the map cannot plan at all (a costing it lacks) is refused as such
    if (fleet.planVersion === 0 && fleet.planError) throw new ApiError(fleet.planError.code, { message: fleet.planError.message, ...(fleet.planError.details ? { details: fleet.planError.details } : {}) });
    return fleet;
  }

  async get(principal: Principal | undefined, fleetId: string): Promise<FleetView> {
    return this.host.send(checkId(fleetId), fleetOwnerOf(principal), { op: 'get' });
  }

  /** The current plan alone (what a driver app polls). */
  async plan(principal: Principal | undefined, fleetId: string) {
    const { fleetId: id, planVersion, changeSeq, replanning, plan } = await this.get(principal, fleetId);
    return { fleetId: id, planVersion, changeSeq, replanning, plan };
  }

  async apply(principal: Principal | undefined, fleetId: string, events: FleetEvent[], commandId?: string): Promise<ApplyResult> {
    return this.host.send(checkId(fleetId), fleetOwnerOf(principal), { op: 'apply', events }, commandId);
  }

  /**
   * Streams the fleet's plan frames to `listener`, from whichever process owns it, until the returned
   * function is called. Who may watch is checked by the read that starts a stream.
   */
  watch(principal: Principal | undefined, fleetId: string, listener: (frames: PlanFrame[]) => void): () => void {
    const owner = fleetOwnerOf(principal);
    return this.host.watch(checkId(fleetId), owner, listener);
  }
}

/** Fleet ids are UUIDs; anything else names no fleet (and must not reach a bus subject). */
function checkId(fleetId: string): string {
  if (!isUuid(fleetId)) throw new ApiError('NOT_FOUND', { message: 'Fleet not found', details: { fleetId } });
  return fleetId.toLowerCase();
}
