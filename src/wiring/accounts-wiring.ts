import type { Backends } from './backends.js';
import { createBearerGuard } from '../edge/auth/bearer-guard.js';
import type { RequestGuard } from '../edge/request-pipeline.js';
import type { RouteDefinition } from '../edge/route.js';
import { adminRoutes } from '../edge/routes/admin.js';
import { authRoutes } from '../edge/routes/auth.js';
import { developerRoutes } from '../edge/routes/developer.js';
import { historyRoutes } from '../edge/routes/history.js';
import { liveShareRoutes } from '../edge/routes/live-shares.js';
import { meRoutes } from '../edge/routes/me.js';
import { savedPlacesRoutes } from '../edge/routes/saved-places.js';
import { ItineraryRepository } from '../store/pg/itineraries.js';
import { AccessTokens } from '../services/accounts/access-tokens.js';
import { AccountData } from '../services/accounts/account-data.js';
import { AssistantTurnRepository } from '../store/pg/assistant-turns.js';
import { AccountService } from '../services/accounts/account-service.js';
import { LoginThrottle } from '../services/accounts/login-throttle.js';
import { OperatorActions } from '../services/admin/operator-actions.js';
import { DeveloperPortal } from '../services/developer/developer-portal.js';
import { LiveShares } from '../services/user-data/live-shares.js';
import { UserNotifications } from '../services/user-data/notifications.js';
import { SavedLists, SavedPlaces } from '../services/user-data/saved-places.js';
import { UserHistory } from '../services/user-data/user-history.js';
import type { Config } from '../shared/config.js';
import { ApiKeyRepository } from '../store/pg/api-keys.js';
import { HistoryRepository } from '../store/pg/history.js';
import { RoadEditRepository } from '../store/pg/road-edits.js';
import { LiveShareRepository } from '../store/pg/live-shares.js';
import { NotificationRepository } from '../store/pg/notifications.js';
import { OrganizationRepository } from '../store/pg/organizations.js';
import { ProjectRepository } from '../store/pg/projects.js';
import { PushTokenRepository } from '../store/pg/push-tokens.js';
import { SavedListRepository } from '../store/pg/saved-lists.js';
import { SavedPlaceRepository } from '../store/pg/saved-places.js';
import { loadOrCreateServerSecret } from '../store/pg/server-secrets.js';
import { SessionRepository } from '../store/pg/sessions.js';
import { UserRepository } from '../store/pg/users.js';
import { EntitlementRepository } from '../store/pg/entitlements.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import { createAccessGate } from '../edge/auth/access-gate.js';
import { AddressSet, clientAddress } from '../services/access/ip-address.js';
import { KeyDirectory } from '../services/access/key-directory.js';
import { billingWeight } from '../services/limits/request-weights.js';
import type { InProcessDispatcher } from '../edge/in-process-dispatch.js';
import { developerSandboxRoutes } from '../edge/routes/developer-sandbox.js';
import { UsageRecorder } from '../services/limits/usage-recorder.js';
import type { Logger } from '../shared/logger.js';
import { IdentityRepository } from '../store/pg/identities.js';
import { authProviderRoutes } from '../edge/routes/auth-providers.js';
import { OidcProvider } from '../services/accounts/oidc/oidc-provider.js';
import { SocialSignIn } from '../services/accounts/oidc/social-sign-in.js';
import { OidcPasswordCheck } from '../services/accounts/oidc/provider-password-check.js';
import { CaptchaVerifier } from '../services/accounts/captcha-verifier.js';

export interface AccountsWiring {
  /** In order: the access gate (keys, limits), then the bearer guard (users). */
  guards: RequestGuard[];
  routes: RouteDefinition[];
  /** The client's address behind the trusted proxies, as the access gate resolves it (stream sockets count by it). */
  clientAddressOf(peer: string, forwardedFor: string | undefined): string;
  /** Stops listening and writes the last usage aggregates. */
  stop(): Promise<void>;
  /** Writes the pending usage aggregates now (billing reads them). */
  flushUsage(): Promise<void>;
  users: UserRepository;
}

/**
 * Accounts, sessions, the developer portal, operator actions and the user's
 * own data (spec part 1): repositories, services and route tables wired together.
 */
export async function wireAccounts(
  config: Config,
  backends: Backends,
  logger: Logger,
  /** The in-process dispatcher of the finished app, for the developer sandbox (bound after start-up). */
  dispatcher: () => InProcessDispatcher,
): Promise<AccountsWiring> {
  const { sql, counters, bus } = backends;
  const users = new UserRepository(sql);
  const sessions = new SessionRepository(sql);
  const apiKeys = new ApiKeyRepository(sql);
  const notifications = new NotificationRepository(sql);
  const savedPlaces = new SavedPlaceRepository(sql);
  const savedLists = new SavedListRepository(sql);
  const history = new HistoryRepository(sql);
  const liveShares = new LiveShareRepository(sql);
  const itineraries = new ItineraryRepository(sql);

  const signingSecret = config.JWT_SECRET ?? (await loadOrCreateServerSecret(sql, 'access-token-hs256'));
  const identities = new IdentityRepository(sql);
  const loginThrottle = new LoginThrottle(counters);
  // One instance per provider: social sign-in and password checks share its discovery and keys.
  const oidcProviders = config.OIDC_PROVIDERS.map((provider) => new OidcProvider(provider));
  const captcha = captchaVerifierOf(config, logger);
  const accounts = new AccountService(users, sessions, new AccessTokens(signingSecret), loginThrottle, {
    providerPasswords: new OidcPasswordCheck(oidcProviders, identities),
    captcha,
  });
  const signIn = new SocialSignIn(oidcProviders, users, identities, accounts, counters);
  const keyDirectory = new KeyDirectory(apiKeys, bus, createSubjects(config.BUS_NAMESPACE), logger);
  keyDirectory.start();
  const keyChanged = (keyId: string) => void keyDirectory.announce({ keyId });
  const accountData = new AccountData(
    {
      users,
      sessions,
      savedPlaces,
      savedLists,
      history,
      liveShares,
      itineraries,
      apiKeys,
      signDisregards: new RoadEditRepository(sql),
      subscriptions: new EntitlementRepository(sql),
      assistantTurns: new AssistantTurnRepository(sql),
    },
    loginThrottle,
    keyChanged,
  );
  const usage = new UsageRecorder(sql, logger);
  usage.start();
  const portal = new DeveloperPortal(
    { users, organizations: new OrganizationRepository(sql), projects: new ProjectRepository(sql), apiKeys },
    counters,
    keyChanged,
    Date.now,
    () => usage.flush(),
  );
  const trustedProxies = new AddressSet(config.TRUSTED_PROXIES);
  const accessGate = createAccessGate({
    keys: keyDirectory,
    counters,
    trustedProxies,
    onKeyUsed: (keyId, route, context) => usage.record(keyId, billingWeight(route.endpoint.billing, context.rawQuery)),
  });
  return {
    clientAddressOf: (peer, forwardedFor) => clientAddress(peer, forwardedFor, trustedProxies),
    flushUsage: () => usage.flush(),
    users,
    stop: async () => {
      keyDirectory.stop();
      await usage.stop();
    },
    guards: [accessGate, createBearerGuard(accounts)],
    routes: [
      ...authRoutes(accounts, accountData),
      ...authProviderRoutes({ signIn, publicBaseUrl: config.PUBLIC_BASE_URL, captchaSiteKey: captcha?.siteKey }),
      ...developerRoutes(portal),
      ...developerSandboxRoutes(portal, dispatcher),
      ...meRoutes(new UserNotifications(notifications, new PushTokenRepository(sql))),
      ...savedPlacesRoutes(new SavedPlaces(savedPlaces), new SavedLists(savedLists)),
      ...historyRoutes(new UserHistory(history, users)),
      ...liveShareRoutes(new LiveShares(liveShares)),
      ...adminRoutes(new OperatorActions({ users, apiKeys, notifications }, (change) => keyDirectory.announce(change))),
    ],
  };
}

/** The captcha check of the sign-in form; configuration validation guarantees all three settings or none. */
function captchaVerifierOf(config: Config, logger: Logger): CaptchaVerifier | undefined {
  const { CAPTCHA_SITE_KEY: siteKey, CAPTCHA_SECRET: secret, CAPTCHA_VERIFY_URL: verifyUrl } = config;
  if (!siteKey || !secret || !verifyUrl) return undefined;
  return new CaptchaVerifier({ siteKey, secret, verifyUrl, timeoutMs: config.CAPTCHA_TIMEOUT_MS }, logger);
}
