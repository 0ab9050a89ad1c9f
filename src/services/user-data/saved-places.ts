/**
 * Saved places and saved lists (spec part 1 §2.6a, §4.4; update, delete and
 * lists designed in docs/accounts.md). Every call is scoped to the user the
 * caller acts for (the signed-in user, or an API key's owner): another user's
 * place or list is simply not found.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';
import { actingUserId } from './acting-user.js';
import type { SavedListRecord, SavedListRepository } from '../../store/pg/saved-lists.js';
import type { SavedPlaceFields, SavedPlaceRecord, SavedPlaceRepository } from '../../store/pg/saved-places.js';

/** How many favourites a listing returns (spec: the newest 100). */
export const SAVED_PLACES_PAGE = 100;

/** A place as the caller gives it: absent optional fields keep their current value (or the default); null clears placeId, icon or listId. */
export interface SavedPlaceInput {
  name: string;
  lat: number;
  lng: number;
  detail?: string | undefined;
  placeId?: string | null | undefined;
  icon?: string | null | undefined;
  note?: string | undefined;
  tags?: string[] | undefined;
  listId?: string | null | undefined;
}

const notFound = (what: string) => new ApiError('NOT_FOUND', { message: `${what} not found` });

function withDefaults(input: SavedPlaceInput, base?: SavedPlaceFields): SavedPlaceFields {
  return {
    name: input.name,
    lat: input.lat,
    lng: input.lng,
    detail: input.detail ?? base?.detail ?? '',
    placeId: input.placeId === undefined ? (base?.placeId ?? null) : input.placeId,
    icon: input.icon === undefined ? (base?.icon ?? null) : input.icon,
    note: input.note ?? base?.note ?? '',
    tags: input.tags ?? base?.tags ?? [],
    listId: input.listId === undefined ? (base?.listId ?? null) : input.listId,
  };
}

export class SavedPlaces {
  constructor(private readonly places: SavedPlaceRepository) {}

  /** The user's newest SAVED_PLACES_PAGE places, optionally of one list. */
  listNewest(caller: Principal | undefined, listId?: string): Promise<SavedPlaceRecord[]> {
    return this.places.listNewest(actingUserId(caller), SAVED_PLACES_PAGE, listId);
  }

  /** Saves a place; a listId that names none of the user's lists is not found. */
  async save(caller: Principal | undefined, input: SavedPlaceInput): Promise<SavedPlaceRecord> {
    const place = await this.places.create(actingUserId(caller), randomUUID(), withDefaults(input));
    if (!place) throw notFound('List');
    return place;
  }

  /** Changes only the fields given; a listId that names none of the user's lists is not found. */
  async change(caller: Principal | undefined, id: string, changes: Partial<SavedPlaceInput>): Promise<SavedPlaceRecord> {
    const userId = actingUserId(caller);
    const current = await this.places.find(userId, id);
    if (!current) throw notFound('Saved place');
    const fields = withDefaults({ ...changes, name: changes.name ?? current.name, lat: changes.lat ?? current.lat, lng: changes.lng ?? current.lng }, current);
    const place = await this.places.update(userId, id, fields);
    if (!place) throw notFound('List');
    return place;
  }

  async remove(caller: Principal | undefined, id: string): Promise<void> {
    if (!(await this.places.delete(actingUserId(caller), id))) throw notFound('Saved place');
  }
}

export class SavedLists {
  constructor(private readonly lists: SavedListRepository) {}

  /** The user's lists with their place counts. */
  list(caller: Principal | undefined): Promise<SavedListRecord[]> {
    return this.lists.list(actingUserId(caller));
  }

  create(caller: Principal | undefined, fields: { name: string; description?: string | undefined }): Promise<SavedListRecord> {
    return this.lists.create(actingUserId(caller), randomUUID(), { name: fields.name, description: fields.description ?? '' });
  }

  async change(caller: Principal | undefined, id: string, fields: { name?: string | undefined; description?: string | undefined }): Promise<SavedListRecord> {
    const list = await this.lists.update(actingUserId(caller), id, fields);
    if (!list) throw notFound('List');
    return list;
  }

  /** Deletes a list; its places stay saved, unlisted. */
  async remove(caller: Principal | undefined, id: string): Promise<void> {
    if (!(await this.lists.delete(actingUserId(caller), id))) throw notFound('List');
  }
}
