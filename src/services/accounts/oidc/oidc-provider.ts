import { createRemoteJWKSet, jwtVerify, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import { readBoundedText } from '../../../shared/bounded-body.js';
import type { OidcProviderConfig } from '../../../shared/config.js';

/** Outbound calls to a provider give up after this long. */
const PROVIDER_TIMEOUT_MS = 5_000;
/** A token response is a few kilobytes (an ID token and an access token); anything far beyond is not one. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** Only asymmetric algorithms: an HS256 token "signed" with the public client id must never verify. */
const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** The fields of a token endpoint's answer this code reads (RFC 6749 §5.1, §5.2). */
interface TokenResponse {
  id_token?: unknown;
  error?: unknown;
}

export interface VerifiedIdentity {
  provider: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

export class OidcError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'OidcError';
  }
}

/**
 * A generic OpenID Connect provider from operator configuration (never from
 * user input, so its URLs are not an SSRF vector). Discovery and keys are
 * fetched lazily and cached; ID tokens are verified against the provider's JWKS
 * with issuer and audience pinned.
 */
export class OidcProvider {
  private discovery: Promise<Discovery> | undefined;
  private jwks: JWTVerifyGetKey | undefined;

  constructor(readonly config: OidcProviderConfig) {}

  get id(): string {
    return this.config.id;
  }

  private discover(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const url = `${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const response = await fetch(url, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), redirect: 'error' });
      if (!response.ok) throw new OidcError('provider_unavailable', `discovery answered ${response.status}`);
      const document = (await response.json()) as Discovery;
      if (document.issuer !== this.config.issuer) throw new OidcError('provider_misconfigured', 'discovery issuer does not match the configured issuer');
      return document;
    })().catch((error: unknown) => {
      this.discovery = undefined;
      throw error instanceof OidcError ? error : new OidcError('provider_unavailable', (error as Error).message);
    });
    return this.discovery;
  }

  async authorizationUrl(parameters: { redirectUri: string; state: string; nonce: string; codeChallenge: string }): Promise<string> {
    const { authorization_endpoint: endpoint } = await this.discover();
    const url = new URL(endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: parameters.redirectUri,
      scope: this.config.scopes,
      state: parameters.state,
      nonce: parameters.nonce,
      code_challenge: parameters.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** Exchanges an authorization code (with its PKCE verifier) for the ID token. */
  async exchangeCode(parameters: { code: string; redirectUri: string; codeVerifier: string }): Promise<string> {
    const { status, body } = await this.tokenRequest({
      grant_type: 'authorization_code',
      code: parameters.code,
      redirect_uri: parameters.redirectUri,
      code_verifier: parameters.codeVerifier,
    });
    if (status < 200 || status > 299) throw new OidcError('code_rejected', `token endpoint answered ${status}`);
    if (typeof body.id_token !== 'string') throw new OidcError('code_rejected', 'no id_token in the token response');
    return body.id_token;
  }

  /**
   * The resource-owner password grant (`grant_type=password`): the provider checks the e-mail and password of an
   * account created through its own e-mail/password method. Answers the ID token of the account, or `refused` when
   * the provider says the credentials are wrong (`invalid_grant`). Any other failure is an OidcError:
   * `provider_unavailable` (unreachable, slow, 5xx) or `provider_misconfigured` (the grant or the client refused).
   */
  async passwordGrant(username: string, password: string): Promise<{ kind: 'granted'; idToken: string } | { kind: 'refused' }> {
    const { status, body } = await this.tokenRequest({ grant_type: 'password', username, password, scope: this.config.scopes });
    if (status >= 500) throw new OidcError('provider_unavailable', `token endpoint answered ${status}`);
    if (status === 400 || status === 401) {
      if (body.error === 'invalid_grant') return { kind: 'refused' };
      throw new OidcError('provider_misconfigured', `token endpoint refused the password grant: ${String(body.error).slice(0, 64)}`);
    }
    if (status !== 200 || typeof body.id_token !== 'string') {
      throw new OidcError('provider_misconfigured', `token endpoint answered ${status} without an id_token`);
    }
    return { kind: 'granted', idToken: body.id_token };
  }

  /**
   * POSTs a grant (with the client's credentials) to the token endpoint. The answer's body is read up to 64 KiB and
   * parsed as JSON (anything else reads as `{}`); unreachable, slow or oversized answers are `provider_unavailable`.
   */
  private async tokenRequest(grant: Record<string, string>): Promise<{ status: number; body: TokenResponse }> {
    const { token_endpoint: endpoint } = await this.discover();
    const form = new URLSearchParams({
      ...grant,
      client_id: this.config.clientId,
      ...(this.config.clientSecret ? { client_secret: this.config.clientSecret } : {}),
    });
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        redirect: 'error',
      });
      text = await readBoundedText(response, MAX_TOKEN_RESPONSE_BYTES);
    } catch (error) {
      throw new OidcError('provider_unavailable', (error as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: typeof parsed === 'object' && parsed !== null ? (parsed as TokenResponse) : {} };
  }

  /** Verifies signature, issuer, audience, expiry (and nonce when given); returns the identity. */
  async verifyIdToken(idToken: string, expectedNonce?: string): Promise<VerifiedIdentity> {
    const { jwks_uri: jwksUri } = await this.discover();
    this.jwks ??= createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: PROVIDER_TIMEOUT_MS });
    try {
      const { payload } = await jwtVerify(idToken, this.jwks, {
        issuer: this.config.issuer,
        audience: this.config.clientId,
        algorithms: ID_TOKEN_ALGORITHMS,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (expectedNonce !== undefined && payload.nonce !== expectedNonce) throw new OidcError('invalid_token', 'nonce mismatch');
      if (typeof payload.email !== 'string' || !payload.email) throw new OidcError('invalid_token', 'the token carries no e-mail');
      return {
        provider: this.config.id,
        subject: String(payload.sub),
        email: payload.email.trim().toLowerCase(),
        emailVerified: payload.email_verified === true || payload.email_verified === 'true',
        name: typeof payload.name === 'string' ? payload.name.slice(0, 160) : '',
      };
    } catch (error) {
      if (error instanceof OidcError) throw error;
      if (error instanceof joseErrors.JOSEError) throw new OidcError('invalid_token', error.code);
      throw new OidcError('provider_unavailable', (error as Error).message);
    }
  }
}
