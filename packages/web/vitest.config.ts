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
    // A route-tree test renders the whole signed-in shell in jsdom: several seconds on a busy machine.
    testTimeout: 15_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
