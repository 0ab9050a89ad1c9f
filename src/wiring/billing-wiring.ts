/**
 * Wiring of plans, metering, entitlements and the payment webhook (spec part 3 §4.9; docs/billing.md),
 * and of promoted placements (§4.10; docs/ads.md), which need the place catalogue and so are wired later.
 */
import type { Principal } from '../domain/principal.js';
import type { RouteDefinition } from '../edge/route.js';
import { adsRoutes } from '../edge/routes/ads.js';
import { billingRoutes } from '../edge/routes/billing.js';
import { PromotedPlacements } from '../services/ads/promoted-placements.js';
import { BillingService } from '../services/billing/billing-service.js';
import { EntitlementService } from '../services/billing/entitlements.js';
import { PaymentWebhook } from '../services/billing/payment-webhook.js';
import type { PlacesService } from '../services/places/places-service.js';
import { actingUserId } from '../services/user-data/acting-user.js';
import type { Config } from '../shared/config.js';
import { AdCampaignRepository } from '../store/pg/ad-campaigns.js';
import { ApiKeyRepository } from '../store/pg/api-keys.js';
import { EntitlementRepository } from '../store/pg/entitlements.js';
import { ProjectRepository } from '../store/pg/projects.js';
import type { PlaceRepository } from '../store/pg/places.js';
import type { UserRepository } from '../store/pg/users.js';
import type { Backends } from './backends.js';

export interface BillingWiring {
  entitlements: EntitlementService;
  /** The offline_maps gate of offline manifests: the acting user (bearer, or the key's owner) must hold it. */
  requireOfflineMaps(principal: Principal | undefined): Promise<void>;
  routes: RouteDefinition[];
}

export function wireBilling(config: Config, backends: Backends, accounts: { users: UserRepository; flushUsage(): Promise<void> }): BillingWiring {
  const { sql } = backends;
  const entitlementRepository = new EntitlementRepository(sql);
  const entitlements = new EntitlementService(entitlementRepository);
  const billing = new BillingService({
    apiKeys: new ApiKeyRepository(sql),
    projects: new ProjectRepository(sql),
    users: accounts.users,
    entitlementRepository,
    entitlements,
    flushUsage: () => accounts.flushUsage(),
  });
  const webhook = new PaymentWebhook({
    secret: config.BILLING_WEBHOOK_SECRET,
    toleranceS: config.BILLING_WEBHOOK_TOLERANCE_S,
    repository: entitlementRepository,
    users: accounts.users,
    entitlements,
  });
  return {
    entitlements,
    requireOfflineMaps: (principal) => entitlements.require(actingUserId(principal), 'offline_maps'),
    routes: billingRoutes({ billing, entitlements, webhook }),
  };
}

export interface AdsWiring {
  ads: PromotedPlacements;
  routes: RouteDefinition[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function wireAds(backends: Backends, places: Pick<PlacesService, 'find'>, placeRepository: Pick<PlaceRepository, 'findByIds'>): AdsWiring {
  // a campaign names its place by id (as search results carry it) or by slug (as operators read it in URLs)
  const placeLookup = { find: async (ref: string) => (UUID.test(ref) ? ((await placeRepository.findByIds([ref]))[0] ?? null) : places.find(ref)) };
  const ads = new PromotedPlacements(new AdCampaignRepository(backends.sql), placeLookup);
  return { ads, routes: adsRoutes(ads) };
}
