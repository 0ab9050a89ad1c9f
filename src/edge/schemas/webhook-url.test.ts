import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WebhookUrlPolicy } from '../../services/webhooks/webhook-url-guard.js';
import { ApiError } from '../../shared/errors.js';
import { validate } from '../input.js';
import { webhookDeliveriesQuery, webhookUrlField } from './webhook-url.js';

const body = z.object({ webhookUrl: webhookUrlField(new WebhookUrlPolicy()).optional() });

describe('webhookUrl body field', () => {
  it('passes the normalised URL of a public https endpoint to the handler', () => {
    expect(validate('body', body, { webhookUrl: ' https://Hooks.Example.com/nav ' })).toEqual({ webhookUrl: 'https://hooks.example.com/nav' });
    expect(validate('body', body, {})).toEqual({});
  });

  it.each([
    ['http://hooks.example.com/nav', 'webhookUrl: must be an https URL'],
    ['https://169.254.169.254/latest', 'webhookUrl: must not point to a private, loopback or otherwise non-public address'],
    ['https://metadata.google.internal/', 'webhookUrl: must name a public host'],
  ])('answers %s with a 400 naming the field', (webhookUrl, message) => {
    let error: unknown;
    try {
      validate('body', body, { webhookUrl });
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).messages).toEqual([message]);
  });

  it('bounds the deliveries listing', () => {
    expect(validate('query', webhookDeliveriesQuery, {})).toEqual({ limit: 20 });
    expect(validate('query', webhookDeliveriesQuery, { limit: '100' })).toEqual({ limit: 100 });
    expect(() => validate('query', webhookDeliveriesQuery, { limit: '101' })).toThrow(ApiError);
    expect(() => validate('query', webhookDeliveriesQuery, { limit: '0' })).toThrow(ApiError);
  });
});
