import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { AccountData } from '../../services/accounts/account-data.js';
import { publicUser, type AccountService } from '../../services/accounts/account-service.js';
import type { SignInSessionRecord } from '../../domain/sign-in-session.js';
import type { UserRecord } from '../../domain/user.js';
import { principalOf } from '../auth/bearer-guard.js';
import { queryBoolean } from '../input.js';
import { clientInfoOf } from '../auth/client-info.js';
import { defineRoute, type RequestContext, type RouteDefinition } from '../route.js';

const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ error: 'must be a valid e-mail address' }))
  .transform((value) => value.toLowerCase());
const password = z.string().min(10, { error: 'must be at least 10 characters' }).max(1024);
/** A new password: the spec's ten characters, but not ten spaces (a password of only whitespace guards nothing). */
const newPassword = password.refine((value) => value.trim() !== '', { error: 'must not be only whitespace' });
const avatar = z
  .object({ type: z.enum(['image', 'emoji', 'letter']), value: z.string().min(1).max(2048), bgColor: z.string().max(32).optional() })
  .strict();
const privacy = z
  .object({ saveHistory: z.boolean(), personalization: z.boolean(), shareAnalytics: z.boolean(), useLocation: z.boolean() })
  .partial()
  .strict();

const userSummary = z.object({ id: z.string(), email: z.string(), name: z.string(), roles: z.array(z.string()) });
const envelope = z.object({ user: userSummary, sessionId: z.string(), accessToken: z.string() });
const sessionView = z.object({
  id: z.string(),
  sessionId: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  ipAddress: z.string(),
  userAgent: z.string(),
  current: z.boolean(),
});


function profileUser(user: UserRecord) {
  return { ...publicUser(user), profile: { avatar: user.avatar, privacy: user.privacy } };
}

function sessionOf(session: SignInSessionRecord, currentSessionId: string) {
  return {
    id: session.id,
    sessionId: session.id,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    expiresAt: session.expiresAt,
    revokedAt: session.revokedAt,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    current: session.id === currentSessionId,
  };
}

/** Accounts and sessions (spec part 1 §4.2). */
export function authRoutes(accounts: AccountService, accountData: AccountData): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/me/export',
      summary: 'Everything held about your account, as one JSON document',
      tags: ['accounts'],
      handler: (context) => accountData.export(principalOf(context).userId),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/auth/me',
      summary: 'Delete your account and everything it owns',
      description: 'Body `{ confirm: "DELETE", password }`; the password is required when the account has one.',
      tags: ['accounts'],
      bodyKind: 'json',
      body: z.object({ confirm: z.literal('DELETE', { error: 'must be the word DELETE' }), password: z.string().max(1024).optional() }),
      handler: async (context) => {
        await accountData.delete(principalOf(context).userId, context.body.password, clientInfoOf(context));
        return { deleted: true };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/register',
      summary: 'Create an account and sign in',
      description: 'While a captcha is configured, a request without an API key needs a solved `captchaToken` (docs/accounts.md).',
      tags: ['accounts'],
      errors: ['CAPTCHA_FAILED', 'CAPTCHA_UNAVAILABLE', 'SERVER_BUSY'],
      body: z.object({ email, password: newPassword, name: z.string().trim().max(160).optional(), captchaToken: z.string().max(4096).optional() }),
      response: envelope,
      handler: (context) => accounts.register(context.body, clientInfoOf(context)),
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/login',
      summary: 'Sign in with e-mail and password',
      description:
        'Wrong credentials answer 400 `Invalid credentials`; repeated failures lock the account and the address out with 429. ' +
        'An account created through a provider is checked by that provider when it allows the password grant, else answers PROVIDER_ACCOUNT. ' +
        'While a captcha is configured, a request without an API key needs a solved `captchaToken` (docs/accounts.md).',
      tags: ['accounts'],
      errors: ['RATE_LIMITED', 'PROVIDER_ACCOUNT', 'CAPTCHA_FAILED', 'CAPTCHA_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'SERVER_BUSY'],
      body: z.object({ email, password, captchaToken: z.string().max(4096).optional() }),
      response: envelope,
      handler: (context) => accounts.login(context.body, clientInfoOf(context)),
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/me',
      summary: 'The signed-in user and the current session',
      tags: ['accounts'],
      handler: async (context) => {
        const principal = principalOf(context);
        const { user, session } = await accounts.getAccount(principal.userId, principal.sessionId);
        return {
          user: profileUser(user),
          session: { id: session.id, sessionId: session.id, lastSeenAt: session.lastSeenAt, expiresAt: session.expiresAt, revokedAt: session.revokedAt },
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/auth/me',
      summary: 'Change name, avatar or privacy settings (only the fields sent)',
      tags: ['accounts'],
      body: z.object({ name: z.string().trim().max(160).optional(), avatar: avatar.nullable().optional(), privacy: privacy.nullable().optional() }),
      handler: async (context) => {
        const user = await accounts.updateProfile(principalOf(context).userId, context.body);
        return { ok: true, user: profileUser(user) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/logout',
      summary: 'Revoke the current session',
      tags: ['accounts'],
      handler: async (context) => {
        const principal = principalOf(context);
        await accounts.revokeSession(principal.userId, principal.sessionId);
        return { ok: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/sessions',
      summary: 'Valid sessions of the signed-in user, newest first',
      tags: ['accounts'],
      response: z.object({ items: z.array(sessionView) }),
      handler: async (context) => {
        const principal = principalOf(context);
        const sessions = await accounts.listSessions(principal.userId);
        return { items: sessions.map((session) => sessionOf(session, principal.sessionId)) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/auth/sessions/{sessionId}',
      summary: 'Revoke one of your sessions',
      tags: ['accounts'],
      errors: ['NOT_FOUND'],
      params: z.object({ sessionId: z.uuid({ error: 'must be a session id' }) }),
      handler: async (context) => ({ ok: true, revoked: await accounts.revokeSession(principalOf(context).userId, context.params.sessionId) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/auth/sessions',
      summary: 'Revoke every session but the current one (`?all=1`)',
      tags: ['accounts'],
      query: z.object({ all: queryBoolean() }),
      handler: async (context) => {
        if (!context.query.all) throw new ApiError('VALIDATION_ERROR', { message: ['query.all: must be 1 to revoke all other sessions'] });
        const principal = principalOf(context);
        return { ok: true, revoked: await accounts.revokeOtherSessions(principal.userId, principal.sessionId) };
      },
    }),
  ];
}
