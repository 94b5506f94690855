// Restart consistency of the stored track record: the live core's storing is cut off after some steps (the
// last one rolled back after it ran, as a kill before the commit would), then a new live core on the same
// database restores and replays an overlapping later candle window, as a restarted server does. Whatever the
// cut, every stored accuracy must equal the hit rate over the stored outcomes it was measured over, and a
// neuron never has two signals open at once on one symbol.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from '../db';
import { expectConsistent, runCore, seededMarket, seedReplayDatabase } from '../../test/replay-testing';

/** The database as the live core sees it until `commits` steps are stored; then the process "dies". */
function dyingAfter(db: Database, commits: number): Database {
  let left = commits;
  return new Proxy(db, {
    get(target, key) {
      if (key !== 'transaction') {
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (run: (tx: unknown) => Promise<unknown>) => {
        left -= 1;
        if (left < 0) throw new Error('database gone');
        if (left > 0) return target.transaction(run as never);
        // The last step runs in full, then the transaction is rolled back, as a kill before the commit.
        return target.transaction(async (tx) => {
          await run(tx);
          throw new Error('killed before commit');
        });
      };
    },
  });
}

describe('restart after an interrupted store', () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  for (const commits of [1, 40, 120]) {
    it(`continues consistently when storing stops after ${commits} steps`, async () => {
      handle = await openDatabase({});
      const db = handle.db;
      await seedReplayDatabase(db);
      const market = seededMarket();
      // First run: a day of start-up history; storing dies part-way.
      const first = await runCore(dyingAfter(db, commits), market, 0, 1440);
      expect(first.filter((msg) => msg.startsWith('signals: store failed'))).toHaveLength(1);
      // Restart minutes later: the start-up window covers again what the first run judged, then half a day.
      expect(await runCore(db, market, 10, 2160)).toEqual([]);
      const result = await expectConsistent(db);
      expect(result.measured).toBeGreaterThan(50);
    }, 120_000);
  }
});
