import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Contracts are consumed from source so web and server always agree without a build step. */
export const contractsAlias = {
  '@yyp/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
};

export default defineConfig({
  plugins: [react()],
  base: '/',
  resolve: { alias: contractsAlias },
  server: {
    port: 5173,
    proxy: {
      '/yyp': { target: 'http://localhost:8080', changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
});
