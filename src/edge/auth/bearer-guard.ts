import { ApiError } from '../../shared/errors.js';
import type { AccountService } from '../../services/accounts/account-service.js';
import type { GuardContext, RequestGuard } from '../request-pipeline.js';
import type { AccessClass, BoundRoute } from '../route.js';
import type { Principal, UserPrincipal } from '../../domain/principal.js';

const BEARER = /^Bearer\s+(\S+)$/i;
const ADMIN_ROLES = ['admin', 'super_admin'];

/** The bearer token of the request, if it carries one. */
export function bearerTokenOf(headers: Readonly<Record<string, string>>): string | undefined {
  return BEARER.exec(headers.authorization ?? '')?.[1];
}

/**
 * Establishes the signed-in user on routes whose access class needs one
 * (`bearer`, `admin`). The session is checked on every request, so a revoked
 * session stops working on the very next request in every process.
 */
export function createBearerGuard(accounts: AccountService): RequestGuard {
  // Not async: most calls are decided at once (an open route, a user established on the socket, a key), and a
  // promise for those would be one more trip through the microtask queue per request and per stream message.
  return (route: BoundRoute, context: GuardContext) => {
    const access = route.endpoint.access;
    if (access === 'open') return;
    // A user established earlier on the same connection (a WebSocket re-authenticates periodically, not per message).
    if (context.principal?.kind === 'user' && access !== 'admin') return;
    const token = bearerTokenOf(context.headers);
    // On key-or-bearer routes a presented key (checked by the access gate) is enough.
    if (access === 'key-or-bearer' && (context.principal?.kind === 'key' || !token)) return;
    if (!token) throw new ApiError('UNAUTHENTICATED', { message: 'Bearer token required' });
    return authenticateUser(accounts, access, context, token);
  };
}

async function authenticateUser(accounts: AccountService, access: AccessClass, context: GuardContext, token: string): Promise<void> {
  const authenticated = await accounts.authenticate(token);
  if (!authenticated) throw new ApiError('UNAUTHENTICATED', { message: 'Invalid or expired token' });
  const principal: UserPrincipal = {
    kind: 'user',
    userId: authenticated.user.id,
    sessionId: authenticated.session.id,
    roles: authenticated.user.roles,
  };
  if (access === 'admin' && !principal.roles.some((role) => ADMIN_ROLES.includes(role))) {
    throw new ApiError('FORBIDDEN', { message: 'Admin role required' });
  }
  context.principal = principal;
}

/** The signed-in user of a route that declared `bearer` or `admin` access (the guard ran). */
export function principalOf(context: { principal: Principal | undefined }): UserPrincipal {
  if (context.principal?.kind !== 'user') throw new ApiError('UNAUTHENTICATED');
  return context.principal;
}
