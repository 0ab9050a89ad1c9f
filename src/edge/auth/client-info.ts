import type { ClientInfo } from '../../services/accounts/account-service.js';
import type { RequestContext } from '../route.js';

/** Where a sign-in comes from, recorded on the session. */
export function clientInfoOf(context: Pick<RequestContext, 'clientAddress' | 'headers' | 'principal'>): ClientInfo {
  // The resolved client, not the proxy: lockouts per address and session records depend on it.
  // A presented key was checked by the access gate before any handler runs (an unknown key never gets here).
  return { ipAddress: context.clientAddress, userAgent: context.headers['user-agent'] ?? '', viaApiKey: context.principal?.kind === 'key' };
}
