import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The browser-test files, longest first, so parallel workers finish together (a long file started last would
// run alone at the end). The seconds are a run's stage table (scripts/test-all) on this 2-core machine; a
// file not listed here runs after these, and a new long file belongs in the list.

const MEASURED_SECONDS: Record<string, number> = {
  'tests/e2e/walk.test.ts': 256,
  'tests/faults/process-kill.e2e.test.ts': 137,
  'tests/e2e/trading-client.test.ts': 110,
  'tests/faults/exchange-faults.e2e.test.ts': 82,
  'tests/e2e/live-signals.test.ts': 75,
  'tests/e2e/trading-server.test.ts': 55,
  'tests/e2e/exits-on-exchange.test.ts': 36,
  'tests/e2e/money-first.test.ts': 40,
  'tests/e2e/screens.test.ts': 40,
  'tests/e2e/screens-input.test.ts': 22,
  'tests/e2e/readme-screenshot.test.ts': 19,
  'tests/e2e/accounts-flows.test.ts': 17,
  'tests/e2e/push.test.ts': 25,
  'tests/e2e/what-if.test.ts': 60,
  'tests/e2e/many-trades.test.ts': 10,
  'tests/e2e/insights.test.ts': 7,
  'tests/e2e/skeleton.test.ts': 4,
};

const REPO = path.resolve(import.meta.dirname, '../..');

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (file: TestSpecification) => MEASURED_SECONDS[path.relative(REPO, file.moduleId)] ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}

// Browser end-to-end tests: the real server process (as `npm start` runs it) and Debian's Chromium; also the
// fault tests that kill and restart that process (tests/faults/*.e2e.test.ts).
// Each file starts its own server on free ports with a fresh DATA_DIR and its own paper exchange (so its own
// request budget), so files run in parallel, E2E_WORKERS at once, longest first (LongestFirst above); the tests
// inside a file run in order (they share one trader session). Measured on the 2-core machine with the
// signal-to-order bench looping beside, the same 47 tests green each time: one at a time 863 s, two 475 s,
// three 352 s (the walk, 292 s, is then the whole critical path). The files mostly wait (countdowns, backfill,
// the exchange), so three fit on two cores.
const workers = Number(process.env.E2E_WORKERS ?? 3);

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts', 'tests/faults/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
  },
});
