import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: the real server process (as `npm start` runs it) and Debian's Chromium; also the
// fault tests that kill and restart that process (tests/faults/*.e2e.test.ts).
// They run one file at a time; each file starts its own server on free ports with a fresh DATA_DIR.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts', 'tests/faults/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
