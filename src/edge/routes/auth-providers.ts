import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { SocialSignIn } from '../../services/accounts/oidc/social-sign-in.js';
import { clientInfoOf } from '../auth/client-info.js';
import { defineRoute, HttpReply, type RequestContext, type RouteDefinition } from '../route.js';

export interface AuthProvidersDeps {
  signIn: SocialSignIn;
  /** Public origin for redirect URIs; unset = the request's Host. */
  publicBaseUrl: string | undefined;
  /** The site key of the browser form's captcha; unset when captcha verification is not configured. */
  captchaSiteKey: string | undefined;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
const providerParams = z.object({ provider: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/) });


/** Social and identity-provider sign-in (spec part 1 §4.2), over generic OpenID Connect providers. */
export function authProviderRoutes(deps: AuthProvidersDeps): RouteDefinition[] {
  const redirectUri = (context: Pick<RequestContext, 'headers'>, provider: string) => {
    let origin = deps.publicBaseUrl?.replace(/\/$/, '');
    if (!origin) {
      const host = context.headers.host ?? '';
      if (!HOST.test(host)) throw new ApiError('VALIDATION_ERROR', { message: ['headers.host: invalid'] });
      origin = `http://${host}`;
    }
    return `${origin}/api/v1/auth/oauth/${provider}/callback`;
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/auth/providers',
      summary: 'Sign-in providers and the captcha settings of the browser form',
      tags: ['accounts'],
      handler: () => ({
        providers: deps.signIn.list(),
        captcha: { enabled: deps.captchaSiteKey !== undefined, siteKey: deps.captchaSiteKey ?? null },
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/oauth/{provider}/start',
      summary: "Redirect (302) to the provider's consent page (state, nonce and PKCE)",
      tags: ['accounts'],
      successStatus: 302,
      errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
      params: providerParams,
      query: z.object({ next: z.string().max(2048).optional() }),
      handler: async (context) =>
        HttpReply.redirect(await deps.signIn.start(context.params.provider, context.query.next, redirectUri(context, context.params.provider))),
    }),
    defineRoute({
      method: 'GET',
      path: '/auth/oauth/{provider}/callback',
      summary: 'Provider redirect target; redirects to the app with `#svcauth=ok&token=…`, `#svcauth=link&linkToken=…` or `#svcauth=error`',
      tags: ['accounts'],
      successStatus: 302,
      params: providerParams,
      query: z.object({ code: z.string().max(4096).optional(), state: z.string().max(256).optional(), error: z.string().max(256).optional() }),
      handler: async (context) => HttpReply.redirect(await deps.signIn.callback(context.params.provider, context.query, clientInfoOf(context))),
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/oauth/link',
      summary: 'Link a provider account to the existing account with the same e-mail (password confirms)',
      tags: ['accounts'],
      body: z.object({ linkToken: z.string().min(1).max(256), password: z.string().max(1024).optional() }),
      handler: (context) => deps.signIn.confirmLink(context.body.linkToken, context.body.password, clientInfoOf(context)),
    }),
    defineRoute({
      method: 'POST',
      path: '/auth/idp',
      summary: 'Exchange an identity-provider ID token (issuer and audience pinned) for a session',
      tags: ['accounts'],
      errors: ['UNAUTHENTICATED', 'SERVICE_UNAVAILABLE'],
      body: z.object({ idToken: z.string().min(10).max(16_384) }),
      handler: (context) => deps.signIn.exchangeIdToken(context.body.idToken, clientInfoOf(context)),
    }),
  ];
}
