/** Geofences (issue #28; docs/geofences.md): repository, webhooks over the shared dispatcher, route table. */
import type { Backends } from './backends.js';
import type { RouteDefinition } from '../edge/route.js';
import { geofenceRoutes } from '../edge/routes/geofences.js';
import { Geofences } from '../services/geofences/geofence-service.js';
import { createGeofenceWebhooks } from '../services/geofences/geofence-webhooks.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { ApiKeyRepository } from '../store/pg/api-keys.js';
import { GeofenceRepository } from '../store/pg/geofences.js';
import { ProjectRepository } from '../store/pg/projects.js';

export interface GeofencesWiring {
  routes: RouteDefinition[];
  stop(): Promise<void>;
}

export async function wireGeofences(config: Config, backends: Backends, logger: Logger): Promise<GeofencesWiring> {
  const repository = new GeofenceRepository(backends.sql);
  const webhooks = await createGeofenceWebhooks(backends.sql, repository, config, logger.child({ component: 'geofence-webhooks' }));
  const apiKeys = new ApiKeyRepository(backends.sql);
  const projects = new ProjectRepository(backends.sql);
  const geofences = new Geofences(repository, {
    projectOfKey: async (keyId) => (await apiKeys.findById(keyId))?.projectId,
    ownsProject: async (userId, projectId) => (await projects.find(userId, projectId)) !== null,
  }, webhooks);
  return { routes: geofenceRoutes(geofences), stop: () => webhooks.close() };
}
