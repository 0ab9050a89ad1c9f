import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const captcha = { CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: 'secret', CAPTCHA_VERIFY_URL: 'https://captcha.example/siteverify' };
const provider = { id: 'idp', label: 'IdP', issuer: 'https://idp.example', clientId: 'client' };

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  return [];
}

describe('captcha configuration', () => {
  it('is off without any setting and on with all three, with a 5 s verifier timeout', () => {
    const off = loadConfig({});
    expect([off.CAPTCHA_SITE_KEY, off.CAPTCHA_SECRET, off.CAPTCHA_VERIFY_URL, off.CAPTCHA_TIMEOUT_MS]).toEqual([undefined, undefined, undefined, 5_000]);
    expect(loadConfig(captcha)).toMatchObject(captcha);
  });

  it('refuses half a configuration, naming what is missing', () => {
    expect(issuesOf({ CAPTCHA_SITE_KEY: 'site' }).map((issue) => issue.split(':')[0]).sort()).toEqual(['CAPTCHA_SECRET', 'CAPTCHA_VERIFY_URL']);
    expect(issuesOf({ CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET: 'secret' }).map((issue) => issue.split(':')[0])).toEqual(['CAPTCHA_VERIFY_URL']);
    expect(issuesOf({ CAPTCHA_SECRET: 'secret', CAPTCHA_VERIFY_URL: captcha.CAPTCHA_VERIFY_URL }).map((issue) => issue.split(':')[0])).toEqual(['CAPTCHA_SITE_KEY']);
  });

  it('sends the secret over https only, or to a verifier on loopback', () => {
    expect(issuesOf({ ...captcha, CAPTCHA_VERIFY_URL: 'http://captcha.example/siteverify' })[0]).toMatch(/^CAPTCHA_VERIFY_URL: must be an https URL/);
    expect(issuesOf({ ...captcha, CAPTCHA_VERIFY_URL: 'not a url' })[0]).toMatch(/^CAPTCHA_VERIFY_URL/);
    expect(loadConfig({ ...captcha, CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/siteverify' }).CAPTCHA_VERIFY_URL).toBe('http://127.0.0.1:9999/siteverify');
    expect(issuesOf({ ...captcha, CAPTCHA_TIMEOUT_MS: '10' })[0]).toMatch(/^CAPTCHA_TIMEOUT_MS/);
  });
});

describe('OIDC provider password grant', () => {
  it('is off unless the provider entry says passwordGrant: true', () => {
    expect(loadConfig({ OIDC_PROVIDERS: JSON.stringify([provider]) }).OIDC_PROVIDERS[0]!.passwordGrant).toBe(false);
    expect(loadConfig({ OIDC_PROVIDERS: JSON.stringify([{ ...provider, passwordGrant: true }]) }).OIDC_PROVIDERS[0]!.passwordGrant).toBe(true);
  });

  it('refuses a passwordGrant that is not a boolean', () => {
    expect(issuesOf({ OIDC_PROVIDERS: JSON.stringify([{ ...provider, passwordGrant: 'yes' }]) })).toEqual(['OIDC_PROVIDERS.0.passwordGrant: must be true or false']);
  });
});
