import type { ClientInfo } from '../../services/accounts/account-service.js';
import type { RequestContext } from '../route.js';

/** Where a sign-in comes from, recorded on the session. */
export function clientInfoOf(context: Pick<RequestContext, 'clientAddress' | 'headers'>): ClientInfo {
  // The resolved client, not the proxy: lockouts per address and session records depend on it.
  return { ipAddress: context.clientAddress, userAgent: context.headers['user-agent'] ?? '' };
}
