import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../../../shared/errors.js';
import type { CounterStore } from '../../../store/counters/counter-store.js';
import type { IdentityRepository } from '../../../store/pg/identities.js';
import type { UserRecord } from '../../../domain/user.js';
import type { UserRepository } from '../../../store/pg/users.js';
import type { AccountService, ClientInfo, SignInEnvelope } from '../account-service.js';
import { verifyPassword } from '../password-hasher.js';
import { OidcError, type OidcProvider, type VerifiedIdentity } from './oidc-provider.js';

/** How long a sign-in may take between start and callback, and a link offer stays open. */
const STATE_TTL_MS = 10 * 60 * 1000;
const LINK_TTL_MS = 10 * 60 * 1000;

interface PendingSignIn {
  provider: string;
  codeVerifier: string;
  nonce: string;
  next: string;
  redirectUri: string;
}

interface PendingLink {
  userId: string;
  identity: VerifiedIdentity;
}

const randomToken = () => randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Only same-site paths: `next` must not send the browser (and its token) elsewhere. */
export function safeNextPath(next: string | undefined): string {
  // Browsers drop tabs and newlines from URLs ("/\t/evil" becomes "//evil"): refuse any control or space character.
  if (!next || !next.startsWith('/') || /[\u0000-\u0020\u007f\\]/.test(next)) return '/';
  const base = 'https://svc.invalid';
  const resolved = new URL(next, base);
  if (resolved.origin !== base) return '/';
  return `${resolved.pathname}${resolved.search}`;
}

/**
 * Social sign-in (authorization code + PKCE + nonce, state single-use in the
 * counter store) and the identity-provider token exchange, for generic OpenID
 * Connect providers configured by the operator.
 */
export class SocialSignIn {
  private readonly providers: Map<string, OidcProvider>;

  constructor(
    providers: readonly OidcProvider[],
    private readonly users: UserRepository,
    private readonly identities: IdentityRepository,
    private readonly accounts: AccountService,
    private readonly hotState: CounterStore,
  ) {
    this.providers = new Map(providers.map((provider) => [provider.id, provider]));
  }

  list(): Array<{ id: string; label: string; type: 'oidc' }> {
    return [...this.providers.values()].map((provider) => ({ id: provider.id, label: provider.config.label, type: 'oidc' as const }));
  }

  private provider(id: string): OidcProvider {
    const provider = this.providers.get(id);
    if (!provider) throw new ApiError('NOT_FOUND', { message: `Unknown sign-in provider "${id}"` });
    return provider;
  }

  /** The provider's consent URL; the state (with the PKCE verifier and nonce) waits for the callback. */
  async start(providerId: string, next: string | undefined, redirectUri: string): Promise<string> {
    const provider = this.provider(providerId);
    const pending: PendingSignIn = { provider: providerId, codeVerifier: randomToken(), nonce: randomToken(), next: safeNextPath(next), redirectUri };
    const state = randomToken();
    await this.hotState.setValue(`oauth:state:${state}`, JSON.stringify(pending), STATE_TTL_MS);
    try {
      return await provider.authorizationUrl({ redirectUri, state, nonce: pending.nonce, codeChallenge: s256(pending.codeVerifier) });
    } catch (error) {
      throw new ApiError('SERVICE_UNAVAILABLE', { message: `Sign-in provider ${providerId} is unavailable`, details: { reason: (error as OidcError).reason } });
    }
  }

  /** Completes the code flow; answers the app path with the outcome in the fragment. */
  async callback(providerId: string, parameters: { code?: string; state?: string; error?: string }, client: ClientInfo): Promise<string> {
    const raw = parameters.state ? await this.hotState.takeValue(`oauth:state:${parameters.state}`) : null;
    if (!raw) return `/#svcauth=error&reason=invalid_state`;
    const pending = JSON.parse(raw) as PendingSignIn;
    const fail = (reason: string) => `${pending.next}#svcauth=error&reason=${encodeURIComponent(reason)}`;
    if (pending.provider !== providerId) return fail('invalid_state');
    if (parameters.error || !parameters.code) return fail(parameters.error ?? 'missing_code');
    try {
      const provider = this.provider(providerId);
      const idToken = await provider.exchangeCode({ code: parameters.code, redirectUri: pending.redirectUri, codeVerifier: pending.codeVerifier });
      const identity = await provider.verifyIdToken(idToken, pending.nonce);
      const outcome = await this.resolve(identity, client, { linkPasswordAccounts: false });
      if (outcome.kind === 'link') return `${pending.next}#svcauth=link&linkToken=${outcome.linkToken}&provider=${providerId}`;
      return `${pending.next}#svcauth=ok&token=${outcome.envelope.accessToken}`;
    } catch (error) {
      if (error instanceof OidcError) return fail(error.reason);
      if (error instanceof ApiError) return fail(error.code.toLowerCase());
      throw error;
    }
  }

  /** Confirms a link offered by the callback: the password proves the existing account is the caller's. */
  async confirmLink(linkToken: string, password: string | undefined, client: ClientInfo): Promise<SignInEnvelope> {
    const raw = await this.hotState.takeValue(`oauth:link:${linkToken}`);
    if (!raw) throw new ApiError('VALIDATION_ERROR', { message: ['linkToken: unknown or expired'] });
    const pending = JSON.parse(raw) as PendingLink;
    const user = await this.users.findById(pending.userId);
    if (!user || user.disabled) throw new ApiError('VALIDATION_ERROR', { message: 'Invalid credentials' });
    if (user.passwordHash && !(password && (await verifyPassword(password, user.passwordHash)))) {
      throw new ApiError('VALIDATION_ERROR', { message: 'Invalid credentials', details: { reason: 'invalid_credentials' } });
    }
    await this.identities.link(pending.identity.provider, pending.identity.subject, user.id, pending.identity.email);
    return this.accounts.openSessionFor(user, client);
  }

  /** `POST /auth/idp`: an ID token from a configured provider, found or created by verified e-mail. */
  async exchangeIdToken(idToken: string, client: ClientInfo): Promise<SignInEnvelope> {
    const provider = this.providerForToken(idToken);
    let identity: VerifiedIdentity;
    try {
      identity = await provider.verifyIdToken(idToken);
    } catch (error) {
      if (error instanceof OidcError && error.reason === 'provider_unavailable') {
        throw new ApiError('SERVICE_UNAVAILABLE', { message: `Identity provider ${provider.id} is unavailable` });
      }
      throw new ApiError('UNAUTHENTICATED', { message: 'Invalid identity token', details: { reason: (error as OidcError).reason } });
    }
    const outcome = await this.resolve(identity, client, { linkPasswordAccounts: true }).catch((error: unknown) => {
      if (error instanceof OidcError) throw new ApiError('UNAUTHENTICATED', { message: 'Invalid identity token', details: { reason: error.reason } });
      throw error;
    });
    if (outcome.kind !== 'signed-in') throw new ApiError('UNAUTHENTICATED', { message: 'Invalid identity token' });
    return outcome.envelope;
  }

  /** Picks the provider by the token's (unverified) issuer; verification then pins it. */
  private providerForToken(idToken: string): OidcProvider {
    let issuer: unknown;
    try {
      issuer = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')).iss;
    } catch {
      issuer = undefined;
    }
    const provider = [...this.providers.values()].find((candidate) => candidate.config.issuer === issuer);
    if (!provider) throw new ApiError('UNAUTHENTICATED', { message: 'Invalid identity token', details: { reason: 'unknown_issuer' } });
    return provider;
  }

  private async resolve(
    identity: VerifiedIdentity,
    client: ClientInfo,
    options: { linkPasswordAccounts: boolean },
  ): Promise<{ kind: 'signed-in'; envelope: SignInEnvelope } | { kind: 'link'; linkToken: string }> {
    if (!identity.emailVerified) throw new OidcError('email_not_verified', 'the provider has not verified this e-mail');
    const linkedUserId = await this.identities.findUserId(identity.provider, identity.subject);
    let user: UserRecord | null = linkedUserId ? await this.users.findById(linkedUserId) : null;
    if (!user) {
      const existing = await this.users.findByEmail(identity.email);
      if (existing && existing.passwordHash && !options.linkPasswordAccounts) {
        // The e-mail belongs to a password account: linking needs its owner's confirmation.
        const linkToken = randomToken();
        await this.hotState.setValue(`oauth:link:${linkToken}`, JSON.stringify({ userId: existing.id, identity } satisfies PendingLink), LINK_TTL_MS);
        return { kind: 'link', linkToken };
      }
      user = existing ?? (await this.users.create({ id: randomUUID(), email: identity.email, name: identity.name, passwordHash: null }));
      if (!user) user = await this.users.findByEmail(identity.email);
      if (!user) throw new OidcError('sign_in_failed', 'the account could not be created');
      await this.identities.link(identity.provider, identity.subject, user.id, identity.email);
    }
    if (user.disabled) throw new ApiError('VALIDATION_ERROR', { message: 'Account disabled', details: { reason: 'account_disabled' } });
    return { kind: 'signed-in', envelope: await this.accounts.openSessionFor(user, client) };
  }
}
