import { ApiError } from '../../shared/errors.js';
import type { ApiKeyRecord } from '../../domain/api-key.js';
import type { KeyChange } from '../access/key-directory.js';
import type { ApiKeyRepository } from '../../store/pg/api-keys.js';
import type { NotificationRepository } from '../../store/pg/notifications.js';
import type { UserRecord } from '../../domain/user.js';
import type { UserRepository } from '../../store/pg/users.js';

export const ROLES = ['user', 'developer', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];
/** Roles that only a super admin may grant or revoke. */
const PRIVILEGED_ROLES: readonly string[] = ['admin', 'super_admin'];
/** Operator quotas may exceed the self-serve caps, up to what the column holds. */
export const MAX_OPERATOR_QUOTA = 2_147_483_647;

export interface OperatorRepositories {
  users: UserRepository;
  apiKeys: ApiKeyRepository;
  notifications: NotificationRepository;
}

/** Who is acting: a signed-in admin (endpoints) or the operator's shell (CLI, trusted). */
export type Operator = { kind: 'user'; roles: readonly string[] } | { kind: 'cli' };

/**
 * Operator actions (spec part 1 §3 and §6): the only way to make a key
 * unlimited or to raise quotas above the self-serve caps. Used by the admin
 * endpoints and by `npm run admin`.
 */
export class OperatorActions {
  constructor(
    private readonly repositories: OperatorRepositories,
    /**
     * Told about every key an operator changes, and every account disabled or enabled (all its keys), so caches
     * everywhere drop them; awaited, so the change holds on every process before the operator has the answer.
     */
    private readonly onKeysChanged: (change: KeyChange) => void | Promise<void> = () => {},
  ) {}

  async findUser(email: string): Promise<UserRecord> {
    return (await this.repositories.users.findByEmail(email.trim().toLowerCase())) ?? Promise.reject(new ApiError('NOT_FOUND', { message: 'User not found' }));
  }

  /** Limits beyond the self-serve caps, and the operator's hold (`suspended`: refused whatever the owner sets). */
  async setKeyLimits(
    keyId: string,
    limits: { unlimited?: boolean; quotaPerMinute?: number; quotaPerDay?: number; suspended?: boolean },
  ): Promise<ApiKeyRecord & { suspended: boolean }> {
    for (const name of ['quotaPerMinute', 'quotaPerDay'] as const) {
      const value = limits[name];
      if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_OPERATOR_QUOTA)) {
        throw new ApiError('VALIDATION_ERROR', { message: [`${name}: must be an integer from 1 to ${MAX_OPERATOR_QUOTA}`] });
      }
    }
    const key = await this.repositories.apiKeys.setOperatorLimits(keyId, limits);
    if (!key) throw new ApiError('NOT_FOUND', { message: 'API key not found' });
    await this.onKeysChanged({ keyId });
    return key;
  }

  async changeRole(operator: Operator, userId: string, role: Role, action: 'grant' | 'revoke'): Promise<string[]> {
    if (PRIVILEGED_ROLES.includes(role) && operator.kind === 'user' && !operator.roles.includes('super_admin')) {
      throw new ApiError('FORBIDDEN', { message: `Only a super_admin may ${action} the ${role} role` });
    }
    const roles =
      action === 'grant' ? await this.repositories.users.addRole(userId, role) : await this.repositories.users.removeRole(userId, role);
    return roles ?? Promise.reject(new ApiError('NOT_FOUND', { message: 'User not found' }));
  }

  /** Sessions are checked on every request; the account's keys are cached, so every process is told to drop them. */
  async setAccountDisabled(userId: string, disabled: boolean): Promise<UserRecord> {
    const user = await this.repositories.users.setDisabled(userId, disabled);
    if (!user) throw new ApiError('NOT_FOUND', { message: 'User not found' });
    await this.onKeysChanged({ ownerId: userId });
    return user;
  }

  /** Writes an `admin_broadcast` record into every enabled account's inbox (data null, spec part 1 §6). */
  broadcast(message: { title: string; body: string; url?: string }): Promise<number> {
    return this.repositories.notifications.broadcast({ type: 'admin_broadcast', title: message.title, body: message.body, url: message.url ?? null, data: null });
  }
}
