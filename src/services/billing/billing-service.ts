/**
 * Plans, invoice previews and operators' entitlement changes (spec part 3 §4.9; docs/billing.md).
 */
import { ApiError } from '../../shared/errors.js';
import type { ApiKeyRepository } from '../../store/pg/api-keys.js';
import type { EntitlementRepository } from '../../store/pg/entitlements.js';
import type { ProjectRepository } from '../../store/pg/projects.js';
import type { UserRepository } from '../../store/pg/users.js';
import { monthPeriodStart } from '../limits/quota-windows.js';
import { REQUEST_WEIGHTS } from '../limits/request-weights.js';
import type { Entitlement, EntitlementService } from './entitlements.js';
import { formatMinor } from './metering.js';
import { MINOR_UNITS, planCatalog, type Currency } from './plan-catalog.js';
import { projectBill } from './project-bill.js';

const notFound = (what: string) => new ApiError('NOT_FOUND', { message: `${what} not found` });

/** The first day of the month after the one starting `periodStart` (YYYY-MM-DD). */
function nextPeriodStart(periodStart: string): string {
  const [year, month] = periodStart.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

export class BillingService {
  constructor(
    private readonly deps: {
      apiKeys: Pick<ApiKeyRepository, 'projectMonthlyUsage'>;
      projects: Pick<ProjectRepository, 'find'>;
      users: Pick<UserRepository, 'findById'>;
      entitlementRepository: EntitlementRepository;
      entitlements: EntitlementService;
      /** Writes this process's pending usage aggregates, so a preview counts every request served so far. */
      flushUsage: () => Promise<void>;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** GET /billing/plans */
  plans(currency: Currency) {
    return { provider: 'svc-billing' as const, currency, plans: planCatalog(currency), requestWeights: { ...REQUEST_WEIGHTS } };
  }

  /** GET /developer/projects/{id}/invoice-preview: the month so far, as it would be invoiced. */
  async invoicePreview(userId: string, projectId: string, currency: Currency) {
    const project = await this.deps.projects.find(userId, projectId);
    if (!project) throw notFound('Project');
    await this.deps.flushUsage();
    const periodStart = monthPeriodStart(this.now());
    const keys = (await this.deps.apiKeys.projectMonthlyUsage(userId, projectId, periodStart)) ?? [];
    const bill = projectBill(keys, currency);
    return {
      projectId: project.id,
      projectName: project.name,
      periodStart,
      periodEnd: nextPeriodStart(periodStart),
      preview: true,
      plan: bill.plan,
      pricedAs: bill.pricedAs.key,
      custom: bill.custom,
      currency,
      minorUnitsPerMajor: MINOR_UNITS[currency],
      weightedRequests: bill.weightedRequests,
      rawRequests: bill.rawRequests,
      includedRequests: bill.includedRequests,
      overageRequests: bill.overageRequests,
      lines: bill.lines,
      totalMinor: bill.totalMinor,
      totalFormatted: bill.totalMinor === null ? null : `${formatMinor(bill.totalMinor, MINOR_UNITS[currency])} ${currency}`,
      keys: keys.map((key) => ({ id: key.id, label: key.label, plan: key.plan, weightedRequests: key.weighted, rawRequests: key.raw })),
    };
  }

  /** GET /admin/users/{id}/entitlements: the user's view plus the operator overrides. */
  async operatorView(userId: string) {
    if (!(await this.deps.users.findById(userId))) throw notFound('User');
    const [view, overrides] = await Promise.all([this.deps.entitlements.view(userId), this.deps.entitlementRepository.overrides(userId)]);
    return { userId, ...view, overrides };
  }

  /** POST /admin/users/{id}/entitlements: grant, revoke (wins over subscriptions) or clear the operator's word. */
  async operatorChange(operatorId: string, userId: string, change: { entitlement: Entitlement; action: 'grant' | 'revoke' | 'clear'; expiresAt?: string | null; reason?: string | null }) {
    if (!(await this.deps.users.findById(userId))) throw notFound('User');
    if (change.action === 'clear') {
      await this.deps.entitlementRepository.clearOverride(userId, change.entitlement);
    } else {
      const expiresAt = change.action === 'grant' && change.expiresAt ? new Date(change.expiresAt).toISOString() : null;
      if (expiresAt !== null && Date.parse(expiresAt) <= this.now()) {
        throw new ApiError('VALIDATION_ERROR', { message: ['expiresAt: must be in the future'] });
      }
      await this.deps.entitlementRepository.setOverride(userId, {
        entitlement: change.entitlement,
        state: change.action === 'grant' ? 'granted' : 'revoked',
        expiresAt,
        reason: change.reason ?? null,
        changedBy: operatorId,
      });
    }
    this.deps.entitlements.forget(userId);
    return this.operatorView(userId);
  }
}
