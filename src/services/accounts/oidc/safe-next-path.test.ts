import { describe, expect, it } from 'vitest';
import { safeNextPath } from './social-sign-in.js';

describe('safeNextPath', () => {
  it('keeps same-site paths and their query, drops the fragment', () => {
    expect(safeNextPath('/app')).toBe('/app');
    expect(safeNextPath('/a/b?c=1#frag')).toBe('/a/b?c=1');
  });

  it('sends everything that could leave the site to /', () => {
    for (const next of [undefined, '', 'https://evil.example', '//evil.example', '/\t/evil.example', '/\n/evil.example', '/\\evil.example', ' /app', 'app']) {
      expect(safeNextPath(next)).toBe('/');
    }
  });
});
