/**
 * The user a request acts for on the user-data endpoints (saved places and lists, history, live shares, push
 * tokens): the signed-in user of a bearer token, or the owner of an API key (spec part 1 §4.3 lets a key in
 * where a signed-in user may call; a key names no user of its own, so it acts for the user who owns it). The
 * access gate has already refused a key that is inactive, suspended or whose owner is disabled.
 */
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';

export function actingUserId(principal: Principal | undefined): string {
  if (principal?.kind === 'user') return principal.userId;
  if (principal?.kind === 'key' && principal.ownerId !== undefined) return principal.ownerId;
  throw new ApiError('UNAUTHENTICATED', { message: 'A bearer token or an API key is required' });
}
