import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';

/** Claims of an access token: the user and the session it is bound to. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

const ISSUER = 'svc-location-platform';
const AUDIENCE = 'svc-api';
const ALGORITHM = 'HS256';

/**
 * Long-lived bearer JWTs bound to a session. The token alone proves nothing:
 * every use also checks that its session is still valid, so revoking the
 * session ends the token everywhere at once.
 */
export class AccessTokens {
  private readonly key: Uint8Array;
  /** The key imported once: handing jose raw bytes imports them again on every verification. */
  private cryptoKey: Promise<webcrypto.CryptoKey> | undefined;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  private verificationKey(): Promise<webcrypto.CryptoKey> {
    return (this.cryptoKey ??= webcrypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']));
  }

  async issue(claims: AccessClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * The claims of a genuine, unexpired token; null for anything else (wrong key, `alg: none`, expired, malformed,
   * or without `exp`: every token this server issues has one, and one without would never expire).
   */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.verificationKey(), { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE, requiredClaims: ['exp'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
