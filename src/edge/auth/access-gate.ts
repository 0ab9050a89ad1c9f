import { ApiError } from '../../shared/errors.js';
import type { EndpointRow } from '../../services/access/endpoint-access.js';
import { ClientResolver, type AddressSet } from '../../services/access/ip-address.js';
import type { KeyDirectory, KeyGrant } from '../../services/access/key-directory.js';
import { requestSite } from '../../services/access/referrer-matcher.js';
import { decide, planCounters, ThrottleKeys, type LimitDecision, type LimitRequest } from '../../services/limits/request-limits.js';
import type { WindowCounters } from '../../services/limits/window-counters.js';
import type { GuardContext, RequestGuard } from '../request-pipeline.js';
import type { BoundRoute } from '../route.js';
import { bearerTokenOf } from './bearer-guard.js';

export interface AccessGateDeps {
  keys: Pick<KeyDirectory, 'resolve' | 'resolveById'>;
  counters: WindowCounters;
  trustedProxies: AddressSet;
  /** Called for every keyed request that passed the gate (usage, lastUsedAt); the route's row names its billing. */
  onKeyUsed?(keyId: string, route: BoundRoute, context: GuardContext): void;
  now?: () => number;
}

/** The key presented by header, or by `api_key` / `apiKey` for URLs a browser fetches without headers. */
export function presentedKeyOf(headers: Readonly<Record<string, string>>, query: Readonly<Record<string, string | string[]>>): string | undefined {
  const candidate = headers['x-api-key'] ?? query.api_key ?? query.apiKey;
  return Array.isArray(candidate) ? candidate[0] : candidate;
}

function assertKeyAllowed(key: KeyGrant, row: EndpointRow, context: GuardContext, clientIp: string): void {
  if (key.ownerDisabled) throw new ApiError('FORBIDDEN', { message: "The API key's account is disabled", details: { reason: 'account_disabled' } });
  if (key.suspended) throw new ApiError('FORBIDDEN', { message: 'API key is suspended by an operator', details: { reason: 'key_suspended' } });
  if (!key.active) throw new ApiError('FORBIDDEN', { message: 'API key is inactive', details: { reason: 'key_inactive' } });
  const missing = row.scopes.filter((scope) => key.scopes[scope] !== true);
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
  const clients = new ClientResolver(deps.trustedProxies);
  const throttleKeys = new ThrottleKeys();
  let lastOutageLogMs = 0;
  /** The throttle's endpoint name, made once per route rather than once per request (or stream message). */
  const endpointNames = new WeakMap<BoundRoute, string>();
  const endpointNameOf = (route: BoundRoute) => {
    let name = endpointNames.get(route);
    if (name === undefined) endpointNames.set(route, (name = `${route.method} ${route.path}`));
    return name;
  };

  /** The counter store is unavailable: the gate fails open (said at most every 10 s). */
  const countingFailed = (error: unknown, context: GuardContext): undefined => {
    const nowMs = now();
    if (nowMs - lastOutageLogMs > 10_000) {
      lastOutageLogMs = nowMs;
      context.log.error({ err: (error as Error).message }, 'counter store unavailable: limits not enforced');
    }
    return undefined;
  };

  /**
   * Counts one request's limits in one round trip and answers the decision, or
   * undefined when the counter store is unavailable: then the gate fails open, since a
   * counter-store outage must not take the whole API down (keys, scopes and
   * restrictions are still checked, and /ready reports the outage).
   */
  const countLimits = async (request: LimitRequest, context: GuardContext): Promise<LimitDecision | undefined> => {
    const planned = planCounters(request, throttleKeys);
    try {
      const counts = planned.length ? await deps.counters.incrementWindows(planned.map((counter) => counter.hit)) : [];
      return decide(request, planned, counts);
    } catch (error) {
      return countingFailed(error, context);
    }
  };

  /** Applies a decision: quota headers, usage, and the refusal if any. */
  const admit = (decision: LimitDecision | undefined, key: KeyGrant | undefined, route: BoundRoute, context: GuardContext): void => {
    if (decision) for (const name in decision.headers) context.setHeader(name, decision.headers[name]!);
    // Refused requests count against quotas (rule 2) and show in usage too.
    if (key) deps.onKeyUsed?.(key.id, route, context);
    if (decision?.refusal) throw decision.refusal;
  };

  /**
   * Counts and admits a request. Counters kept in this process are counted at once, and then the whole gate runs
   * without a promise (an anonymous request, the common case, never waits for anything).
   */
  const countAndAdmit = (request: LimitRequest, key: KeyGrant | undefined, route: BoundRoute, context: GuardContext): void | Promise<void> => {
    const incrementNow = deps.counters.incrementWindowsNow;
    if (!incrementNow) return countLimits(request, context).then((decision) => admit(decision, key, route, context));
    const planned = planCounters(request, throttleKeys);
    let decision: LimitDecision | undefined;
    try {
      decision = decide(request, planned, planned.length ? incrementNow.call(deps.counters, planned.map((counter) => counter.hit)) : []);
    } catch (error) {
      decision = countingFailed(error, context);
    }
    admit(decision, key, route, context);
  };

  const limitsOf = (route: BoundRoute, endpoint: string, clientIp: string, clientBucket: string | undefined, key: KeyGrant | undefined): LimitRequest => {
    const row = route.endpoint;
    // one literal of one shape (an optional member spread in made a temporary object and a slower shape per request)
    return {
      nowMs: now(),
      clientIp,
      clientBucket,
      endpoint,
      scoped: row.scopes.length > 0,
      scope: row.scopes[0],
      throttlePerMinute: row.throttlePerMinute,
      throttleLiftedForUnlimited: row.throttleLiftedForUnlimited === true,
      neverThrottled: row.neverThrottled === true,
      key,
    };
  };

  /** A request presenting a key (or run as one by the sandbox): resolved, checked, then counted. */
  const keyed = async (route: BoundRoute, context: GuardContext, endpoint: string, clientIp: string, clientBucket: string | undefined, presented: string | undefined): Promise<void> => {
    // A sandbox request names a key the portal found to be the caller's; otherwise the secret is the credential.
    const key = (context.actAsKeyId !== undefined ? await deps.keys.resolveById(context.actAsKeyId) : await deps.keys.resolve(presented!)) ?? undefined;
    if (!key) {
      // Guessed keys still meet the throttle, so a flood of them is cut off like any other flood.
      const decision = await countLimits(limitsOf(route, endpoint, clientIp, clientBucket, undefined), context);
      if (decision?.refusal) throw decision.refusal;
      throw new ApiError('UNAUTHENTICATED', { message: 'Unknown API key' });
    }
    assertKeyAllowed(key, route.endpoint, context, clientIp);
    // The owner comes with the grant, so the user-data endpoints act for it without another lookup.
    context.principal = { kind: 'key', keyId: key.id, ownerId: key.ownerId };
    await countAndAdmit(limitsOf(route, endpoint, clientIp, clientBucket, key), key, route, context);
  };

  // Not async: an anonymous request on embedded counters is decided at once (see countAndAdmit).
  return (route: BoundRoute, context: GuardContext): void | Promise<void> => {
    // Operations endpoints (/health, /ready, /metrics, /docs) sit outside the API and its limits.
    if (route.mount === 'root') return;
    let clientIp = context.clientAddress;
    // a socket's later messages reuse the address resolved at its handshake (their bucket is worked out from it)
    let clientBucket: string | undefined;
    if (!context.clientAddressResolved) {
      const resolved = clients.of(context.remoteAddress, context.headers['x-forwarded-for']);
      clientIp = resolved.address;
      clientBucket = resolved.bucket;
    }
    context.clientAddress = clientIp;
    context.clientAddressResolved = true;
    const endpoint = endpointNameOf(route);
    const presented = presentedKeyOf(context.headers, context.rawQuery);
    if (context.actAsKeyId !== undefined || presented !== undefined) return keyed(route, context, endpoint, clientIp, clientBucket, presented);
    // a user established on the socket presented a bearer token (its messages need not be searched for it again)
    if (route.endpoint.access === 'key-or-bearer' && context.principal?.kind !== 'user' && !bearerTokenOf(context.headers)) {
      throw new ApiError('UNAUTHENTICATED', { message: 'An API key or a bearer token is required' });
    }
    return countAndAdmit(limitsOf(route, endpoint, clientIp, clientBucket, undefined), undefined, route, context);
  };
}
