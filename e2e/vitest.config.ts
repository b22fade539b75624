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
    // expect.poll waits for what the page shows after an answer (a row gone, two sheets drawn): its
    // default second was too short on a busy machine (2026-11-29, beside a benchmark seed: a deleted
    // exam's row still listed after 1 s, and the cascade broke three later files that need it back).
    // A page's own steps wait up to 15 s (openPage); the same here, polled every 100 ms.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    hookTimeout: 120_000,
  },
});
