import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../src/shared/errors.js';

describe('error registry', () => {
  it('documents every code with its status in docs/errors.md', () => {
    const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    for (const [code, { status }] of Object.entries(errorCodes)) {
      expect(doc, `docs/errors.md must document ${code}`).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`));
    }
  });

  it('keeps the codes the spec names', () => {
    for (const code of ['FORBIDDEN', 'KEY_WEBSITE_NOT_ALLOWED', 'KEY_IP_NOT_ALLOWED', 'QUOTA_EXCEEDED', 'RATE_LIMITED', 'UNAUTHENTICATED', 'VALIDATION_ERROR', 'PROVIDER_ACCOUNT']) {
      expect(errorCodes).toHaveProperty(code);
    }
  });
});
