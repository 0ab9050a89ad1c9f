/**
 * Incidents, feedback, road edits and sign disregards (spec part 3 §3, §4.1, §4.7, §4.8): the
 * repositories, the services on one clock (CLOCK_OFFSET_FILE moves it in tests), the route tables,
 * and what /routing/plan routes around.
 */
import type { Backends } from './backends.js';
import type { RouteDefinition } from '../edge/route.js';
import { feedbackRoutes } from '../edge/routes/feedback.js';
import { incidentRoutes } from '../edge/routes/incidents.js';
import { FeedbackService } from '../services/feedback/feedback-service.js';
import { CommunityConstraints } from '../services/incidents/community-constraints.js';
import { IncidentService } from '../services/incidents/incident-service.js';
import { RoadEditService } from '../services/incidents/road-edit-service.js';
import type { Config } from '../shared/config.js';
import { offsetClock } from '../shared/offset-clock.js';
import { FeedbackRepository } from '../store/pg/feedback.js';
import { IncidentRepository } from '../store/pg/incidents.js';
import { RoadEditRepository } from '../store/pg/road-edits.js';

export interface IncidentsWiring {
  routes: RouteDefinition[];
  /** What /routing/plan and navigation routes go around, and the blocking incidents near a session's route ahead. */
  constraints: CommunityConstraints;
  /** Live incidents: the map's incidents overlay reads them. */
  incidents: IncidentService;
}

export function wireIncidents(config: Config, backends: Backends): IncidentsWiring {
  const now = offsetClock(config.CLOCK_OFFSET_FILE);
  const incidents = new IncidentService(new IncidentRepository(backends.sql), now);
  const feedback = new FeedbackService(new FeedbackRepository(backends.sql), now);
  const roadEdits = new RoadEditService(new RoadEditRepository(backends.sql), now);
  const constraints = new CommunityConstraints(incidents, feedback, roadEdits);
  return { routes: [...incidentRoutes(incidents), ...feedbackRoutes(feedback, roadEdits)], constraints, incidents };
}
