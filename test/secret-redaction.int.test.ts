import { describe, expect, it } from 'vitest';
import { keysWithScopes } from './support/api-keys.js';
import { useServer } from './support/server-fixture.js';

/**
 * Credentials in the request log (issue #22, fault 5): the log masked `api_key` only as spelled, so
 * `?%61pi_key=svc_…` authenticated and was logged in full. Masking now follows the gate's own decoding.
 */
const fixture = useServer();

async function logLineOf(requestId: string): Promise<string> {
  // the log is written in batches at least every 200 ms
  for (let attempt = 0; attempt < 20; attempt++) {
    const line = fixture.server.output.find((entry) => entry.includes(`"requestId":"${requestId}"`) && entry.includes('"msg":"request"'));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no log line for ${requestId}`);
}

describe('the request log', () => {
  it('masks a key whose parameter name is percent-encoded, as the gate decodes it', async () => {
    const { keys } = await keysWithScopes(fixture.api, { geo: true });
    const key = keys[0]!;
    const spellings = ['%61pi_key', 'api%5Fkey', 'api%5fkey', '%61%70%69%5f%6b%65%79', 'apiKey'];
    for (const [index, name] of spellings.entries()) {
      const requestId = `encoded-key-${index}-${Date.now()}`;
      const response = await fetch(`${fixture.server.baseUrl}/api/v1/geo/pluscode?lat=30.0626&lng=31.3219&${name}=${key}`, { headers: { 'x-request-id': requestId } });
      // the key authenticated: its quota headers are on the answer
      expect(response.status, name).toBe(200);
      expect(response.headers.get('x-svc-quota-limit-minute'), name).not.toBeNull();
      const line = await logLineOf(requestId);
      expect(line, name).not.toContain(key);
      expect(line, name).not.toContain(key.slice(4));
      expect(JSON.parse(line).url).toContain(`${name}=[redacted]`);
    }
  });

  it('masks access_token, authorization and x-api-key in any case, and leaves other parameters alone', async () => {
    const requestId = `query-secrets-${Date.now()}`;
    const secrets = ['tok-secret-1', 'auth-secret-2', 'key-secret-3', 'token-secret-4'];
    await fetch(
      `${fixture.server.baseUrl}/health?access_token=${secrets[0]}&Authorization=${secrets[1]}&x-api-key=${secrets[2]}&ACCESS%5FTOKEN=${secrets[3]}&lat=30.1`,
      { headers: { 'x-request-id': requestId } },
    );
    const line = await logLineOf(requestId);
    for (const secret of secrets) expect(line).not.toContain(secret);
    expect(JSON.parse(line).url).toBe('/health?access_token=[redacted]&Authorization=[redacted]&x-api-key=[redacted]&ACCESS%5FTOKEN=[redacted]&lat=30.1');
  });
});
