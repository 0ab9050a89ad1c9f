import { ApiError } from '../../shared/errors.js';
import type { AssistantTurnRepository } from '../../store/pg/assistant-turns.js';
import type { HistoryRepository } from '../../store/pg/history.js';
import type { EntitlementRepository } from '../../store/pg/entitlements.js';
import type { ItineraryRepository } from '../../store/pg/itineraries.js';
import type { LiveShareRepository } from '../../store/pg/live-shares.js';
import type { SavedListRepository } from '../../store/pg/saved-lists.js';
import type { SavedPlaceRepository } from '../../store/pg/saved-places.js';
import type { SessionRepository } from '../../store/pg/sessions.js';
import type { UserRepository } from '../../store/pg/users.js';
import type { ClientInfo } from './account-service.js';
import type { LoginThrottle } from './login-throttle.js';
import { verifyPassword } from './password-hasher.js';

export interface AccountDataRepositories {
  users: UserRepository;
  sessions: SessionRepository;
  savedPlaces: SavedPlaceRepository;
  savedLists: SavedListRepository;
  history: HistoryRepository;
  liveShares: LiveShareRepository;
  itineraries: ItineraryRepository;
  /** The user's sign disregards (routing's `disregard`, kept per user). */
  signDisregards: { disregards(userId: string): Promise<{ featureKey: string; createdAt: string }[]> };
  /** The payment provider's subscription records (docs/billing.md), exported with the rest. */
  subscriptions?: Pick<EntitlementRepository, 'subscriptions'>;
  /** The assistant's logged turns (kept ≤ 30 days; removed with the account by cascade). */
  assistantTurns?: Pick<AssistantTurnRepository, 'listForUser'>;
}

/** Everything we hold about an account: the export (data portability) and the deletion. */
export class AccountData {
  constructor(
    private readonly repositories: AccountDataRepositories & { apiKeys: { list(ownerId: string): Promise<Array<{ id: string }>> } },
    /** The sign-in lockout also guards this password check: a stolen token must not be a password oracle. */
    private readonly throttle: Pick<LoginThrottle, 'admit'>,
    /** Told about every key the deletion takes with it. */
    private readonly onKeyChanged: (keyId: string) => void = () => {},
  ) {}

  /** One JSON document with every section of spec part 1 §4.2; no secret (hash, token) is included. */
  async export(userId: string) {
    const { users, sessions, savedPlaces, savedLists, history, liveShares, itineraries, signDisregards } = this.repositories;
    const user = await users.findById(userId);
    if (!user) throw new ApiError('UNAUTHENTICATED');
    const [places, lists, entries, shares, allSessions, disregards, savedItineraries, subscriptions, assistantTurns] = await Promise.all([
      savedPlaces.listAll(userId),
      savedLists.list(userId),
      history.listAll(userId),
      liveShares.listAll(userId),
      sessions.listAll(userId),
      signDisregards.disregards(userId),
      itineraries.listAll(userId),
      this.repositories.subscriptions?.subscriptions(userId) ?? [],
      this.repositories.assistantTurns?.listForUser(userId) ?? Promise.resolve([]),
    ]);
    return {
      exportedAt: new Date().toISOString(),
      account: {
        id: user.id,
        email: user.email,
        name: user.name,
        roles: user.roles,
        profile: { avatar: user.avatar, privacy: user.privacy },
        hasPassword: user.passwordHash !== null,
        createdAt: user.createdAt,
      },
      savedLocations: { places, lists },
      mapHistory: entries,
      liveShares: shares,
      itineraries: savedItineraries,
      // Sign feature keys the user chose to disregard in /routing/plan (docs/incidents-feedback.md).
      signDisregards: disregards,
      sessions: allSessions.map(({ userId: _owner, ...session }) => session),
      subscriptions: subscriptions.map(({ userId: _owner, ...subscription }) => subscription),
      // Prompts, history and replies of the assistant (POST /ai/agent, /ai/assistant), the last 30 days at most.
      assistantConversations: assistantTurns,
    };
  }

  /**
   * Deletes the account and, by cascade, its sessions, saved places and lists,
   * history, live shares, saved itineraries, push tokens, notifications, organizations, projects, keys and assistant turns.
   */
  async delete(userId: string, password: string | undefined, client: ClientInfo): Promise<void> {
    const user = await this.repositories.users.findById(userId);
    if (!user) throw new ApiError('UNAUTHENTICATED');
    if (user.passwordHash !== null) {
      if (!password) throw new ApiError('VALIDATION_ERROR', { message: ['password: required to delete an account that has one'] });
      const refund = await this.throttle.admit(user.email, client.ipAddress);
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw new ApiError('VALIDATION_ERROR', { message: 'Invalid credentials', details: { reason: 'invalid_credentials' } });
      }
      await refund();
    }
    const keys = await this.repositories.apiKeys.list(userId);
    await this.repositories.users.delete(userId);
    for (const key of keys) this.onKeyChanged(key.id);
  }
}
