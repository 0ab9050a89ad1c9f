/** What the planner routes around, gathered from incidents, acknowledged feedback and road edits. */
import type { Principal } from '../../domain/principal.js';
import type { FeedbackService } from '../feedback/feedback-service.js';
import type { PlanConstraintSource } from '../routing/plan-constraints.js';
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

  disregards(principal: Principal | undefined, featureKeys: readonly string[]): Promise<string[]> {
    return this.roadEdits.disregards(principal, featureKeys);
  }
}
