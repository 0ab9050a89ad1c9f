import { describe, expect, it } from 'vitest';
import { deriveWebhookSecret, signWebhook, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signatures (Standard Webhooks)', () => {
  it('reproduces the Standard Webhooks specification test vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  const secret = deriveWebhookSecret('master-key-for-tests', '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f');
  const body = JSON.stringify({ sessionId: '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f', seq: 3, type: 'arrived', at: '2026-01-01T00:00:00.000Z', data: {} });
  const now = 1_800_000_000;
  const headersFor = (signedBody: string, timestamp = now, id = '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f:3') => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, signedBody),
  });

  it('derives a stable whsec_ secret per session and master key', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(deriveWebhookSecret('master-key-for-tests', '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f')).toBe(secret);
    expect(deriveWebhookSecret('master-key-for-tests', '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e70')).not.toBe(secret);
    expect(deriveWebhookSecret('another-master-key', '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f')).not.toBe(secret);
  });

  it('verifies a signed delivery, from Node headers or fetch Headers', () => {
    expect(verifyWebhookSignature(secret, headersFor(body), body, { nowSeconds: now + 30 })).toEqual({
      valid: true,
      webhookId: '0b7e2a52-4c1d-4e0a-9d8f-3f1b2c4d5e6f:3',
      timestampSeconds: now,
    });
    expect(verifyWebhookSignature(secret, new Headers(headersFor(body)), Buffer.from(body), { nowSeconds: now }).valid).toBe(true);
  });

  it('accepts any one matching signature among several (secret rotation)', () => {
    const headers = headersFor(body);
    headers['webhook-signature'] = `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`;
    expect(verifyWebhookSignature(secret, headers, body, { nowSeconds: now }).valid).toBe(true);
  });

  it('rejects a tampered body, id or timestamp', () => {
    const headers = headersFor(body);
    expect(verifyWebhookSignature(secret, headers, body.replace('arrived', 'off_route'), { nowSeconds: now })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature(secret, { ...headers, 'webhook-id': 'other:3' }, body, { nowSeconds: now })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature(secret, { ...headers, 'webhook-timestamp': String(now + 1) }, body, { nowSeconds: now })).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects another session secret', () => {
    const otherSecret = deriveWebhookSecret('master-key-for-tests', 'another-session');
    expect(verifyWebhookSignature(otherSecret, headersFor(body), body, { nowSeconds: now })).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('rejects deliveries outside the tolerance, either way', () => {
    expect(verifyWebhookSignature(secret, headersFor(body, now - 301), body, { nowSeconds: now })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifyWebhookSignature(secret, headersFor(body, now + 301), body, { nowSeconds: now })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifyWebhookSignature(secret, headersFor(body, now - 50), body, { nowSeconds: now, toleranceSeconds: 10 }).valid).toBe(false);
  });

  it('rejects missing or malformed headers and unknown signature versions', () => {
    const headers = headersFor(body);
    expect(verifyWebhookSignature(secret, { ...headers, 'webhook-id': undefined }, body, { nowSeconds: now })).toEqual({ valid: false, reason: 'missing_headers' });
    expect(verifyWebhookSignature(secret, { ...headers, 'webhook-timestamp': 'yesterday' }, body, { nowSeconds: now })).toEqual({ valid: false, reason: 'missing_headers' });
    const v2 = headers['webhook-signature'].replace(/^v1,/, 'v2,');
    expect(verifyWebhookSignature(secret, { ...headers, 'webhook-signature': v2 }, body, { nowSeconds: now })).toEqual({ valid: false, reason: 'signature_mismatch' });
  });
});
