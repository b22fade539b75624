import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const alias = { '@yyp/contracts': contracts };

/**
 * Test tiers (shared/CONVENTIONS.md §12): `unit` is pure logic, `web` is the React app in jsdom,
 * `int` boots the API with app.inject on PGlite, or on PostgreSQL when DATABASE_URL is set.
 * e2e has its own config in e2e/.
 */
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/contracts/src/**/*.test.ts',
            'packages/server/src/**/*.test.ts',
            'eslint-rules/**/*.test.js',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'int',
          environment: 'node',
          include: ['packages/server/src/**/*.int.test.ts'],
          // Every file starts its own app and database (the harness), so the files share nothing
          // but the imported modules: importing the server once per worker rather than once per
          // file saves minutes a tier. A file must not leave a global changed (env, timers, mocks).
          isolate: false,
          // They run beside the e2e at a lower priority (scripts/test-all.mjs): the slowest took 25 s
          // alone on 2026-11-28, so 60 s leaves room for the pauses the e2e causes them.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      'packages/*/vitest.config.ts',
    ],
  },
});
