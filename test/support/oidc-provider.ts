import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type CryptoKey } from 'jose';

export interface TestUser {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

/**
 * A real OpenID Connect provider for tests: discovery, JWKS with its own RSA
 * key, an authorization endpoint that approves the current user, and a token
 * endpoint that checks the PKCE verifier and signs real ID tokens. The token
 * endpoint also takes the resource-owner password grant for the accounts in
 * `passwordAccounts` (off with `passwordGrantEnabled = false`); with
 * `tokenEndpointDown` it drops every token request's connection.
 */
export class TestOidcProvider {
  issuer = '';
  readonly clientId = 'svc-test-client';
  currentUser: TestUser = { sub: 'user-1', email: 'someone@example.jo', email_verified: true };
  private server: Server | undefined;
  private privateKey!: CryptoKey;
  private publicJwk!: Record<string, unknown>;
  /** E-mail/password accounts of the provider, by username. */
  readonly passwordAccounts = new Map<string, { password: string; user: TestUser }>();
  passwordGrantEnabled = true;
  tokenEndpointDown = false;
  /** Password grants received (username and client id; never the password). */
  readonly passwordGrants: Array<{ username: string; clientId: string; scope: string }> = [];
  private readonly codes = new Map<string, { nonce: string; challenge: string; redirectUri: string; user: TestUser }>();

  async start(): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    this.privateKey = privateKey;
    this.publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Signs an ID token with the provider's key; `overrides` can break any claim. */
  signIdToken(user: TestUser, overrides: JWTPayload = {}, key: CryptoKey = this.privateKey): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: user.email, email_verified: user.email_verified ?? true, name: user.name, ...overrides })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer((overrides.iss as string | undefined) ?? this.issuer)
      .setAudience((overrides.aud as string | undefined) ?? this.clientId)
      .setSubject(user.sub)
      .setIssuedAt((overrides.iat as number | undefined) ?? now)
      .setExpirationTime((overrides.exp as number | undefined) ?? now + 300)
      .sign(key);
  }

  private async handle(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.issuer);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [this.publicJwk] });
    if (url.pathname === '/authorize') {
      const parameters = url.searchParams;
      if (parameters.get('client_id') !== this.clientId || parameters.get('code_challenge_method') !== 'S256') return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        nonce: parameters.get('nonce') ?? '',
        challenge: parameters.get('code_challenge') ?? '',
        redirectUri: parameters.get('redirect_uri') ?? '',
        user: this.currentUser,
      });
      const target = new URL(parameters.get('redirect_uri') ?? '');
      target.searchParams.set('code', code);
      target.searchParams.set('state', parameters.get('state') ?? '');
      response.writeHead(302, { location: target.toString() });
      return void response.end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      if (this.tokenEndpointDown) return void request.socket.destroy();
      let raw = '';
      for await (const chunk of request) raw += chunk;
      const form = new URLSearchParams(raw);
      if (form.get('grant_type') === 'password') return json(...(await this.passwordGrant(form)));
      const grant = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
        return json(400, { error: 'invalid_grant' });
      }
      return json(200, { id_token: await this.signIdToken(grant.user, { nonce: grant.nonce }), token_type: 'Bearer' });
    }
    json(404, { error: 'not_found' });
  }

  /** RFC 6749 §4.3: `invalid_grant` for wrong credentials, the account's ID token otherwise. */
  private async passwordGrant(form: URLSearchParams): Promise<[number, unknown]> {
    if (!this.passwordGrantEnabled) return [400, { error: 'unsupported_grant_type' }];
    if (form.get('client_id') !== this.clientId) return [401, { error: 'invalid_client' }];
    const username = form.get('username') ?? '';
    this.passwordGrants.push({ username, clientId: form.get('client_id') ?? '', scope: form.get('scope') ?? '' });
    const account = this.passwordAccounts.get(username);
    if (!account || account.password !== form.get('password')) return [400, { error: 'invalid_grant', error_description: 'Invalid user credentials' }];
    return [200, { id_token: await this.signIdToken(account.user), access_token: randomBytes(16).toString('hex'), token_type: 'Bearer' }];
  }
}
