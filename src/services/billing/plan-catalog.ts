/**
 * The plan catalogue of spec part 3 §2.9/§4.9 (GET /billing/plans; docs/billing.md). Quotas and included
 * requests come from the key plans of part 1 §2.3 (developer/catalog.ts), so a key's quota and the
 * catalogue never disagree; prices are set per currency (not converted), as integers in the currency's
 * minor unit: thousandths for JOD, hundredths for SAR and AED.
 */
import { PLAN_LIMITS, type Plan } from '../developer/catalog.js';

export const CURRENCIES = ['JOD', 'SAR', 'AED'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Minor units per major unit (spec §4.9: divide by 1000 for JOD, 100 for SAR and AED). */
export const MINOR_UNITS: Readonly<Record<Currency, number>> = { JOD: 1000, SAR: 100, AED: 100 };

export const CATALOG_PLANS = ['free', 'starter', 'growth', 'enterprise'] as const;
export type CatalogPlan = (typeof CATALOG_PLANS)[number];

interface Prices {
  monthlyPriceMinor: number;
  /** Per thousand weighted requests over the included ones; 0: overage is not billed. */
  overagePerThousandMinor: number;
}

interface PlanDefinition {
  name: string;
  tagline: string;
  /** null: a custom plan (contact sales): every price and limit is negotiated. */
  prices: Readonly<Record<Currency, Prices>> | null;
  features: readonly string[];
}

/** Prices of a plan per currency: the monthly price and the overage per thousand, each in minor units. */
function priced(monthly: Readonly<Record<Currency, number>>, overagePerThousand: Readonly<Record<Currency, number>>): Record<Currency, Prices> {
  return Object.fromEntries(
    CURRENCIES.map((currency) => [currency, { monthlyPriceMinor: monthly[currency], overagePerThousandMinor: overagePerThousand[currency] }]),
  ) as Record<Currency, Prices>;
}

const DEFINITIONS: Readonly<Record<CatalogPlan, PlanDefinition>> = {
  free: {
    name: 'Free',
    tagline: 'Prototype and personal projects',
    prices: priced({ JOD: 0, SAR: 0, AED: 0 }, { JOD: 0, SAR: 0, AED: 0 }),
    features: ['Search, geocoding, places, routing, traffic, tiles', 'Community support'],
  },
  starter: {
    name: 'Starter',
    tagline: 'Launch a production app',
    prices: priced({ JOD: 19_000, SAR: 9_900, AED: 9_900 }, { JOD: 200, SAR: 105, AED: 100 }),
    features: ['Everything in Free', 'Higher key quotas', 'E-mail support'],
  },
  growth: {
    name: 'Growth',
    tagline: 'Scale with traffic, optimization and geofencing',
    prices: priced({ JOD: 149_000, SAR: 79_900, AED: 77_900 }, { JOD: 150, SAR: 79, AED: 75 }),
    features: ['Everything in Starter', 'Route optimization and fleets', 'Priority support'],
  },
  enterprise: {
    name: 'Enterprise',
    tagline: 'Custom volumes, terms and support',
    prices: null,
    features: ['Everything in Growth', 'Custom quotas and volumes', 'Service-level agreement', 'Dedicated support'],
  },
};

export interface PlanCatalogEntry {
  key: CatalogPlan;
  name: string;
  tagline: string;
  currency: Currency;
  monthlyPriceMinor: number | null;
  includedRequests: number | null;
  overagePerThousandMinor: number | null;
  rateLimitPerMin: number | null;
  rateLimitPerDay: number | null;
  features: string[];
}

/** One catalogue entry in a currency; a custom plan has null prices and limits (spec §4.9). */
export function planEntry(key: CatalogPlan, currency: Currency): PlanCatalogEntry {
  const definition = DEFINITIONS[key];
  const prices = definition.prices?.[currency];
  const limits = PLAN_LIMITS[key];
  return {
    key,
    name: definition.name,
    tagline: definition.tagline,
    currency,
    monthlyPriceMinor: prices?.monthlyPriceMinor ?? null,
    includedRequests: prices ? limits.includedMonthlyRequests : null,
    overagePerThousandMinor: prices?.overagePerThousandMinor ?? null,
    rateLimitPerMin: prices ? limits.quotaPerMinute : null,
    rateLimitPerDay: prices ? limits.quotaPerDay : null,
    features: [...definition.features],
  };
}

export function planCatalog(currency: Currency): PlanCatalogEntry[] {
  return CATALOG_PLANS.map((key) => planEntry(key, currency));
}

/**
 * The catalogue entry that prices a key plan. `scale` (a key plan of part 1 §2.3 the catalogue does not
 * list) is sold like enterprise, by contract: custom.
 */
export function pricedPlanOf(plan: Plan): CatalogPlan {
  return plan === 'scale' ? 'enterprise' : plan;
}

/** Key plans from least to most: a project is billed on the highest plan among its keys. */
const PLAN_RANK: Readonly<Record<Plan, number>> = { free: 0, starter: 1, growth: 2, scale: 3, enterprise: 4 };

export function highestPlan(plans: readonly Plan[]): Plan {
  return plans.reduce<Plan>((best, plan) => (PLAN_RANK[plan] > PLAN_RANK[best] ? plan : best), 'free');
}
