/**
 * The monthly bill of a project, in exact integer arithmetic (docs/billing.md "Metering"). Requests are
 * counted in weighted requests (services/limits/request-weights.ts, one weight per billing class of the
 * endpoint table); the plan's included requests are free, the rest is overage billed per thousand.
 */
import type { Currency, PlanCatalogEntry } from './plan-catalog.js';

export interface OverageCharge {
  /** Weighted requests over the included ones (0 when within them); null for a custom plan. */
  overageRequests: number | null;
  /** ceil(overageRequests × overagePerThousandMinor / 1000), in minor units; null for a custom plan. */
  overageMinor: number | null;
}

/**
 * Overage in minor units: the exact product over 1000, rounded up to the next minor unit only once for
 * the whole month (a fraction of a fils or halala is never charged per request). The product is taken in
 * BigInt, so it is exact past 2^53; an amount beyond 2^53 minor units is refused, never rounded.
 */
export function overageCharge(weightedRequests: number, includedRequests: number | null, overagePerThousandMinor: number | null): OverageCharge {
  if (!Number.isSafeInteger(weightedRequests) || weightedRequests < 0) throw new RangeError('weightedRequests must be a non-negative integer');
  if (includedRequests === null || overagePerThousandMinor === null) return { overageRequests: null, overageMinor: null };
  const overageRequests = Math.max(0, weightedRequests - includedRequests);
  const numerator = BigInt(overageRequests) * BigInt(overagePerThousandMinor);
  const overageMinor = (numerator + 999n) / 1000n;
  // an amount a JSON number cannot hold exactly is refused rather than rounded
  if (overageMinor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('overage beyond exact integer range');
  return { overageRequests, overageMinor: Number(overageMinor) };
}

export interface InvoiceLine {
  kind: 'subscription' | 'overage';
  description: string;
  /** Weighted requests for overage, 1 for the subscription. */
  quantity: number;
  /** Price of the unit: the month, or one thousand weighted requests. */
  unitPriceMinor: number | null;
  amountMinor: number | null;
}

export interface InvoiceTotals {
  currency: Currency;
  includedRequests: number | null;
  weightedRequests: number;
  overageRequests: number | null;
  lines: InvoiceLine[];
  /** Sum of the lines; null when the plan is custom (priced by contract). */
  totalMinor: number | null;
}

/** The lines and total of a month on a plan, for `weightedRequests` counted so far. */
export function invoiceTotals(plan: PlanCatalogEntry, weightedRequests: number): InvoiceTotals {
  const overage = overageCharge(weightedRequests, plan.includedRequests, plan.overagePerThousandMinor);
  const lines: InvoiceLine[] = [
    { kind: 'subscription', description: `${plan.name} plan, monthly`, quantity: 1, unitPriceMinor: plan.monthlyPriceMinor, amountMinor: plan.monthlyPriceMinor },
    {
      kind: 'overage',
      description:
        plan.overagePerThousandMinor === 0 ? 'Weighted requests over the included ones (not billed on this plan)' : 'Weighted requests over the included ones, per thousand',
      quantity: overage.overageRequests ?? 0,
      unitPriceMinor: plan.overagePerThousandMinor,
      amountMinor: overage.overageMinor,
    },
  ];
  const totalMinor = plan.monthlyPriceMinor === null || overage.overageMinor === null ? null : plan.monthlyPriceMinor + overage.overageMinor;
  return { currency: plan.currency, includedRequests: plan.includedRequests, weightedRequests, overageRequests: overage.overageRequests, lines, totalMinor };
}

/** Decimal text of a minor-unit amount (19000 JOD → "19.000"), for people reading an invoice. */
export function formatMinor(amountMinor: number, unitsPerMajor: number): string {
  const digits = String(unitsPerMajor).length - 1;
  const sign = amountMinor < 0 ? '-' : '';
  const absolute = BigInt(Math.abs(amountMinor));
  const major = absolute / BigInt(unitsPerMajor);
  const minor = (absolute % BigInt(unitsPerMajor)).toString().padStart(digits, '0');
  return `${sign}${major}.${minor}`;
}
