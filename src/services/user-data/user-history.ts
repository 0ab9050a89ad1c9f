/**
 * Search and visit history (spec part 1 §4.2 rule 6; designed in
 * docs/accounts.md): every call is scoped to the user the caller acts for (the
 * signed-in user, or an API key's owner), and a user who switched history off
 * in their privacy settings is refused a new entry.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';
import { actingUserId } from './acting-user.js';
import type { HistoryFields, HistoryRecord, HistoryRepository } from '../../store/pg/history.js';
import type { UserRepository } from '../../store/pg/users.js';

export type HistoryKind = HistoryFields['kind'];

/** A new entry: at least one of query, placeId and name; lat and lng together. */
export interface NewHistoryEntry {
  kind: HistoryKind;
  query?: string | undefined;
  placeId?: string | undefined;
  name?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
}

export class UserHistory {
  constructor(
    private readonly history: HistoryRepository,
    private readonly users: Pick<UserRepository, 'findById'>,
  ) {}

  /** The user's entries, newest first, with the total for paging. */
  page(caller: Principal | undefined, options: { limit: number; offset: number; kind?: HistoryKind | undefined }): Promise<{ items: HistoryRecord[]; total: number }> {
    const { limit, offset, kind } = options;
    return this.history.page(actingUserId(caller), { limit, offset, ...(kind ? { kind } : {}) });
  }

  /** Records a search or a visit, unless the user's privacy settings say `saveHistory: false`. */
  async record(caller: Principal | undefined, entry: NewHistoryEntry): Promise<HistoryRecord> {
    const userId = actingUserId(caller);
    const user = await this.users.findById(userId);
    if (user?.privacy?.saveHistory === false) {
      throw new ApiError('FORBIDDEN', { message: 'History is switched off in your privacy settings', details: { reason: 'history_disabled' } });
    }
    return this.history.add(userId, randomUUID(), {
      kind: entry.kind,
      query: entry.query ?? null,
      placeId: entry.placeId ?? null,
      name: entry.name ?? null,
      lat: entry.lat ?? null,
      lng: entry.lng ?? null,
    });
  }

  /** Removes one of the user's entries; another user's entry is not found. */
  async remove(caller: Principal | undefined, id: string): Promise<void> {
    if (!(await this.history.delete(actingUserId(caller), id))) throw new ApiError('NOT_FOUND', { message: 'History entry not found' });
  }

  /** Removes every entry of the user; answers how many there were. */
  clear(caller: Principal | undefined): Promise<number> {
    return this.history.clear(actingUserId(caller));
  }
}
