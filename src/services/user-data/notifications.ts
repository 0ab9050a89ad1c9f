/**
 * A user's notification channel (spec part 1 §4.4): the push tokens of their
 * devices (registered by the signed-in user or through one of their API keys,
 * part 1 §4.3) and their notification inbox (bearer token only).
 */
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';
import { actingUserId } from './acting-user.js';
import type { NotificationRecord, NotificationRepository } from '../../store/pg/notifications.js';
import type { PushTokenRepository } from '../../store/pg/push-tokens.js';

export class UserNotifications {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly pushTokens: PushTokenRepository,
  ) {}

  /** Registers a device's push token; a token registered to someone else is re-bound to this user. */
  registerPushToken(caller: Principal | undefined, token: string, platform: string): Promise<{ token: string; platform: string; createdAt: string }> {
    return this.pushTokens.register(actingUserId(caller), token, platform);
  }

  /** Unregisters one of the user's push tokens; another user's token is not found. */
  async unregisterPushToken(caller: Principal | undefined, token: string): Promise<void> {
    if (!(await this.pushTokens.unregister(actingUserId(caller), token))) throw new ApiError('NOT_FOUND', { message: 'Push token not found' });
  }

  /** The inbox, newest first, with the total for paging. */
  inbox(userId: string, options: { limit: number; offset: number; type?: string | undefined }): Promise<{ items: NotificationRecord[]; total: number }> {
    const { limit, offset, type } = options;
    return this.notifications.page(userId, { limit, offset, ...(type ? { type } : {}) });
  }
}
