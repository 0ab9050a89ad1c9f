import { describe, expect, it } from 'vitest';
import { PaymentWebhook, signPayload, verifySignature } from './payment-webhook.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnop';
const BODY = Buffer.from('{"id":"evt_1"}');
const NOW_S = 1_800_000_000;

const reasonOf = (header: string | undefined, body = BODY, nowS = NOW_S) => {
  try {
    verifySignature(SECRET, header, body, nowS * 1000, 300);
    return 'ok';
  } catch (error) {
    return (error as { details: { reason: string } }).details.reason;
  }
};

describe('verifySignature', () => {
  it('accepts the signature of the exact bytes within the window, and one of several v1 values', () => {
    const header = signPayload(SECRET, NOW_S, BODY);
    expect(reasonOf(header)).toBe('ok');
    expect(reasonOf(header, BODY, NOW_S + 300)).toBe('ok');
    expect(reasonOf(`${header},v1=${'ab'.repeat(32)}`)).toBe('ok');
    expect(reasonOf(`t=${NOW_S},v1=${'ab'.repeat(32)},${header.split(',')[1]}`)).toBe('ok');
  });

  it('refuses a missing or malformed header, another body or secret, and a timestamp outside the window', () => {
    const header = signPayload(SECRET, NOW_S, BODY);
    expect(reasonOf(undefined)).toBe('signature_missing');
    expect(reasonOf('v1=abc')).toBe('signature_malformed');
    expect(reasonOf(`t=${NOW_S}`)).toBe('signature_malformed');
    expect(reasonOf(header, Buffer.from('{"id":"evt_2"}'))).toBe('signature_mismatch');
    expect(reasonOf(signPayload('another-secret-0123456789abcdefghijkl', NOW_S, BODY))).toBe('signature_mismatch');
    expect(reasonOf(header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='))).toBe('ok');
    expect(reasonOf(`t=${NOW_S},v1=${header.split('v1=')[1]!.slice(0, 63)}`)).toBe('signature_mismatch');
    expect(reasonOf(header, BODY, NOW_S + 301)).toBe('timestamp_out_of_tolerance');
    expect(reasonOf(header, BODY, NOW_S - 301)).toBe('timestamp_out_of_tolerance');
    // the timestamp is signed: moving it breaks the signature
    expect(reasonOf(header.replace(`t=${NOW_S}`, `t=${NOW_S + 1}`))).toBe('signature_mismatch');
  });
});

describe('PaymentWebhook without a secret', () => {
  it('refuses an unsigned request as unsigned, and a signed one as not configured (503), changing nothing', async () => {
    const untouched = () => {
      throw new Error('must not be reached');
    };
    const webhook = new PaymentWebhook({
      secret: undefined,
      toleranceS: 300,
      repository: { applyEvent: untouched } as never,
      users: { findById: untouched },
      entitlements: { forget: untouched } as never,
    });
    await expect(webhook.receive({}, BODY)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', details: { reason: 'signature_missing' } });
    await expect(webhook.receive({ 'svc-signature': signPayload(SECRET, NOW_S, BODY) }, BODY)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { reason: 'not_configured' },
    });
  });
});
