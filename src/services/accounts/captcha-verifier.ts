import { readBoundedText } from '../../shared/bounded-body.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';

/** A siteverify answer is a few hundred bytes; anything near this is not one. */
const MAX_VERIFY_RESPONSE_BYTES = 16 * 1024;
/** Error codes naming the server's own configuration, not the visitor's token (hCaptcha and Turnstile spellings). */
const CONFIGURATION_ERROR_CODES = new Set(['missing-input-secret', 'invalid-input-secret', 'sitekey-secret-mismatch', 'invalid-or-already-seen-secret']);
/** How many of the verifier's error codes are passed on to the client. */
const MAX_REPORTED_ERROR_CODES = 8;

export interface CaptchaSettings {
  siteKey: string;
  secret: string;
  /** An hCaptcha / Turnstile-compatible `siteverify` endpoint (operator configuration, never user input). */
  verifyUrl: string;
  timeoutMs: number;
}

interface SiteverifyAnswer {
  success: boolean;
  errorCodes: string[];
}

/**
 * Checks the captcha token of the browser sign-in form (spec part 1 §4.2:
 * `captchaToken` on register and login) with the captcha service's
 * `siteverify` endpoint: POST form `secret`, `response`, `remoteip`; JSON
 * `{ success, "error-codes" }`. It fails closed: a verifier that cannot be
 * reached, is slow or answers nonsense refuses the sign-in (503
 * CAPTCHA_UNAVAILABLE), never lets it through.
 */
export class CaptchaVerifier {
  constructor(
    readonly settings: CaptchaSettings,
    private readonly logger: Logger,
  ) {}

  get siteKey(): string {
    return this.settings.siteKey;
  }

  /** Resolves when the token is a solved captcha; throws 400 CAPTCHA_FAILED or 503 CAPTCHA_UNAVAILABLE otherwise. */
  async verify(token: string | undefined, remoteIp: string): Promise<void> {
    if (!token) throw new ApiError('CAPTCHA_FAILED', { message: 'captchaToken is required', details: { reason: 'missing_token' } });
    const answer = await this.ask(token, remoteIp);
    if (answer.success) return;
    if (answer.errorCodes.some((code) => CONFIGURATION_ERROR_CODES.has(code))) {
      // Our secret is wrong: the visitor cannot fix that, the operator must.
      this.logger.error({ verifier: new URL(this.settings.verifyUrl).origin, errorCodes: answer.errorCodes }, 'captcha verifier refuses the configured secret');
      throw unavailable('verifier_misconfigured');
    }
    throw new ApiError('CAPTCHA_FAILED', {
      message: 'The captcha token was not accepted',
      details: { reason: 'rejected', errorCodes: answer.errorCodes.slice(0, MAX_REPORTED_ERROR_CODES) },
    });
  }

  private async ask(token: string, remoteIp: string): Promise<SiteverifyAnswer> {
    const form = new URLSearchParams({ secret: this.settings.secret, response: token, ...(remoteIp ? { remoteip: remoteIp } : {}) });
    const verifier = new URL(this.settings.verifyUrl).origin;
    try {
      const response = await fetch(this.settings.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        // The one signal bounds connecting, the headers and the body alike.
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
      const text = await readBoundedText(response, MAX_VERIFY_RESPONSE_BYTES);
      if (!response.ok) throw new Error(`verifier answered ${response.status}`);
      return parseAnswer(text);
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.logger.warn({ verifier, timedOut, err: (error as Error).message }, 'captcha verifier unavailable: sign-in refused');
      throw unavailable(timedOut ? 'verifier_timeout' : 'verifier_unavailable');
    }
  }
}

function unavailable(reason: string): ApiError {
  return new ApiError('CAPTCHA_UNAVAILABLE', { message: 'The captcha could not be checked; try again shortly', details: { reason }, headers: { 'retry-after': '5' } });
}

function parseAnswer(text: string): SiteverifyAnswer {
  const body: unknown = JSON.parse(text);
  if (typeof body !== 'object' || body === null || typeof (body as { success?: unknown }).success !== 'boolean') {
    throw new Error('verifier answer has no boolean "success"');
  }
  const codes = (body as { 'error-codes'?: unknown })['error-codes'];
  return {
    success: (body as { success: boolean }).success,
    errorCodes: Array.isArray(codes) ? codes.filter((code): code is string => typeof code === 'string').map((code) => code.slice(0, 64)) : [],
  };
}
