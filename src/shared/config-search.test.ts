import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('search settings', () => {
  it('defaults to no embeddings endpoint, a 300 ms limit and 30 days of event counters', () => {
    expect(loadConfig({}).EMBEDDINGS_URL).toBeUndefined();
    expect(loadConfig({})).toMatchObject({ EMBEDDINGS_MODEL: 'text-embedding-3-small', EMBEDDINGS_TIMEOUT_MS: 300, SEARCH_EVENT_RETENTION_DAYS: 30 });
  });

  it('takes an https endpoint anywhere and an http one on loopback only', () => {
    expect(loadConfig({ EMBEDDINGS_URL: 'https://api.example.com/v1/embeddings' }).EMBEDDINGS_URL).toBe('https://api.example.com/v1/embeddings');
    expect(loadConfig({ EMBEDDINGS_URL: 'http://127.0.0.1:8089/v1/embeddings' }).EMBEDDINGS_URL).toBe('http://127.0.0.1:8089/v1/embeddings');
    expect(loadConfig({ EMBEDDINGS_URL: '' }).EMBEDDINGS_URL).toBeUndefined();
  });

  it('refuses endpoints that could reach into the network unencrypted, carry credentials or are not URLs', () => {
    for (const url of ['http://10.0.0.5/v1/embeddings', 'http://169.254.169.254/latest', 'ftp://127.0.0.1/x', 'https://user:secret@api.example.com/v1', 'not a url']) {
      expect(() => loadConfig({ EMBEDDINGS_URL: url }), url).toThrow(ConfigError);
    }
    expect(() => loadConfig({ EMBEDDINGS_TIMEOUT_MS: '5' })).toThrow(/EMBEDDINGS_TIMEOUT_MS/);
    expect(() => loadConfig({ SEARCH_EVENT_RETENTION_DAYS: '0' })).toThrow(/SEARCH_EVENT_RETENTION_DAYS/);
  });
});
