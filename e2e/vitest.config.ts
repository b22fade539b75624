import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: the built server (`npm run build` first) on a fresh data directory, driven
 * through Debian's Chromium with playwright-core. Run: npx vitest run --config e2e/vitest.config.ts
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./globalSetup.ts'],
    setupFiles: ['./setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
