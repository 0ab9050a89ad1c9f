import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('geocoding and addressing settings', () => {
  it('defaults to geocoding on and no site URL', () => {
    const config = loadConfig({});
    expect(config.GEOCODING_ENABLED).toBe(true);
    expect(config.SITE_URL).toBeUndefined();
  });

  it('reads GEOCODING_ENABLED as a boolean and SITE_URL without a trailing slash', () => {
    expect(loadConfig({ GEOCODING_ENABLED: 'false', SITE_URL: 'https://maps.example.jo/' })).toMatchObject({ GEOCODING_ENABLED: false, SITE_URL: 'https://maps.example.jo' });
    const blank = loadConfig({ GEOCODING_ENABLED: 'on', SITE_URL: '' });
    expect(blank.GEOCODING_ENABLED).toBe(true);
    expect(blank.SITE_URL).toBeUndefined();
  });

  it('refuses a SITE_URL that is not http(s) and a GEOCODING_ENABLED that is not a boolean', () => {
    expect(() => loadConfig({ SITE_URL: 'ftp://example.jo' })).toThrow(ConfigError);
    expect(() => loadConfig({ GEOCODING_ENABLED: 'maybe' })).toThrow(/GEOCODING_ENABLED/);
  });
});
