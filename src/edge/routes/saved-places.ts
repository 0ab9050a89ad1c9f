import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { SavedListRepository } from '../../store/pg/saved-lists.js';
import type { SavedPlaceFields, SavedPlaceRepository } from '../../store/pg/saved-places.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../schemas/geo.js';

/** How many favourites GET /me/saved-places returns (spec: the newest 100). */
export const SAVED_PLACES_PAGE = 100;

const placeFields = {
  name: z.string().trim().min(1).max(200),
  lat: latitude,
  lng: longitude,
  detail: z.string().trim().max(500).optional(),
  placeId: z.string().trim().min(1).max(200).nullable().optional(),
  icon: z.string().trim().max(64).nullable().optional(),
  note: z.string().max(2000).optional(),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  listId: z.uuid().nullable().optional(),
};
const listFields = { name: z.string().trim().min(1).max(120), description: z.string().trim().max(1000).optional() };
const idParams = z.object({ id: z.uuid() });
const route = { tags: ['saved places'] };
const notFound = (what: string) => new ApiError('NOT_FOUND', { message: `${what} not found` });

function withDefaults(input: Partial<SavedPlaceFields> & Pick<SavedPlaceFields, 'name' | 'lat' | 'lng'>, base?: SavedPlaceFields): SavedPlaceFields {
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

/** Saved places and saved lists (spec part 1 §2.6a, §4.4; update, delete and lists designed in docs/user-data.md). */
export function savedPlacesRoutes(places: SavedPlaceRepository, lists: SavedListRepository): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/saved-places',
      summary: 'Your newest 100 saved places (optionally of one list)',
      query: z.object({ listId: z.uuid().optional() }),
      handler: async (context) => ({ items: await places.listNewest(principalOf(context).userId, SAVED_PLACES_PAGE, context.query.listId) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/saved-places',
      summary: 'Save a place',
      errors: ['NOT_FOUND'],
      body: z.object(placeFields),
      handler: async (context) =>
        (await places.create(principalOf(context).userId, randomUUID(), withDefaults(context.body))) ?? Promise.reject(notFound('List')),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/saved-places/{id}',
      summary: 'Change a saved place (only the fields sent; null clears placeId, icon or listId)',
      errors: ['NOT_FOUND'],
      params: idParams,
      body: z.object({ ...placeFields, name: placeFields.name.optional(), lat: latitude.optional(), lng: longitude.optional() }),
      handler: async (context) => {
        const userId = principalOf(context).userId;
        const current = await places.find(userId, context.params.id);
        if (!current) throw notFound('Saved place');
        const body = context.body;
        const fields = withDefaults({ ...body, name: body.name ?? current.name, lat: body.lat ?? current.lat, lng: body.lng ?? current.lng }, current);
        return (await places.update(userId, context.params.id, fields)) ?? Promise.reject(notFound('List'));
      },
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/saved-places/{id}',
      summary: 'Remove a saved place',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: async (context) => {
        if (!(await places.delete(principalOf(context).userId, context.params.id))) throw notFound('Saved place');
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/saved-lists',
      summary: 'Your saved lists with their place counts',
      handler: async (context) => ({ items: await lists.list(principalOf(context).userId) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/saved-lists',
      summary: 'Create a saved list',
      body: z.object(listFields),
      handler: (context) =>
        lists.create(principalOf(context).userId, randomUUID(), { name: context.body.name, description: context.body.description ?? '' }),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/saved-lists/{id}',
      summary: 'Rename or describe a saved list',
      errors: ['NOT_FOUND'],
      params: idParams,
      body: z.object({ name: listFields.name.optional(), description: listFields.description }),
      handler: async (context) =>
        (await lists.update(principalOf(context).userId, context.params.id, context.body)) ?? Promise.reject(notFound('List')),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/saved-lists/{id}',
      summary: 'Delete a saved list (its places stay saved, unlisted)',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: async (context) => {
        if (!(await lists.delete(principalOf(context).userId, context.params.id))) throw notFound('List');
        return { ok: true, deleted: true };
      },
    }),
  ];
}
