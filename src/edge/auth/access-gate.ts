import { ApiError } from '../../shared/errors.js';
import type { EndpointAccess } from '../../services/access/endpoint-access.js';
import { clientAddress, type AddressSet } from '../../services/access/ip-address.js';
import type { KeyDirectory, KeyGrant } from '../../services/access/key-directory.js';
import { requestSite } from '../../services/access/referrer-matcher.js';
import { decide, planCounters, type LimitRequest } from '../../services/limits/request-limits.js';
import type { CounterStore } from '../../store/counters/counter-store.js';
import type { GuardContext, RequestGuard } from '../request-pipeline.js';
import type { RouteDefinition } from '../route.js';
import { bearerTokenOf } from './bearer-guard.js';

export interface AccessGateDeps {
  keys: Pick<KeyDirectory, 'resolve' | 'resolveById'>;
  counters: Pick<CounterStore, 'incrementWindows'>;
  trustedProxies: AddressSet;
  /** The endpoint's row of the access table (tighter throttles), by method and path. */
  endpointOf(method: string, path: string): EndpointAccess | undefined;
  /** Called for every keyed request that passed the gate (usage, lastUsedAt). */
  onKeyUsed?(keyId: string, route: RouteDefinition, context: GuardContext): void;
  now?: () => number;
}

/** The key presented by header, or by `api_key` / `apiKey` for URLs a browser fetches without headers. */
export function presentedKeyOf(headers: Readonly<Record<string, string>>, query: Readonly<Record<string, string | string[]>>): string | undefined {
  const candidate = headers['x-api-key'] ?? query.api_key ?? query.apiKey;
  return Array.isArray(candidate) ? candidate[0] : candidate;
}

function assertKeyAllowed(key: KeyGrant, route: RouteDefinition, context: GuardContext, clientIp: string): void {
  if (!key.active) throw new ApiError('FORBIDDEN', { message: 'API key is inactive', details: { reason: 'key_inactive' } });
  const missing = (route.scopes ?? []).filter((scope) => key.scopes[scope] !== true);
  if (missing.length > 0) {
    throw new ApiError('FORBIDDEN', { message: `API key lacks the scope${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, details: { missingScopes: missing } });
  }
  if (!key.referrers.allows(requestSite(context.headers.origin, context.headers.referer))) {
    throw new ApiError('KEY_WEBSITE_NOT_ALLOWED', { message: 'This API key is not allowed from this website' });
  }
  if (key.ips.size > 0 && !key.ips.has(clientIp)) {
    throw new ApiError('KEY_IP_NOT_ALLOWED', { message: 'This API key is not allowed from this address' });
  }
}

/**
 * The gate in front of every endpoint (spec part 1 §5, §8): a presented key is
 * always held to its scopes, restrictions and quotas (never falling back to
 * anonymous); every caller meets the per-endpoint throttle. All counters of a
 * request move in one atomic round trip, and refused requests count too.
 */
export function createAccessGate(deps: AccessGateDeps): RequestGuard {
  const now = deps.now ?? Date.now;
  let lastOutageLogMs = 0;
  const throttleOnly = async (route: RouteDefinition, context: GuardContext, clientIp: string) => {
    const request: LimitRequest = { nowMs: now(), clientIp, endpoint: `${route.method} ${route.path}`, scoped: false, scope: undefined, key: undefined };
    const planned = planCounters(request);
    const counts = await deps.counters.incrementWindows(planned.map((counter) => counter.hit)).catch(() => undefined);
    if (!counts) return;
    const decision = decide(request, planned, counts);
    for (const [name, value] of Object.entries(decision.headers)) context.setHeader(name, value);
    if (decision.refusal) throw decision.refusal;
  };
  return async (route: RouteDefinition, context: GuardContext) => {
    // Operations endpoints (/health, /ready, /metrics, /docs) sit outside the API and its limits.
    if (route.mount === 'root') return;
    const clientIp = clientAddress(context.remoteAddress, context.headers['x-forwarded-for'], deps.trustedProxies);
    context.clientAddress = clientIp;
    const presented = presentedKeyOf(context.headers, context.rawQuery);
    let key: KeyGrant | undefined;
    if (context.actAsKeyId !== undefined) {
      // A sandbox request: the same checks, for a key the portal found to be the caller's.
      key = (await deps.keys.resolveById(context.actAsKeyId)) ?? undefined;
      if (!key) throw new ApiError('UNAUTHENTICATED', { message: 'Unknown API key' });
      assertKeyAllowed(key, route, context, clientIp);
      context.principal = { kind: 'key', keyId: key.id };
    } else if (presented !== undefined) {
      key = (await deps.keys.resolve(presented)) ?? undefined;
      if (!key) {
        // Guessed keys still meet the throttle, so a flood of them is cut off like any other flood.
        await throttleOnly(route, context, clientIp);
        throw new ApiError('UNAUTHENTICATED', { message: 'Unknown API key' });
      }
      assertKeyAllowed(key, route, context, clientIp);
      context.principal = { kind: 'key', keyId: key.id };
    } else if (route.access === 'key-or-bearer' && !bearerTokenOf(context.headers)) {
      throw new ApiError('UNAUTHENTICATED', { message: 'An API key or a bearer token is required' });
    }

    const scopes = route.scopes ?? [];
    const row = deps.endpointOf(route.method, route.path);
    const request: LimitRequest = {
      nowMs: now(),
      clientIp,
      endpoint: `${route.method} ${route.path}`,
      scoped: scopes.length > 0,
      scope: scopes[0],
      ...(row?.throttlePerMinute !== undefined ? { throttlePerMinute: row.throttlePerMinute } : {}),
      // POST /search/events is the one tighter limit the spec lifts for unlimited keys.
      throttleLiftedForUnlimited: route.method === 'POST' && route.path === '/search/events',
      neverThrottled: row?.neverThrottled === true,
      key,
    };
    const planned = planCounters(request);
    let counts: number[];
    try {
      counts = planned.length ? await deps.counters.incrementWindows(planned.map((counter) => counter.hit)) : [];
    } catch (error) {
      // Fail open: a counter-store outage must not take the whole API down. Keys, scopes and
      // restrictions were still checked; only counting is skipped (and /ready reports the outage).
      const nowMs = now();
      if (nowMs - lastOutageLogMs > 10_000) {
        lastOutageLogMs = nowMs;
        context.log.error({ err: (error as Error).message }, 'counter store unavailable: limits not enforced');
      }
      if (key) deps.onKeyUsed?.(key.id, route, context);
      return;
    }
    const decision = decide(request, planned, counts);
    for (const [name, value] of Object.entries(decision.headers)) context.setHeader(name, value);
    // Refused requests count against quotas (rule 2) and show in usage too.
    if (key) deps.onKeyUsed?.(key.id, route, context);
    if (decision.refusal) throw decision.refusal;
  };
}
