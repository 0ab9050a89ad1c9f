import { z } from 'zod';
import type { SavedLists, SavedPlaces } from '../../services/user-data/saved-places.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { latitude, longitude } from '../../domain/geo.js';

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

/** Saved places and saved lists (spec part 1 §2.6a, §4.4; update, delete and lists designed in docs/user-data.md). */
export function savedPlacesRoutes(places: SavedPlaces, lists: SavedLists): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/saved-places',
      summary: 'Your newest 100 saved places (optionally of one list)',
      query: z.object({ listId: z.uuid().optional() }),
      handler: async (context) => ({ items: await places.listNewest(context.principal, context.query.listId) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/saved-places',
      summary: 'Save a place',
      errors: ['NOT_FOUND'],
      body: z.object(placeFields),
      handler: (context) => places.save(context.principal, context.body),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/saved-places/{id}',
      summary: 'Change a saved place (only the fields sent; null clears placeId, icon or listId)',
      errors: ['NOT_FOUND'],
      params: idParams,
      body: z.object({ ...placeFields, name: placeFields.name.optional(), lat: latitude.optional(), lng: longitude.optional() }),
      handler: (context) => places.change(context.principal, context.params.id, context.body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/saved-places/{id}',
      summary: 'Remove a saved place',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: async (context) => {
        await places.remove(context.principal, context.params.id);
        return { ok: true, deleted: true };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/saved-lists',
      summary: 'Your saved lists with their place counts',
      handler: async (context) => ({ items: await lists.list(context.principal) }),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/saved-lists',
      summary: 'Create a saved list',
      body: z.object(listFields),
      handler: (context) => lists.create(context.principal, context.body),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/saved-lists/{id}',
      summary: 'Rename or describe a saved list',
      errors: ['NOT_FOUND'],
      params: idParams,
      body: z.object({ name: listFields.name.optional(), description: listFields.description }),
      handler: (context) => lists.change(context.principal, context.params.id, context.body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/saved-lists/{id}',
      summary: 'Delete a saved list (its places stay saved, unlisted)',
      errors: ['NOT_FOUND'],
      params: idParams,
      handler: async (context) => {
        await lists.remove(context.principal, context.params.id);
        return { ok: true, deleted: true };
      },
    }),
  ];
}
