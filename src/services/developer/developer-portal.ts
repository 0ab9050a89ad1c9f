import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { CounterStore } from '../../store/counters/counter-store.js';
import type { ApiKeyRecord } from '../../domain/api-key.js';
import type { ApiKeyRepository, ApiKeySettings } from '../../store/pg/api-keys.js';
import type { OrganizationRecord, OrganizationRepository } from '../../store/pg/organizations.js';
import type { ProjectRecord, ProjectRepository } from '../../store/pg/projects.js';
import type { UserRepository } from '../../store/pg/users.js';
import { dayWindow, keyQuotaCounter, minuteWindow, monthPeriodStart } from '../limits/quota-windows.js';
import { generateApiKey } from './api-key-secrets.js';
import { defaultScopes, normalizePlan, PLAN_LIMITS, SELF_SERVE_MAX_PER_DAY, SELF_SERVE_MAX_PER_MINUTE, type Plan } from './catalog.js';
import { projectBill } from '../billing/project-bill.js';
import type { Currency } from '../billing/plan-catalog.js';
import { InvalidRestrictionError, normalizeList, type KeyRestrictions } from './key-restrictions.js';

export interface PortalRepositories {
  users: UserRepository;
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
}

export interface NewKeyInput {
  projectId: string;
  label: string;
  plan?: string;
  scopes?: Partial<Record<string, boolean>>;
  quotaPerMinute?: number;
  quotaPerDay?: number;
  restrictions?: Partial<KeyRestrictions> | null;
}

export interface KeyPatch {
  label?: string;
  plan?: string;
  scopes?: Partial<Record<string, boolean>>;
  quotaPerMinute?: number;
  quotaPerDay?: number;
  active?: boolean;
  restrictions?: Partial<KeyRestrictions> | null;
}

export interface WindowUsage {
  used: number;
  limit: number | null;
}

const DEVELOPER_ROLES = ['developer', 'admin', 'super_admin'];
const notFound = (what: string) => new ApiError('NOT_FOUND', { message: `${what} not found` });

/** Lower-case ASCII slug of a name; Arabic-only names fall back to `org`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'org';
}

function restrictionError(error: InvalidRestrictionError): ApiError {
  return new ApiError('VALIDATION_ERROR', { message: [error.message], details: { list: error.list, entry: error.entry } });
}

function normalizeRestrictions(current: KeyRestrictions, patch: Partial<KeyRestrictions> | null | undefined): KeyRestrictions {
  if (patch === null) return { referrers: [], ips: [] };
  if (patch === undefined) return current;
  try {
    return {
      referrers: patch.referrers === undefined ? current.referrers : normalizeList('referrers', patch.referrers),
      ips: patch.ips === undefined ? current.ips : normalizeList('ips', patch.ips),
    };
  } catch (error) {
    if (error instanceof InvalidRestrictionError) throw restrictionError(error);
    throw error;
  }
}

/** Merges scope changes over a base map (PATCH rule 1), ignoring absent entries. */
function mergeScopes(base: Record<string, boolean>, changes: Partial<Record<string, boolean>> | undefined): Record<string, boolean> {
  const merged = { ...base };
  for (const [scope, enabled] of Object.entries(changes ?? {})) if (enabled !== undefined) merged[scope] = enabled;
  return merged;
}

function planOf(value: string): Plan {
  const plan = normalizePlan(value);
  if (!plan) throw new ApiError('VALIDATION_ERROR', { message: [`plan: unknown plan "${value}"`] });
  return plan;
}

/** A changed quota must be within the self-serve cap; an unchanged one is kept even above it (PATCH rule 2). */
function patchedQuota(name: 'quotaPerMinute' | 'quotaPerDay', current: number, sent: number | undefined, fallback: number): number {
  if (sent === undefined) return fallback;
  if (sent === current) return current;
  const cap = name === 'quotaPerMinute' ? SELF_SERVE_MAX_PER_MINUTE : SELF_SERVE_MAX_PER_DAY;
  if (!Number.isInteger(sent) || sent < 1 || sent > cap) {
    throw new ApiError('VALIDATION_ERROR', { message: [`${name}: must be an integer from 1 to ${cap}`] });
  }
  return sent;
}

/** The developer portal (spec part 1 §4.1): organizations, projects and keys of the caller only. */
/** Told about every key whose grant changed or disappeared, so caches everywhere drop it. */
export type KeyChangeListener = (keyId: string) => void;

export class DeveloperPortal {
  constructor(
    private readonly repositories: PortalRepositories,
    private readonly counters: CounterStore,
    private readonly onKeyChanged: KeyChangeListener = () => {},
    private readonly now: () => number = Date.now,
    /** Writes pending usage aggregates before a monthly read, so it counts every request served so far. */
    private readonly flushUsage: () => Promise<void> = async () => {},
  ) {}

  /** Keys that a cascade is about to delete, so their caches can be dropped afterwards. */
  private async keyIdsWhere(userId: string, belongs: (key: ApiKeyRecord) => boolean): Promise<string[]> {
    return (await this.repositories.apiKeys.list(userId)).filter(belongs).map((key) => key.id);
  }

  async enroll(userId: string): Promise<string[]> {
    const roles = await this.repositories.users.addRole(userId, 'developer');
    if (!roles) throw new ApiError('UNAUTHENTICATED');
    return roles;
  }

  /** Minting and managing keys needs the developer role (or an admin role). */
  assertDeveloper(roles: readonly string[]): void {
    if (!roles.some((role) => DEVELOPER_ROLES.includes(role))) {
      throw new ApiError('FORBIDDEN', { message: 'The developer role is required: POST /developer/enroll first' });
    }
  }

  async summary(userId: string) {
    const [organizations, projects, keyCounts, keys] = await Promise.all([
      this.repositories.organizations.count(userId),
      this.repositories.projects.count(userId),
      this.repositories.apiKeys.counts(userId),
      this.repositories.apiKeys.list(userId),
    ]);
    const day = dayWindow(this.now());
    const today = await Promise.all(keys.map((key) => this.counters.readCounter(keyQuotaCounter(key.id, day))));
    return {
      organizations,
      projects,
      apiKeys: keyCounts.total,
      activeApiKeys: keyCounts.active,
      requestsToday: today.reduce((sum, count) => sum + count, 0),
    };
  }

  // Organizations

  listOrganizations(userId: string): Promise<OrganizationRecord[]> {
    return this.repositories.organizations.list(userId);
  }

  async createOrganization(userId: string, input: { name: string; slug?: string }): Promise<OrganizationRecord> {
    if (input.slug !== undefined) {
      const created = await this.repositories.organizations.create(userId, { id: randomUUID(), name: input.name, slug: input.slug });
      if (!created) throw new ApiError('VALIDATION_ERROR', { message: [`slug: you already have an organization "${input.slug}"`] });
      return created;
    }
    const base = slugify(input.name);
    for (let attempt = 1; attempt <= 50; attempt++) {
      const slug = attempt === 1 ? base : `${base}-${attempt}`;
      const created = await this.repositories.organizations.create(userId, { id: randomUUID(), name: input.name, slug });
      if (created) return created;
    }
    return this.createOrganization(userId, { name: input.name, slug: `${base}-${randomUUID().slice(0, 8)}` });
  }

  async renameOrganization(userId: string, id: string, name: string): Promise<OrganizationRecord> {
    return (await this.repositories.organizations.rename(userId, id, name)) ?? Promise.reject(notFound('Organization'));
  }

  async deleteOrganization(userId: string, id: string): Promise<void> {
    const projectIds = new Set((await this.repositories.projects.list(userId, id)).map((project) => project.id));
    const keyIds = await this.keyIdsWhere(userId, (key) => projectIds.has(key.projectId));
    if (!(await this.repositories.organizations.delete(userId, id))) throw notFound('Organization');
    keyIds.forEach(this.onKeyChanged);
  }

  // Projects

  listProjects(userId: string, organizationId?: string): Promise<ProjectRecord[]> {
    return this.repositories.projects.list(userId, organizationId);
  }

  async createProject(userId: string, input: { name: string; organizationId: string }): Promise<ProjectRecord> {
    const created = await this.repositories.projects.create(userId, { id: randomUUID(), ...input });
    if (!created) throw notFound('Organization');
    return created;
  }

  async renameProject(userId: string, id: string, name: string): Promise<ProjectRecord> {
    return (await this.repositories.projects.rename(userId, id, name)) ?? Promise.reject(notFound('Project'));
  }

  async deleteProject(userId: string, id: string): Promise<void> {
    const keyIds = await this.keyIdsWhere(userId, (key) => key.projectId === id);
    if (!(await this.repositories.projects.delete(userId, id))) throw notFound('Project');
    keyIds.forEach(this.onKeyChanged);
  }

  // Keys

  async listKeys(userId: string, projectId?: string): Promise<Array<ApiKeyRecord & { usage: { minute: WindowUsage; day: WindowUsage } }>> {
    const keys = await this.repositories.apiKeys.list(userId, projectId);
    return Promise.all(keys.map(async (key) => ({ ...key, usage: await this.liveUsage(key) })));
  }

  async createKey(userId: string, input: NewKeyInput): Promise<ApiKeyRecord & { key: string }> {
    const plan = planOf(input.plan ?? 'free');
    const secret = generateApiKey();
    const settings: ApiKeySettings = {
      label: input.label,
      plan,
      scopes: mergeScopes(defaultScopes(), input.scopes),
      quotaPerMinute: input.quotaPerMinute ?? PLAN_LIMITS[plan].quotaPerMinute,
      quotaPerDay: input.quotaPerDay ?? PLAN_LIMITS[plan].quotaPerDay,
      active: true,
      restrictions: normalizeRestrictions({ referrers: [], ips: [] }, input.restrictions ?? undefined),
    };
    const created = await this.repositories.apiKeys.create(userId, {
      id: randomUUID(),
      projectId: input.projectId,
      keyHash: secret.hash,
      lastFour: secret.lastFour,
      ...settings,
    });
    if (!created) throw notFound('Project');
    return { ...created, key: secret.plaintext };
  }

  async getKey(userId: string, id: string): Promise<ApiKeyRecord> {
    return (await this.repositories.apiKeys.find(userId, id)) ?? Promise.reject(notFound('API key'));
  }

  /** PATCH rules 1–5 of spec part 1 §4.1. */
  async updateKey(userId: string, id: string, patch: KeyPatch): Promise<ApiKeyRecord> {
    const key = await this.getKey(userId, id);
    const plan = patch.plan === undefined ? (key.plan as Plan) : planOf(patch.plan);
    const planChanged = plan !== key.plan;
    const previousDefaults = PLAN_LIMITS[key.plan as Plan] ?? PLAN_LIMITS.free;
    // A key still on its old plan's default quotas follows the plan; custom quotas are kept.
    const followPlan = (name: 'quotaPerMinute' | 'quotaPerDay') =>
      planChanged && key[name] === previousDefaults[name] ? PLAN_LIMITS[plan][name] : key[name];
    const settings: ApiKeySettings = {
      label: patch.label ?? key.label,
      plan,
      scopes: mergeScopes(key.scopes, patch.scopes),
      quotaPerMinute: key.unlimited ? key.quotaPerMinute : patchedQuota('quotaPerMinute', key.quotaPerMinute, patch.quotaPerMinute, followPlan('quotaPerMinute')),
      quotaPerDay: key.unlimited ? key.quotaPerDay : patchedQuota('quotaPerDay', key.quotaPerDay, patch.quotaPerDay, followPlan('quotaPerDay')),
      active: patch.active ?? key.active,
      restrictions: normalizeRestrictions(key.restrictions, patch.restrictions),
    };
    const updated = await this.repositories.apiKeys.update(userId, id, settings);
    if (!updated) throw notFound('API key');
    this.onKeyChanged(id);
    return updated;
  }

  async rotateKey(userId: string, id: string): Promise<ApiKeyRecord & { key: string }> {
    const secret = generateApiKey();
    const rotated = await this.repositories.apiKeys.rotate(userId, id, secret.hash, secret.lastFour);
    if (!rotated) throw notFound('API key');
    this.onKeyChanged(id);
    return { ...rotated, key: secret.plaintext };
  }

  async deleteKey(userId: string, id: string): Promise<void> {
    if (!(await this.repositories.apiKeys.delete(userId, id))) throw notFound('API key');
    this.onKeyChanged(id);
  }

  async keyUsage(userId: string, id: string) {
    const key = await this.getKey(userId, id);
    return {
      id: key.id,
      label: key.label,
      active: key.active,
      plan: key.plan,
      lastUsedAt: key.lastUsedAt,
      unlimited: key.unlimited,
      ...(await this.liveUsage(key)),
    };
  }

  /**
   * The key's month (its own weighted and raw requests against its plan's allowance) and, under `project`,
   * what its project is billed: every key of the project together (docs/billing.md "Metering").
   */
  async monthlyUsage(userId: string, id: string, currency: Currency = 'JOD') {
    const key = await this.getKey(userId, id);
    await this.flushUsage();
    const periodStart = monthPeriodStart(this.now());
    const usage = await this.repositories.apiKeys.monthlyUsage(userId, id, periodStart);
    const includedRequests = (PLAN_LIMITS[key.plan as Plan] ?? PLAN_LIMITS.free).includedMonthlyRequests;
    const bill = projectBill((await this.repositories.apiKeys.projectMonthlyUsage(userId, key.projectId, periodStart)) ?? [], currency);
    return {
      id: key.id,
      plan: key.plan,
      periodStart,
      weightedRequests: usage.weighted,
      rawRequests: usage.raw,
      includedRequests,
      overageRequests: Math.max(0, usage.weighted - includedRequests),
      project: {
        id: key.projectId,
        plan: bill.plan,
        pricedAs: bill.pricedAs.key,
        weightedRequests: bill.weightedRequests,
        rawRequests: bill.rawRequests,
        includedRequests: bill.includedRequests,
        overageRequests: bill.overageRequests,
        currency: bill.currency,
        overageMinor: bill.lines.find((line) => line.kind === 'overage')!.amountMinor,
        totalMinor: bill.totalMinor,
      },
    };
  }

  private async liveUsage(key: ApiKeyRecord): Promise<{ minute: WindowUsage; day: WindowUsage }> {
    const nowMs = this.now();
    const [minute, day] = await Promise.all([
      this.counters.readCounter(keyQuotaCounter(key.id, minuteWindow(nowMs))),
      this.counters.readCounter(keyQuotaCounter(key.id, dayWindow(nowMs))),
    ]);
    return {
      minute: { used: minute, limit: key.unlimited ? null : key.quotaPerMinute },
      day: { used: day, limit: key.unlimited ? null : key.quotaPerDay },
    };
  }
}
