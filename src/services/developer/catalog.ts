/**
 * The scope and plan catalogs of spec part 1 §2.2 and §2.3: the single source
 * for key defaults, the portal's catalog endpoints and the access gate.
 */
export const SCOPES = [
  { scope: 'search', label: 'Search', description: 'Place and text search', default: true },
  { scope: 'geocode', label: 'Geocoding', description: 'Forward, reverse and batch geocoding', default: true },
  {
    scope: 'places',
    label: 'Places',
    description: 'Place details, hours, photos, reviews, categories, quests, holidays, feedback, transit stops/routes/stations, EV stations, assistant',
    default: true,
  },
  { scope: 'routing', label: 'Routing', description: 'Routing, matrix, isochrone, commute, itinerary, navigation', default: true },
  { scope: 'traffic', label: 'Traffic', description: 'Traffic and incidents', default: true },
  { scope: 'telemetry', label: 'Telemetry', description: 'Telemetry ingestion', default: true },
  { scope: 'tiles', label: 'Tiles', description: 'Map tiles and map data, offline regions, traffic model', default: true },
  { scope: 'imagery', label: 'Imagery', description: 'Street-level imagery', default: true },
  { scope: 'geo', label: 'Geo', description: 'Geofencing, addressing, Plus Codes (opt-in)', default: false },
  { scope: 'insights', label: 'Insights', description: 'Privacy-safe aggregates (opt-in)', default: false },
  { scope: 'optimize', label: 'Optimization', description: 'Route optimization (opt-in)', default: false },
] as const;

export type Scope = (typeof SCOPES)[number]['scope'];
export const SCOPE_NAMES = SCOPES.map((entry) => entry.scope) as readonly Scope[];

export function defaultScopes(): Record<Scope, boolean> {
  return Object.fromEntries(SCOPES.map((entry) => [entry.scope, entry.default])) as Record<Scope, boolean>;
}

export const PLANS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Per plan: key quota defaults (§2.3) and the requests included each month (weighted, see docs/developer-portal.md). */
export const PLAN_LIMITS: Readonly<Record<Plan, { quotaPerMinute: number; quotaPerDay: number; includedMonthlyRequests: number }>> = {
  free: { quotaPerMinute: 60, quotaPerDay: 5_000, includedMonthlyRequests: 100_000 },
  starter: { quotaPerMinute: 255, quotaPerDay: 100_000, includedMonthlyRequests: 2_000_000 },
  growth: { quotaPerMinute: 255, quotaPerDay: 1_000_000, includedMonthlyRequests: 20_000_000 },
  scale: { quotaPerMinute: 255, quotaPerDay: 8_000_000, includedMonthlyRequests: 150_000_000 },
  enterprise: { quotaPerMinute: 255, quotaPerDay: 10_000_000, includedMonthlyRequests: 250_000_000 },
};

/** The legacy plan name `startup` is accepted and means `starter` (spec part 1 §9 rule 4). */
export function normalizePlan(plan: string): Plan | undefined {
  const value = plan === 'startup' ? 'starter' : plan;
  return (PLANS as readonly string[]).includes(value) ? (value as Plan) : undefined;
}

/** Self-serve caps (§8 rule 5); operators may go beyond them. */
export const SELF_SERVE_MAX_PER_MINUTE = 255;
export const SELF_SERVE_MAX_PER_DAY = 10_000_000;

/** Per-IP and throttle defaults of §8, shown in the overview. */
export const LIMIT_DEFAULTS = {
  perIpPerMinute: 90,
  perIpPerDay: 30_000,
  requestThrottlePerMinute: 3_000,
  restrictionEntriesPerList: 50,
} as const;
