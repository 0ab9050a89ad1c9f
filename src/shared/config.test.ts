import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_BODY_LIMIT_BYTES, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './var',
      BODY_LIMIT_BYTES: DEFAULT_BODY_LIMIT_BYTES,
    });
    expect([config.DATABASE_URL, config.REDIS_URL, config.NATS_URL]).toEqual([undefined, undefined, undefined]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('treats empty URLs as unset and splits NATS server lists', () => {
    const config = loadConfig({ DATABASE_URL: '', REDIS_URL: ' ', NATS_URL: 'nats://a:4222, nats://b:4222' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.NATS_URL).toEqual(['nats://a:4222', 'nats://b:4222']);
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', REDIS_URL: 'not a url', NATS_URL: 'http://x', BODY_LIMIT_BYTES: 'lots' });
    } catch (failure) {
      error = failure;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).issues.map((issue) => issue.split(':')[0]);
    expect(names.sort()).toEqual(['BODY_LIMIT_BYTES', 'DATABASE_URL', 'NATS_URL', 'PORT', 'REDIS_URL']);
  });

  it('gives WebSocket caps defaults and refuses caps below one', () => {
    expect(loadConfig({})).toMatchObject({ WS_MAX_PER_USER: 16, WS_MAX_PER_KEY: 1000, WS_MAX_PER_IP: 128, WS_MAX_UNAUTHENTICATED_PER_IP: 16, WS_AUTH_TIMEOUT_MS: 10_000 });
    expect(loadConfig({ WS_MAX_PER_USER: '3', WS_AUTH_TIMEOUT_MS: '2500' })).toMatchObject({ WS_MAX_PER_USER: 3, WS_AUTH_TIMEOUT_MS: 2500 });
    expect(() => loadConfig({ WS_MAX_PER_IP: '0' })).toThrow(/WS_MAX_PER_IP/);
    expect(() => loadConfig({ WS_MAX_UNAUTHENTICATED_PER_IP: 'many' })).toThrow(/WS_MAX_UNAUTHENTICATED_PER_IP/);
    expect(() => loadConfig({ WS_AUTH_TIMEOUT_MS: '10' })).toThrow(/WS_AUTH_TIMEOUT_MS/);
  });

  it('refuses names that could escape into SQL or subjects', () => {
    expect(() => loadConfig({ DATABASE_SCHEMA: 'public; drop table x' })).toThrow(/DATABASE_SCHEMA/);
    expect(() => loadConfig({ BUS_NAMESPACE: 'a.b' })).toThrow(/BUS_NAMESPACE/);
  });

  it('reads METRICS_PORT as unset when empty, and refuses it equal to PORT', () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
  });

  it('reads the webhook allow-list as lower-case host or host:port entries, empty by default', () => {
    expect(loadConfig({}).WEBHOOK_ALLOWED_HOSTS).toEqual([]);
    expect(loadConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, Hooks.Test:8080,[::1]' }).WEBHOOK_ALLOWED_HOSTS).toEqual(['127.0.0.1', 'hooks.test:8080', '[::1]']);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://127.0.0.1' })).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
  });
});
