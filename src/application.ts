import { readFileSync } from 'node:fs';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import { closeBackends, describeBackends, openBackends } from './backends.js';
import { EdgeServer } from './edge/server.js';
import { HttpMetrics } from './edge/metrics.js';
import { buildOpenApiDocument } from './edge/openapi.js';
import type { RouteDefinition } from './edge/route.js';
import { apiDocsRoutes } from './edge/routes/api-docs.js';
import { operationsRoutes } from './edge/routes/operations.js';
import { authRoutes } from './edge/routes/auth.js';
import { createBearerGuard } from './edge/auth/bearer-guard.js';
import { AccessTokens } from './services/accounts/access-tokens.js';
import { AccountService } from './services/accounts/account-service.js';
import { LoginThrottle } from './services/accounts/login-throttle.js';
import { loadOrCreateServerSecret } from './store/pg/server-secrets.js';
import { SessionRepository } from './store/pg/sessions.js';
import { UserRepository } from './store/pg/users.js';
import { developerRoutes } from './edge/routes/developer.js';
import { DeveloperPortal } from './services/developer/developer-portal.js';
import { ApiKeyRepository } from './store/pg/api-keys.js';
import { OrganizationRepository } from './store/pg/organizations.js';
import { ProjectRepository } from './store/pg/projects.js';
import { adminRoutes } from './edge/routes/admin.js';
import { meRoutes } from './edge/routes/me.js';
import { OperatorActions } from './services/admin/operator-actions.js';
import { NotificationRepository } from './store/pg/notifications.js';
import { PushTokenRepository } from './store/pg/push-tokens.js';
import { checkReadiness } from './services/operations/readiness.js';
import { SolverPool } from './solvers/solver-pool.js';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export interface RunningApplication {
  port: number;
  /** Graceful stop: no new connections, in-flight requests finish, then pools and clients close. */
  stop(): Promise<void>;
}

/** The composition root: builds every component from the config and starts serving. */
export async function startApplication(config: Config, logger: Logger): Promise<RunningApplication> {
  const backends = await openBackends(config, logger);
  const solvers = new SolverPool({ threads: config.WORKER_THREADS });
  const metrics = new HttpMetrics();
  const users = new UserRepository(backends.sql);
  const accounts = new AccountService(
    users,
    new SessionRepository(backends.sql),
    new AccessTokens(config.JWT_SECRET ?? (await loadOrCreateServerSecret(backends.sql, 'access-token-hs256'))),
    new LoginThrottle(backends.counters),
  );
  const apiKeys = new ApiKeyRepository(backends.sql);
  const notifications = new NotificationRepository(backends.sql);
  const portal = new DeveloperPortal(
    {
      users,
      organizations: new OrganizationRepository(backends.sql),
      projects: new ProjectRepository(backends.sql),
      apiKeys,
    },
    backends.counters,
  );

  const readiness = () =>
    checkReadiness(
      [
        { name: 'sql', check: () => backends.sql.ping() },
        { name: 'counters', check: () => backends.counters.ping() },
        { name: 'bus', check: () => backends.bus.ping() },
        { name: 'workers', check: () => solvers.run('describeSharedData', undefined) },
      ],
      config.READY_TIMEOUT_MS,
    );

  const routes: RouteDefinition[] = [];
  let openApi: unknown;
  const document = () =>
    (openApi ??= buildOpenApiDocument(routes, {
      title: 'Location Platform API',
      version: packageJson.version,
      description:
        'Place search, Arabic-aware geocoding, Plus Codes, routing, navigation, optimization and tiles for the Middle East. Map data © OpenStreetMap contributors (ODbL).',
    }));
  routes.push(
    ...operationsRoutes({ readiness, metrics, backends: describeBackends(backends), version: packageJson.version }),
    ...apiDocsRoutes(document),
    ...authRoutes(accounts),
    ...developerRoutes(portal),
    ...meRoutes({ notifications, pushTokens: new PushTokenRepository(backends.sql) }),
    ...adminRoutes(new OperatorActions({ users, apiKeys, notifications })),
  );

  const server = new EdgeServer({
    host: config.HOST,
    port: config.PORT,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    logger,
    metrics,
    guards: [createBearerGuard(accounts)],
    routes,
  });
  const port = await server.listen();
  logger.info({ port, host: config.HOST, backends: describeBackends(backends), workers: solvers.threads }, 'listening');

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop: () =>
      (stopping ??= (async () => {
        const { timedOut } = await server.shutdown(config.SHUTDOWN_GRACE_MS);
        if (timedOut) logger.warn({ inFlight: server.inFlight }, 'shutdown grace period ended with requests in flight');
        await solvers.close();
        await closeBackends(backends, logger);
      })()),
  };
}
