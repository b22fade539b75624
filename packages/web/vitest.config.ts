import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { contractsAlias } from './vite.config.ts';

/**
 * Web unit and component tests (jsdom). Run alone with `npx vitest run --root packages/web`,
 * or as the `web` project of a root vitest.config.ts (`projects: ['packages/web', ...]`).
 */
export default defineProject({
  plugins: [react()],
  resolve: { alias: contractsAlias },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // A route-tree test renders the whole signed-in shell in jsdom: several seconds on a busy machine
    // (AppShell's logout tests took 14–17 s beside the lint and other work on 2026-11-28; 30 s).
    testTimeout: 30_000,
    // React, antd and the features are imported once per worker rather than once per file: about
    // 40% less CPU for this tier (measured on features/organizations: 111 s → 65 s user). A file
    // must leave no global changed behind (restoreMocks and unstubGlobals below undo mocks and
    // stubs; the setup file clears storage and the DOM between tests).
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
