import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const SHARED = { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://cache', NATS_URL: 'nats://bus:4222' };

describe('REUSE_PORT', () => {
  it('is off by default and on only with every shared backend and a named port', () => {
    expect(loadConfig({}).REUSE_PORT).toBe(false);
    expect(loadConfig({ ...SHARED, REUSE_PORT: 'true', PORT: '8080' }).REUSE_PORT).toBe(true);
  });

  it('names the embedded stores it cannot share, and refuses port 0', () => {
    expect(() => loadConfig({ REDIS_URL: SHARED.REDIS_URL, REUSE_PORT: 'true' })).toThrow(/REUSE_PORT: needs shared state: set DATABASE_URL, NATS_URL/);
    expect(() => loadConfig({ ...SHARED, REUSE_PORT: 'yes', PORT: '0' })).toThrow(/REUSE_PORT: needs a named PORT/);
    expect(() => loadConfig({ ...SHARED, REUSE_PORT: 'sometimes' })).toThrow(/REUSE_PORT/);
  });
});
