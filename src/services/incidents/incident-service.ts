/**
 * Community incidents (spec part 3 §4.7; rules designed in docs/incidents-feedback.md): a report near
 * a live one of the same type merges into it and raises its confidence; confirm and clear votes, one
 * voice per user or key; each type expires its own time after the last report or confirmation
 * (closures only when cleared). Closures and accidents block the road: routing avoids them.
 */
import { randomUUID } from 'node:crypto';
import type { IncidentType, IncidentVote } from '../../domain/incident.js';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import type { Clock } from '../../shared/offset-clock.js';
import { roundTo } from '../../shared/rounding.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import type { IncidentRecord, IncidentRepository } from '../../store/pg/incidents.js';
import { WHOLE_WORLD, boxAround, voiceOf, type LatLngBox } from './voice.js';
import { BlockingIncidentSnapshot } from './blocking-incident-snapshot.js';
import { incidentStatusAt, type IncidentStatus } from './incident-status.js';

const HOUR = 3_600_000;
/** How long an incident lives after its last report or confirmation; null = until cleared. */
export const INCIDENT_LIFETIME_MS: Record<IncidentType, number | null> = {
  jam: 1 * HOUR,
  police: 2 * HOUR,
  accident: 3 * HOUR,
  hazard: 6 * HOUR,
  camera: 30 * 24 * HOUR,
  closure: null,
};
/** Types that block the road (routing goes around them). */
export const BLOCKING_INCIDENT_TYPES: ReadonlySet<IncidentType> = new Set(['closure', 'accident']);
/** A report this close to a live incident of its type is the same incident. */
export const MERGE_RADIUS_METERS = 100;
/** At most this many incidents in one overlay answer. */
export const MAX_OVERLAY_INCIDENTS = 500;

export interface IncidentView {
  id: string;
  incidentType: IncidentType;
  lat: number;
  lng: number;
  description: string;
  blocking: boolean;
  status: IncidentStatus;
  confidence: number;
  reports: number;
  clears: number;
  reportedAt: string;
  lastConfirmedAt: string;
  expiresAt: string | null;
  clearedAt: string | null;
}

const BLOCKING_TYPES = [...BLOCKING_INCIDENT_TYPES];
/** At most this many blocking incidents in one box (routing's avoidances, a session's look ahead). */
const MAX_BLOCKING_INCIDENTS = 5_000;

export class IncidentService {
  private readonly blockingSnapshot: BlockingIncidentSnapshot;

  constructor(
    private readonly incidents: IncidentRepository,
    private readonly now: Clock,
  ) {
    this.blockingSnapshot = new BlockingIncidentSnapshot(
      {
        liveBlocking: (at, limit) => incidents.liveIn(WHOLE_WORLD, at, limit, BLOCKING_TYPES),
        liveBlockingIn: (box, at, limit) => incidents.liveIn(box, at, limit, BLOCKING_TYPES),
      },
      now,
    );
  }

  /** POST /incidents: a new incident, or a confirmation of the live one of its type within 100 m. */
  async report(principal: Principal | undefined, input: { incidentType: IncidentType; lat: number; lng: number; description?: string }): Promise<IncidentView & { merged: boolean }> {
    const voice = voiceOf(principal);
    const at = new Date(this.now());
    const expiresAt = expiryFrom(input.incidentType, at);
    const { id, merged } = await this.incidents.transaction(async (tx) => {
      await tx.lockReports();
      const nearby = (await tx.liveOfTypeIn(input.incidentType, boxAround(input.lat, input.lng, MERGE_RADIUS_METERS), at))
        .map((incident) => ({ incident, meters: haversineMeters(input.lat, input.lng, incident.lat, incident.lng) }))
        .filter(({ meters }) => meters <= MERGE_RADIUS_METERS)
        .sort((a, b) => a.meters - b.meters);
      const target = nearby[0]?.incident;
      if (target) {
        await tx.vote(target.id, voice, 'report', at);
        await tx.refresh(target.id, at, expiresAt);
        return { id: target.id, merged: true };
      }
      const created = randomUUID();
      await tx.create({ id: created, incidentType: input.incidentType, lat: input.lat, lng: input.lng, description: input.description ?? '', at, expiresAt }, voice);
      return { id: created, merged: false };
    });
    this.blockingSnapshot.invalidate();
    return { ...(await this.view(id)), merged };
  }

  /** GET /incidents/{id}: any incident, live or ended (an overlay may still hold it). */
  async view(id: string): Promise<IncidentView> {
    const record = await this.incidents.find(id);
    if (!record) throw new ApiError('NOT_FOUND', { message: 'No such incident' });
    return toView(record, this.now());
  }

  /** POST /incidents/{id}/votes: a confirmation extends the life; clears at least as many as the supporting voices end it. */
  async vote(principal: Principal | undefined, id: string, vote: IncidentVote): Promise<IncidentView> {
    const voice = voiceOf(principal);
    const at = new Date(this.now());
    await this.incidents.transaction(async (tx) => {
      const record = await tx.find(id);
      if (!record) throw new ApiError('NOT_FOUND', { message: 'No such incident' });
      const status = incidentStatusAt(record, at.getTime());
      if (status !== 'active') throw new ApiError('STATE_CONFLICT', { message: `The incident is ${status}: it takes no more votes`, details: { status } });
      await tx.vote(id, voice, vote, at);
      if (vote === 'confirm') await tx.refresh(id, at, expiryFrom(record.incidentType, at));
      const after = (await tx.find(id))!;
      if (after.clears >= Math.max(1, after.supports)) await tx.clear(id, at);
    });
    this.blockingSnapshot.invalidate();
    return this.view(id);
  }

  /** GET /incidents?bbox=: live incidents for a map overlay, newest first. */
  async live(box: LatLngBox, types?: readonly IncidentType[], limit = MAX_OVERLAY_INCIDENTS): Promise<IncidentView[]> {
    const now = this.now();
    return (await this.incidents.liveIn(box, new Date(now), limit, types)).map((record) => toView(record, now));
  }

  /** Live road-blocking incidents in a box (routing's avoidances). */
  async blockingIn(box: LatLngBox): Promise<IncidentView[]> {
    return this.live(box, BLOCKING_TYPES, MAX_BLOCKING_INCIDENTS);
  }

  /**
   * The same from a shared copy at most a second old (changes made in this process at once): for the look that
   * every navigation session takes at its route ahead every few seconds.
   */
  async recentBlockingIn(box: LatLngBox): Promise<IncidentView[]> {
    const now = this.now();
    return (await this.blockingSnapshot.within(box, MAX_BLOCKING_INCIDENTS)).map((record) => toView(record, now));
  }
}

function expiryFrom(type: IncidentType, at: Date): Date | null {
  const lifetime = INCIDENT_LIFETIME_MS[type];
  return lifetime === null ? null : new Date(at.getTime() + lifetime);
}

/** 1 − ½^reports, scaled by the share of voices that did not clear it: one report 0.5, two 0.75, three 0.88. */
export function incidentConfidence(supports: number, clears: number): number {
  if (supports === 0) return 0;
  return roundTo((1 - 0.5 ** supports) * (supports / (supports + clears)), 2);
}

function toView(record: IncidentRecord, now: number): IncidentView {
  return {
    id: record.id,
    incidentType: record.incidentType,
    lat: record.lat,
    lng: record.lng,
    description: record.description,
    blocking: BLOCKING_INCIDENT_TYPES.has(record.incidentType),
    status: incidentStatusAt(record, now),
    confidence: incidentConfidence(record.supports, record.clears),
    reports: record.supports,
    clears: record.clears,
    reportedAt: record.reportedAt,
    lastConfirmedAt: record.lastConfirmedAt,
    expiresAt: record.expiresAt,
    clearedAt: record.clearedAt,
  };
}
