import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the styles drawn by a real Chromium (test/browser/); run by .ci/run after the suites. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    pool: 'forks',
    testTimeout: 150_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
