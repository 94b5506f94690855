import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';

// One config for the SPA build and for the unit/integration test projects.
// The SPA loads pkg/ (wasm-pack, target bundler) through vite-plugin-wasm; Node code loads the same
// pkg/ through server/src/lib/trade-core.ts.
export default defineConfig({
  plugins: [react(), wasm()],
  build: { target: 'es2022', outDir: 'dist', chunkSizeWarningLimit: 800 },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'spa', environment: 'jsdom', include: ['src/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'paper-exchange/**/*.test.ts',
            'contracts/**/*.test.ts',
            'tests/core/**/*.test.ts',
            'tests/contract/**/*.test.ts',
            'tests/exchange/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
