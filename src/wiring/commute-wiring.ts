/**
 * Commute advice, saved commutes and their leave-now alerts, and push delivery of inbox notifications
 * (issue #28; docs/commute.md): the repositories, this process's alert scheduler and push dispatcher, and
 * the route table.
 */
import type { Backends } from './backends.js';
import type { RouteDefinition } from '../edge/route.js';
import { commuteRoutes } from '../edge/routes/commute.js';
import { CommuteAdvisor } from '../services/commute/commute-advice.js';
import { CommuteScheduler } from '../services/commute/commute-scheduler.js';
import { SavedCommutes } from '../services/commute/saved-commutes.js';
import { PushDispatcher } from '../services/push/push-dispatcher.js';
import { pushProvidersOf } from '../services/push/push-providers.js';
import type { RoutingService } from '../services/routing/routing-service.js';
import type { TrafficService } from '../services/traffic/traffic-service.js';
import { DEFAULT_WEBHOOK_RETRY } from '../services/webhooks/webhook-retry-policy.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { CommuteRepository } from '../store/pg/commutes.js';
import { PushOutboxRepository } from '../store/pg/push-outbox.js';

export interface CommuteWiring {
  routes: RouteDefinition[];
  stop(): Promise<void>;
}

export function wireCommute(config: Config, backends: Backends, routing: RoutingService, traffic: TrafficService, logger: Logger): CommuteWiring {
  const now = () => Date.now() + config.COMMUTE_CLOCK_OFFSET_MS;
  const advisor = new CommuteAdvisor(routing, traffic, now);
  const repository = new CommuteRepository(backends.sql);
  const push = new PushDispatcher({
    outbox: new PushOutboxRepository(backends.sql),
    providers: pushProvidersOf(config),
    logger: logger.child({ component: 'push' }),
    pollMs: config.PUSH_POLL_MS,
    retry: { ...DEFAULT_WEBHOOK_RETRY, maxAttempts: 6, initialDelayMs: config.PUSH_RETRY_INITIAL_MS },
  });
  const scheduler = new CommuteScheduler({
    repository,
    advisor,
    now,
    intervalMs: config.COMMUTE_ALERT_INTERVAL_MS,
    logger: logger.child({ component: 'commute' }),
    onFired: () => push.wake(),
  });
  push.start();
  scheduler.start();
  return {
    routes: commuteRoutes(advisor, new SavedCommutes(repository, advisor)),
    stop: async () => {
      await scheduler.stop();
      await push.stop();
    },
  };
}
