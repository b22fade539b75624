import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

/** Contracts are consumed from source so web and server always agree without a build step. */
export const contractsAlias = {
  '@yyp/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
};

export default defineConfig({
  // Source maps to dist-maps (not served), .br and .gz copies beside each asset (precompress.ts).
  plugins: [react(), precompress({ mapsDir: fileURLToPath(new URL('./dist-maps', import.meta.url)) })],
  // The image loader's decode worker splits its codecs (WebAssembly, bundled as assets) into
  // chunks: only ES workers can.
  worker: { format: 'es' },
  // The server fills each answer's style nonce in here (server platform/page-headers.ts): Vite
  // writes <meta property="csp-nonce">, which src/app/csp.ts reads for the styles the app injects.
  html: { cspNonce: 'YYP_CSP_NONCE' },
  base: '/',
  resolve: {
    alias: {
      ...contractsAlias,
      // vtk.js (under Cornerstone3D) bundles xmlbuilder2, a CommonJS package that extends Node's
      // EventEmitter: the browser gets the 'events' package in its place.
      events: fileURLToPath(new URL('../../node_modules/events/events.js', import.meta.url)),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/yyp': { target: 'http://localhost:8080', changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Built for reading error reports, but not served: no sourceMappingURL comment in the bundles,
    // and the maps move to dist-maps after the build (precompress.ts).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1500,
  },
});
