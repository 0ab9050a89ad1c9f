import type { ClientInfo } from '../../services/accounts/account-service.js';
import type { RequestContext } from '../route.js';

/** Where a sign-in comes from, recorded on the session. */
export function clientInfoOf(context: Pick<RequestContext, 'remoteAddress' | 'headers'>): ClientInfo {
  return { ipAddress: context.remoteAddress, userAgent: context.headers['user-agent'] ?? '' };
}
