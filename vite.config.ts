import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';

// One config for the SPA build and for the unit/integration test projects.
// The SPA loads pkg/ (wasm-pack, target bundler) through vite-plugin-wasm; Node code loads the same
// pkg/ through shared-core/trade-core-node.ts.
export default defineConfig({
  plugins: [react(), wasm()],
  build: { target: 'es2022', outDir: 'dist', chunkSizeWarningLimit: 800 },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core machine. Most files wait on
    // PGlite, sockets and child processes, so two workers there take the suite from 489 s to 358 s (measured
    // with the signal-to-order bench beside it, every test passing); more cores keep the default.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
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
            'shared-core/**/*.test.ts',
            'tests/core/**/*.test.ts',
            'tests/contract/**/*.test.ts',
            'tests/exchange/**/*.test.ts',
            'tests/scale/**/*.test.ts',
            'tests/faults/**/*.test.ts',
          ],
          // tests/faults/*.e2e.test.ts run the real server process and Chromium: tests/e2e/vitest.config.ts.
          exclude: [...configDefaults.exclude, 'tests/faults/**/*.e2e.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Route tests again on a real PostgreSQL, a fresh database per app (server/test/test-app.ts), when
      // scripts/with-postgres provides the server (scripts/test-all does). PGlite is PostgreSQL's own engine on
      // one connection, so the second pass adds something only where several connections or the pg driver can
      // differ: transactions and row locks taken by concurrent requests (the rate limiter behind logins and the
      // relay, refresh-token rotation, concurrent opens and the risk limits), upserts (trade tokens, preferences,
      // the relay's replay memory), and hand-written SQL and the driver's types (statistics, analysis, the
      // signal feeds, the export's every column). The other route files (user, platform, paper_exchange,
      // websocket-token, symbol, candles, trade_server, account_balance) run plain reads and inserts that
      // PGlite already proves; server/src/db/db.test.ts runs the migrations on PostgreSQL too.
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'node-postgres',
                environment: 'node',
                include: [
                  'server/src/routes/auth/{auth,login-limits,login-lanes,token-revocation}.test.ts',
                  // Another trader's push endpoint is refused in the insert itself (issue 52).
                  'server/src/routes/push/push-takeover.test.ts',
                  'server/src/routes/exchange_relay/*.test.ts',
                  'server/src/routes/trade/*.test.ts',
                  'server/src/routes/trade_token/*.test.ts',
                  'server/src/routes/{trade,platform}_preferences/*.test.ts',
                  'server/src/routes/{public,analysis,signal}/*.test.ts',
                  // Instances behind one egress address pause together through the database.
                  'server/src/services/exchange-pauses.test.ts',
                  // The followed accounts' upserts and the streams' wanted-set query (issue 37).
                  'server/src/services/account-streams.test.ts',
                  // The push subscriptions' upserts, the VAPID keys' first store, the kinds' joins (issue 41).
                  'server/src/services/web-push.test.ts',
                  // The candles' day rows: the live upsert of one minute, the bulk rows, the loader (issue 42).
                  'server/src/engine/candle-store.test.ts',
                  // One trade per symbol across instances: the lock is PostgreSQL's (issue 52).
                  'server/src/routes/trade_server/one-per-symbol.test.ts',
                  // The analysis's day rows read back through the pg driver (issue 52).
                  'server/src/engine/analysis-data.test.ts',
                ],
                env: { SIGNALDESK_TEST_DATABASE: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
