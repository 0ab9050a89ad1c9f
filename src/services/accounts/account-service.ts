import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { SignInSessionRecord } from '../../domain/sign-in-session.js';
import type { SessionRepository } from '../../store/pg/sessions.js';
import type { Avatar, Privacy, UserRecord } from '../../domain/user.js';
import type { UserRepository } from '../../store/pg/users.js';
import type { AccessTokens } from './access-tokens.js';
import type { CaptchaVerifier } from './captcha-verifier.js';
import type { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword } from './password-hasher.js';

/** Sessions are long-lived (spec: "long-lived"); documented in docs/accounts.md. */
export const SESSION_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
/** lastSeenAt is refreshed at most this often per session. */
const TOUCH_INTERVAL_SECONDS = 60;

export interface ClientInfo {
  ipAddress: string;
  userAgent: string;
  /** The request carried a developer API key: never captcha-checked (spec part 1 §4.2 rule 2). */
  viaApiKey?: boolean;
}

/** What an identity provider says about a password for an account that has none here (spec part 1 §4.2 rule 5). */
export type ProviderPasswordVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid' }
  /** No linked provider checks passwords: the login answers PROVIDER_ACCOUNT naming `provider`. */
  | { kind: 'no-password-grant'; provider: string | null };

export interface ProviderPasswordCheck {
  /** Throws 503 SERVICE_UNAVAILABLE when the provider cannot answer. */
  check(user: UserRecord, password: string): Promise<ProviderPasswordVerdict>;
}

export interface SignInChecks {
  providerPasswords: ProviderPasswordCheck;
  /** Unset when no captcha is configured. */
  captcha: CaptchaVerifier | undefined;
}

export interface Authenticated {
  user: UserRecord;
  session: SignInSessionRecord;
}

export interface SignInEnvelope {
  user: { id: string; email: string; name: string; roles: string[] };
  sessionId: string;
  accessToken: string;
}

/** A hash to verify against when the account does not exist, so both paths take the same time. */
const decoyHash = hashPassword(randomUUID());

/** Spec part 1 §4.2 rule 3: one answer for an unknown e-mail and a wrong password, wherever the password is checked. */
function invalidCredentials(): ApiError {
  return new ApiError('VALIDATION_ERROR', { message: 'Invalid credentials', details: { reason: 'invalid_credentials' } });
}

export function publicUser(user: UserRecord) {
  return { id: user.id, email: user.email, name: user.name, roles: user.roles };
}

export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly tokens: AccessTokens,
    private readonly throttle: LoginThrottle,
    private readonly checks: SignInChecks,
  ) {}

  /** The browser form proves a human with a captcha token when one is configured; API-key callers never do. */
  private async verifyCaptcha(token: string | undefined, client: ClientInfo): Promise<void> {
    if (this.checks.captcha && !client.viaApiKey) await this.checks.captcha.verify(token, client.ipAddress);
  }

  async register(input: { email: string; password: string; name?: string; captchaToken?: string }, client: ClientInfo): Promise<SignInEnvelope> {
    await this.verifyCaptcha(input.captchaToken, client);
    const user = await this.users.create({
      id: randomUUID(),
      email: input.email,
      name: input.name ?? '',
      passwordHash: await hashPassword(input.password),
    });
    if (!user) {
      throw new ApiError('VALIDATION_ERROR', { message: ['email: an account with this e-mail already exists'], details: { reason: 'email_taken' } });
    }
    return this.openSessionFor(user, client);
  }

  async login(input: { email: string; password: string; captchaToken?: string }, client: ClientInfo): Promise<SignInEnvelope> {
    // Before the attempt is counted: a bot without a solved captcha must not lock the owner out.
    await this.verifyCaptcha(input.captchaToken, client);
    const refund = await this.throttle.admit(input.email, client.ipAddress);
    const user = await this.users.findByEmail(input.email);
    if (user && user.passwordHash === null) return this.loginThroughProvider(user, input.password, client, refund);
    let valid: boolean;
    try {
      valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash));
    } catch (error) {
      // refused unchecked (SERVER_BUSY under a sign-in flood): not a failed attempt, so it must not lock the owner out
      await refund();
      throw error;
    }
    if (!user || !user.passwordHash || !valid) {
      // The attempt stays counted: it was a failure.
      throw invalidCredentials();
    }
    await refund();
    return this.openSessionIfEnabled(user, client);
  }

  /** An account without a password here: its provider checks the password (rule 5), or the answer says how to sign in (rule 4). */
  private async loginThroughProvider(user: UserRecord, password: string, client: ClientInfo, refund: () => Promise<void>): Promise<SignInEnvelope> {
    let verdict: ProviderPasswordVerdict;
    try {
      verdict = await this.checks.providerPasswords.check(user, password);
    } catch (error) {
      // The provider could not answer: not the caller's failure.
      await refund();
      throw error;
    }
    if (verdict.kind === 'invalid') throw invalidCredentials();
    await refund();
    if (verdict.kind === 'no-password-grant') {
      // A provider-only account: say how to sign in instead; this is not a failed attempt.
      throw new ApiError('PROVIDER_ACCOUNT', {
        message: 'This account signs in through an identity provider',
        details: { signInMethod: 'oidc', provider: verdict.provider, exchangeEndpoint: '/api/v1/auth/idp' },
      });
    }
    return this.openSessionIfEnabled(user, client);
  }

  private async openSessionIfEnabled(user: UserRecord, client: ClientInfo): Promise<SignInEnvelope> {
    if (user.disabled) {
      throw new ApiError('VALIDATION_ERROR', { message: 'Account disabled', details: { reason: 'account_disabled' } });
    }
    return this.openSessionFor(user, client);
  }

  /** The user and session behind a bearer token, or null when the token or its session is no longer valid. */
  async authenticate(token: string): Promise<Authenticated | null> {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const session = await this.sessions.findOwned(claims.userId, claims.sessionId);
    if (!session || session.revokedAt !== null || Date.parse(session.expiresAt) <= Date.now()) return null;
    const user = await this.users.findById(claims.userId);
    if (!user || user.disabled) return null;
    // the row just read says when it was last marked: no write (a query per request) until the interval is over
    if (!(Date.parse(session.lastSeenAt) > Date.now() - TOUCH_INTERVAL_SECONDS * 1000)) await this.sessions.touch(user.id, session.id, TOUCH_INTERVAL_SECONDS);
    return { user, session };
  }

  /** The caller's own user and session records. */
  async getAccount(userId: string, sessionId: string): Promise<Authenticated> {
    const [user, session] = await Promise.all([this.users.findById(userId), this.sessions.findOwned(userId, sessionId)]);
    if (!user || !session) throw new ApiError('UNAUTHENTICATED');
    return { user, session };
  }

  async updateProfile(userId: string, changes: { name?: string; avatar?: Avatar | null; privacy?: Privacy | null }): Promise<UserRecord> {
    const user = await this.users.updateProfile(userId, changes);
    if (!user) throw new ApiError('UNAUTHENTICATED');
    return user;
  }

  listSessions(userId: string): Promise<SignInSessionRecord[]> {
    return this.sessions.listValid(userId);
  }

  /** Revokes one of the caller's sessions; another user's session id is "not found" (no existence leak). */
  async revokeSession(userId: string, sessionId: string): Promise<number> {
    const revoked = await this.sessions.revoke(userId, sessionId);
    if (revoked === 0) throw new ApiError('NOT_FOUND', { message: 'Session not found' });
    return revoked;
  }

  revokeOtherSessions(userId: string, currentSessionId: string): Promise<number> {
    return this.sessions.revokeOthers(userId, currentSessionId);
  }

  /** Opens a session for an already authenticated user (password, social or IdP sign-in). */
  async openSessionFor(user: UserRecord, client: ClientInfo): Promise<SignInEnvelope> {
    const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
    const session = await this.sessions.create({
      id: randomUUID(),
      userId: user.id,
      ipAddress: client.ipAddress,
      userAgent: client.userAgent.slice(0, 512),
      expiresAt,
    });
    const accessToken = await this.tokens.issue({ userId: user.id, sessionId: session.id }, expiresAt);
    return { user: publicUser(user), sessionId: session.id, accessToken };
  }
}
