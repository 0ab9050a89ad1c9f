/**
 * Saved places and saved lists (spec part 1 §2.6a, §4.4; update, delete and
 * lists designed in docs/user-data.md). Every call is scoped to the signed-in
 * user: another user's place or list is simply not found.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
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
  listNewest(userId: string, listId?: string): Promise<SavedPlaceRecord[]> {
    return this.places.listNewest(userId, SAVED_PLACES_PAGE, listId);
  }

  /** Saves a place; a listId that names none of the user's lists is not found. */
  async save(userId: string, input: SavedPlaceInput): Promise<SavedPlaceRecord> {
    const place = await this.places.create(userId, randomUUID(), withDefaults(input));
    if (!place) throw notFound('List');
    return place;
  }

  /** Changes only the fields given; a listId that names none of the user's lists is not found. */
  async change(userId: string, id: string, changes: Partial<SavedPlaceInput>): Promise<SavedPlaceRecord> {
    const current = await this.places.find(userId, id);
    if (!current) throw notFound('Saved place');
    const fields = withDefaults({ ...changes, name: changes.name ?? current.name, lat: changes.lat ?? current.lat, lng: changes.lng ?? current.lng }, current);
    const place = await this.places.update(userId, id, fields);
    if (!place) throw notFound('List');
    return place;
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.places.delete(userId, id))) throw notFound('Saved place');
  }
}

export class SavedLists {
  constructor(private readonly lists: SavedListRepository) {}

  /** The user's lists with their place counts. */
  list(userId: string): Promise<SavedListRecord[]> {
    return this.lists.list(userId);
  }

  create(userId: string, fields: { name: string; description?: string | undefined }): Promise<SavedListRecord> {
    return this.lists.create(userId, randomUUID(), { name: fields.name, description: fields.description ?? '' });
  }

  async change(userId: string, id: string, fields: { name?: string | undefined; description?: string | undefined }): Promise<SavedListRecord> {
    const list = await this.lists.update(userId, id, fields);
    if (!list) throw notFound('List');
    return list;
  }

  /** Deletes a list; its places stay saved, unlisted. */
  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.lists.delete(userId, id))) throw notFound('List');
  }
}
