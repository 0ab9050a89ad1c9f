/**
 * The signed-in user's notification channel (spec part 1 §4.4): the push
 * tokens of their devices and their notification inbox.
 */
import { ApiError } from '../../shared/errors.js';
import type { NotificationRecord, NotificationRepository } from '../../store/pg/notifications.js';
import type { PushTokenRepository } from '../../store/pg/push-tokens.js';

export class UserNotifications {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly pushTokens: PushTokenRepository,
  ) {}

  /** Registers a device's push token; a token registered to someone else is re-bound to this user. */
  registerPushToken(userId: string, token: string, platform: string): Promise<{ token: string; platform: string; createdAt: string }> {
    return this.pushTokens.register(userId, token, platform);
  }

  /** Unregisters one of the user's push tokens; another user's token is not found. */
  async unregisterPushToken(userId: string, token: string): Promise<void> {
    if (!(await this.pushTokens.unregister(userId, token))) throw new ApiError('NOT_FOUND', { message: 'Push token not found' });
  }

  /** The inbox, newest first, with the total for paging. */
  inbox(userId: string, options: { limit: number; offset: number; type?: string | undefined }): Promise<{ items: NotificationRecord[]; total: number }> {
    const { limit, offset, type } = options;
    return this.notifications.page(userId, { limit, offset, ...(type ? { type } : {}) });
  }
}
