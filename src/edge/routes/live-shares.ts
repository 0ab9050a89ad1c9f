import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import { randomHexToken, sha256Hex } from '../../shared/secrets.js';
import type { LiveShareRecord, LiveShareRepository } from '../../store/pg/live-shares.js';
import { principalOf } from '../auth/bearer-guard.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { heading, latitude, longitude } from '../schemas/geo.js';

/** Longest a share may run: one day. */
export const MAX_SHARE_MINUTES = 24 * 60;
const SHARE_TOKEN = /^shr_[0-9a-f]{48}$/;
const route = { tags: ['live sharing'] };
const notFound = () => new ApiError('NOT_FOUND', { message: 'Live share not found' });
const position = {
  lat: latitude,
  lng: longitude,
  heading: heading.optional(),
  etaSeconds: z.number().int().min(0).max(7 * 86_400).optional(),
};

/** What anyone holding the link sees: position, ETA and destination, never who owns it. */
function publicView(share: LiveShareRecord) {
  return {
    lat: share.lat,
    lng: share.lng,
    heading: share.heading,
    etaSeconds: share.etaSeconds,
    destination: share.destination,
    updatedAt: share.updatedAt,
    expiresAt: share.expiresAt,
  };
}

/** Live location sharing with ETA (designed in docs/user-data.md). */
export function liveShareRoutes(shares: LiveShareRepository): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/me/live-shares',
      summary: 'Start sharing your live location; the share token is returned this once',
      body: z.object({
        ...position,
        expiresInMinutes: z.number().int().min(1).max(MAX_SHARE_MINUTES).default(60),
        destination: z.object({ name: z.string().trim().min(1).max(200), lat: latitude, lng: longitude }).optional(),
      }),
      handler: async (context) => {
        const body = context.body;
        const token = randomHexToken('shr_', 24);
        const share = await shares.create(principalOf(context).userId, {
          id: randomUUID(),
          tokenHash: sha256Hex(token),
          expiresAt: new Date(Date.now() + body.expiresInMinutes * 60_000),
          lat: body.lat,
          lng: body.lng,
          heading: body.heading ?? null,
          etaSeconds: body.etaSeconds ?? null,
          destination: body.destination ?? null,
        });
        return { ...share, shareToken: token, sharePath: `/api/v1/live-shares/${token}` };
      },
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/live-shares',
      summary: 'Your active shares',
      handler: async (context) => ({ items: await shares.listActive(principalOf(context).userId) }),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/me/live-shares/{id}',
      summary: 'Update the shared position and ETA',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      body: z.object({ ...position, lat: latitude.optional(), lng: longitude.optional() }),
      handler: async (context) =>
        (await shares.updatePosition(principalOf(context).userId, context.params.id, context.body)) ?? Promise.reject(notFound()),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/me/live-shares/{id}',
      summary: 'Stop sharing (the link stops working at once)',
      errors: ['NOT_FOUND'],
      params: z.object({ id: z.uuid() }),
      handler: async (context) => {
        if (!(await shares.revoke(principalOf(context).userId, context.params.id))) throw notFound();
        return { ok: true, revoked: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/live-shares/{token}',
      summary: 'Public view of a live share, by its token',
      tags: ['live sharing'],
      errors: ['NOT_FOUND'],
      params: z.object({ token: z.string().max(100) }),
      handler: async (context) => {
        // Malformed tokens are simply not found: the answer never says why.
        if (!SHARE_TOKEN.test(context.params.token)) throw notFound();
        const share = await shares.findActiveByTokenHash(sha256Hex(context.params.token));
        if (!share) throw notFound();
        return publicView(share);
      },
    }),
  ];
}
