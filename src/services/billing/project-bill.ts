/**
 * A project's month on the bill (docs/billing.md "Metering"): the weighted requests of all its keys
 * together, priced on the highest plan among its keys (a key's plan sets its quotas, part 1 §2.3; the
 * project is billed once, so a second key never adds a second allowance).
 */
import { normalizePlan, type Plan } from '../developer/catalog.js';
import { invoiceTotals, type InvoiceTotals } from './metering.js';
import { highestPlan, planEntry, pricedPlanOf, type Currency, type PlanCatalogEntry } from './plan-catalog.js';

export interface KeyMonthUsage {
  id: string;
  label: string;
  plan: string;
  raw: number;
  weighted: number;
}

export interface ProjectBill extends InvoiceTotals {
  plan: Plan;
  pricedAs: PlanCatalogEntry;
  rawRequests: number;
  /** The plan is priced by contract: amounts are null (contact sales). */
  custom: boolean;
}

export function projectBill(keys: readonly KeyMonthUsage[], currency: Currency): ProjectBill {
  const plan = highestPlan(keys.map((key) => normalizePlan(key.plan) ?? 'free'));
  const pricedAs = planEntry(pricedPlanOf(plan), currency);
  const weighted = keys.reduce((sum, key) => sum + key.weighted, 0);
  const rawRequests = keys.reduce((sum, key) => sum + key.raw, 0);
  return { ...invoiceTotals(pricedAs, weighted), plan, pricedAs, rawRequests, custom: pricedAs.monthlyPriceMinor === null };
}
