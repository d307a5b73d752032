// Client build: React, wasm as ES modules (vite-plugin-wasm) in the page and in module
// workers. In `npm run dev` the API and the sky data are proxied to the server on :8080.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import wasm from 'vite-plugin-wasm';

const server = process.env.GALAXY_CRUISE_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), wasm()],
  worker: {
    format: 'es',
    plugins: () => [wasm()],
  },
  build: {
    // DIST_DIR: the server reads the client from the same place (server/config.ts).
    outDir: process.env.DIST_DIR ?? 'dist',
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': server,
      '/stellar-globe': server,
    },
  },
});
