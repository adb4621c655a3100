import { defineConfig } from 'vitest/config';

// End-to-end tests: the built site, the real server on a fresh SQLite database, Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
