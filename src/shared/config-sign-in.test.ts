import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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

describe('OIDC provider password grant', () => {
  it('is off unless the provider entry says passwordGrant: true', () => {
    expect(loadConfig({ OIDC_PROVIDERS: JSON.stringify([provider]) }).OIDC_PROVIDERS[0]!.passwordGrant).toBe(false);
    expect(loadConfig({ OIDC_PROVIDERS: JSON.stringify([{ ...provider, passwordGrant: true }]) }).OIDC_PROVIDERS[0]!.passwordGrant).toBe(true);
  });

  it('refuses a passwordGrant that is not a boolean', () => {
    expect(issuesOf({ OIDC_PROVIDERS: JSON.stringify([{ ...provider, passwordGrant: 'yes' }]) })).toEqual(['OIDC_PROVIDERS.0.passwordGrant: must be true or false']);
  });
});
