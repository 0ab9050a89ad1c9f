/** What the planner routes around, gathered from incidents, acknowledged feedback and road edits. */
import type { Principal } from '../../domain/principal.js';
import type { FeedbackService } from '../feedback/feedback-service.js';
import { POINT_CORRIDOR_METERS, type PlanConstraintSource } from '../routing/plan-constraints.js';
import { corridorOf, nearCorridor, type LatLng } from '../routing/corridor.js';
import type { IncidentService } from './incident-service.js';
import type { RoadEditService } from './road-edit-service.js';

export class CommunityConstraints implements PlanConstraintSource {
  constructor(
    private readonly incidents: IncidentService,
    private readonly feedback: FeedbackService,
    private readonly roadEdits: RoadEditService,
  ) {}

  async candidates(box: { west: number; south: number; east: number; north: number }, want: { incidents: boolean; reported: boolean }) {
    const [incidents, reported, roadEdits] = await Promise.all([
      want.incidents ? this.incidents.blockingIn(box) : Promise.resolve([]),
      want.reported ? this.feedback.avoidances(box) : Promise.resolve([]),
      this.roadEdits.active(),
    ]);
    return {
      incidents: incidents.map(({ id, incidentType, lat, lng, confidence }) => ({ id, incidentType, lat, lng, confidence })),
      reported,
      roadEdits: roadEdits.map(({ id, kind, reason, featureKey, geometry }) => ({ id, kind, reason, featureKey, geometry })),
    };
  }

  /** A live road-blocking incident within 30 m of a line of points (a session's route ahead), other than `known`. */
  async blockingIncidentNear(points: readonly { lat: number; lng: number }[], known: ReadonlySet<string>) {
    const corridor = corridorOf(points.map((point) => [point.lat, point.lng] as LatLng));
    const margin = 0.001;
    const box = { west: corridor.west - margin, south: corridor.south - margin, east: corridor.east + margin, north: corridor.north + margin };
    const found = (await this.incidents.recentBlockingIn(box)).find((incident) => !known.has(incident.id) && nearCorridor(corridor, incident.lat, incident.lng, POINT_CORRIDOR_METERS));
    return found ? { id: found.id, incidentType: found.incidentType, lat: found.lat, lng: found.lng } : undefined;
  }

  disregards(principal: Principal | undefined, featureKeys: readonly string[]): Promise<string[]> {
    return this.roadEdits.disregards(principal, featureKeys);
  }
}
