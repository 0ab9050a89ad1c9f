import { z } from 'zod';
import type { DeveloperPortal } from '../../services/developer/developer-portal.js';
import { LIMIT_DEFAULTS, PLAN_LIMITS, PLANS, SCOPE_NAMES, SCOPES, SELF_SERVE_MAX_PER_DAY, SELF_SERVE_MAX_PER_MINUTE } from '../../services/developer/catalog.js';
import type { ApiKeyRecord } from '../../domain/api-key.js';
import { CURRENCIES } from '../../services/billing/plan-catalog.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RequestContext, type RouteDefinition } from '../route.js';

const id = (what: string) => z.uuid({ error: `must be a ${what} id` });
const name = z.string().trim().min(1).max(120);
const slug = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lowercase letters, digits and single dashes' });
const planName = z.enum([...PLANS, 'startup']);
const scopes = z.partialRecord(z.enum(SCOPE_NAMES as [string, ...string[]]), z.boolean());
const entries = z.array(z.string().max(300)).max(LIMIT_DEFAULTS.restrictionEntriesPerList);
const restrictions = z.object({ referrers: entries.optional(), ips: entries.optional() }).nullable();
const positive = z.number().int().min(1);

const keyView = (key: ApiKeyRecord) => ({
  id: key.id,
  projectId: key.projectId,
  label: key.label,
  lastFour: key.lastFour,
  // Catalog order, every scope named, whatever order the database returns.
  scopes: Object.fromEntries(SCOPE_NAMES.map((scope) => [scope, key.scopes[scope] ?? false])),
  plan: key.plan,
  quotaPerMinute: key.quotaPerMinute,
  quotaPerDay: key.quotaPerDay,
  unlimited: key.unlimited,
  active: key.active,
  restrictions: key.restrictions,
  createdAt: key.createdAt,
  lastUsedAt: key.lastUsedAt,
});

const route = { tags: ['developer'] };

/** The caller's user id after checking the developer role, which minting and managing keys needs (spec part 1 §5 rule 4). */
function developerId(portal: DeveloperPortal, context: Pick<RequestContext, 'principal'>): string {
  const principal = principalOf(context);
  portal.assertDeveloper(principal.roles);
  return principal.userId;
}

/** The developer portal (spec part 1 §4.1): bearer token only, the caller's own data only. */
export function developerRoutes(portal: DeveloperPortal): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/enroll',
      summary: 'Grant yourself the developer role (idempotent)',
      handler: async (context) => ({ enrolled: true, roles: await portal.enroll(principalOf(context).userId) }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/access',
      summary: 'Developer access; enrolls on first read',
      handler: async (context) => ({ developer: true, roles: await portal.enroll(principalOf(context).userId) }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/overview',
      summary: 'Catalog of products, plans and rate limits',
      handler: () => ({
        products: SCOPES.map((entry) => ({ scope: entry.scope, name: entry.label, description: entry.description })),
        plans: PLANS.map((plan) => ({ plan, ...PLAN_LIMITS[plan] })),
        limits: { ...LIMIT_DEFAULTS, selfServeMaxPerMinute: SELF_SERVE_MAX_PER_MINUTE, selfServeMaxPerDay: SELF_SERVE_MAX_PER_DAY },
      }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/scopes',
      summary: 'The eleven scopes with label, description and default',
      handler: () => ({ scopes: SCOPES }),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/summary',
      summary: 'Counts of organizations, projects, keys, active keys and requests today',
      handler: (context) => portal.summary(principalOf(context).userId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/organizations',
      summary: 'Your organizations',
      handler: async (context) => ({ items: await portal.listOrganizations(principalOf(context).userId) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/organizations',
      summary: 'Create an organization (slug generated when omitted)',
      body: z.object({ name, slug: slug.optional() }),
      handler: (context) => portal.createOrganization(principalOf(context).userId, context.body),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/developer/organizations/{id}',
      summary: 'Rename an organization',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('organization') }),
      body: z.object({ name }),
      handler: (context) => portal.renameOrganization(principalOf(context).userId, context.params.id, context.body.name),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/developer/organizations/{id}',
      summary: 'Delete an organization with its projects and keys',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('organization') }),
      handler: async (context) => {
        await portal.deleteOrganization(principalOf(context).userId, context.params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/projects',
      summary: 'Your projects, optionally of one organization',
      query: z.object({ organizationId: id('organization').optional() }),
      handler: async (context) => ({ items: await portal.listProjects(principalOf(context).userId, context.query.organizationId) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/organizations/{id}/projects',
      summary: 'Create a project in an organization',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('organization') }),
      body: z.object({ name }),
      handler: (context) =>
        portal.createProject(principalOf(context).userId, { name: context.body.name, organizationId: context.params.id }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/projects',
      summary: 'Create a project (flat form)',
      errors: ['NOT_FOUND'],
      body: z.object({ name, organizationId: id('organization') }),
      handler: (context) => portal.createProject(principalOf(context).userId, context.body),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/developer/projects/{id}',
      summary: 'Rename a project',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('project') }),
      body: z.object({ name }),
      handler: (context) => portal.renameProject(principalOf(context).userId, context.params.id, context.body.name),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/developer/projects/{id}',
      summary: 'Delete a project with its keys',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('project') }),
      handler: async (context) => {
        await portal.deleteProject(principalOf(context).userId, context.params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/api-keys',
      summary: 'Your keys with live usage (never the plaintext)',
      query: z.object({ projectId: id('project').optional() }),
      handler: async (context) => {
        const keys = await portal.listKeys(developerId(portal, context), context.query.projectId);
        return { items: keys.map((key) => ({ ...keyView(key), usage: key.usage })) };
      },
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/api-keys',
      summary: 'Create a key; the plaintext `key` is returned this once',
      description: 'Unknown body fields, including `unlimited`, are dropped.',
      errors: ['NOT_FOUND'],
      body: z.object({
        projectId: id('project'),
        label: name,
        plan: planName.optional(),
        scopes: scopes.optional(),
        quotaPerMinute: positive.max(SELF_SERVE_MAX_PER_MINUTE).optional(),
        quotaPerDay: positive.max(SELF_SERVE_MAX_PER_DAY).optional(),
        restrictions: restrictions.optional(),
      }),
      handler: async (context) => {
        const created = await portal.createKey(developerId(portal, context), context.body);
        return { ...keyView(created), key: created.key };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/api-keys/{id}/usage',
      summary: 'Minute and day (UTC) usage against the quota',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('key') }),
      handler: (context) => portal.keyUsage(developerId(portal, context), context.params.id),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/developer/api-keys/{id}/usage/monthly',
      summary: "Weighted and raw requests this month, included and overage; `project`: the key's project as billed (all its keys, its plan's prices in `currency`)",
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('key') }),
      query: z.object({ currency: z.enum(CURRENCIES).default('JOD') }),
      handler: (context) => portal.monthlyUsage(developerId(portal, context), context.params.id, context.query.currency),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/developer/api-keys/{id}',
      summary: 'Change label, plan, scopes (merged), restrictions, quotas or active',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('key') }),
      body: z.object({
        label: name.optional(),
        plan: planName.optional(),
        scopes: scopes.optional(),
        quotaPerMinute: positive.optional(),
        quotaPerDay: positive.optional(),
        active: z.boolean().optional(),
        restrictions: restrictions.optional(),
      }),
      handler: async (context) => keyView(await portal.updateKey(developerId(portal, context), context.params.id, context.body)),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/developer/api-keys/{id}/rotate',
      summary: 'Replace the secret (same id, scopes, quotas); the new plaintext is returned once',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('key') }),
      handler: async (context) => {
        const rotated = await portal.rotateKey(developerId(portal, context), context.params.id);
        return { ...keyView(rotated), key: rotated.key };
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/developer/api-keys/{id}',
      summary: 'Delete a key permanently',
      errors: ['NOT_FOUND'],
      params: z.object({ id: id('key') }),
      handler: async (context) => {
        await portal.deleteKey(developerId(portal, context), context.params.id);
        return { ok: true, deleted: true };
      },
    }),
  ];
}
