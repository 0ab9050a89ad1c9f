import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // the real-browser tests have their own run: npm run test:browser (vitest.browser.config.ts)
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    pool: 'forks',
    testTimeout: 30_000,
    // beforeAll hooks start one or two servers (test/support/server-process.ts allows each 60 s)
    hookTimeout: 130_000,
    // Two cores: black-box files start servers of their own, so keep the fan-out modest.
    maxWorkers: 2,
  },
});
