// Restart consistency of the stored track record: the live core's storing is cut off after some steps (the
// last one rolled back after it ran, as a kill before the commit would), then a new live core on the same
// database restores and replays an overlapping later candle window, as a restarted server does. Whatever the
// cut, every stored accuracy must equal the hit rate over the stored outcomes it was measured over, and a
// neuron never has two signals open at once on one symbol.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { generateHistory, SYMBOLS } from '../../../paper-exchange/src/index';
import { openDatabase, type Database, type DatabaseHandle } from '../db';
import { symbols } from '../db/schema';
import { signals } from '../db/schema-signals';
import { seedPlatforms } from '../services/platforms';
import { candleFromHistory, type Candle } from './candles';
import { startLiveCore } from './live-core';
import { MarketAnalytics } from './market-analytics';
import type { MarketFeed } from './market-feed';
import { MIN_RESOLVED } from './signal-engine';
import { trackRecordOf, type SignalRow } from './signal-store';

const EXCHANGE_URL = 'http://paper.test';
const PAIRS = ['BTCUSDT', 'DOGEUSDT'];
const silentHub = {
  size: 0,
  connectedUsers: () => [],
  broadcast: () => undefined,
  sendToUser: () => undefined,
};

/** The part of MarketFeed the live core uses, fed by the test instead of an exchange. */
class FakeFeed extends EventEmitter {
  readonly analytics = new MarketAnalytics();
  readonly restUrl = EXCHANGE_URL;
  readonly symbols = PAIRS;
  async settled() {}
  /** Candles minute by minute across the symbols, as REST history (stored, never sent). */
  play(market: Map<string, Candle[]>, from: number, to: number) {
    for (let i = from; i < to; i++) {
      for (const pair of PAIRS) {
        const candle = market.get(pair)![i]!;
        if (this.analytics.push(pair, candle)) this.emit('candle', { symbol: pair, candle, live: false });
      }
    }
  }
}

function seededMarket(): Map<string, Candle[]> {
  const history = generateHistory({ seed: 7, days: 2, symbols: PAIRS, endTime: Date.UTC(2026, 1, 1) });
  return new Map(
    [...history].map(([pair, candles]) => {
      const precision = SYMBOLS.find((spec) => spec.symbol === pair)!.pricePrecision;
      return [pair, candles.map((candle) => candleFromHistory(candle, precision))];
    }),
  );
}

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

async function runCore(db: Database, market: Map<string, Candle[]>, from: number, to: number) {
  const warnings: string[] = [];
  const feed = new FakeFeed();
  const core = await startLiveCore({
    feed: feed as unknown as MarketFeed,
    db,
    hub: silentHub as never,
    log: { warn: (_obj, msg) => warnings.push(msg) },
  });
  feed.play(market, from, to);
  await core.close();
  return warnings;
}

async function expectConsistent(db: Database) {
  const rows = await db.select().from(signals);
  const tracks = new Map<string, SignalRow[]>();
  for (const row of rows) {
    const key = `${row.neuron_uuid}|${row.symbol_uuid}|${row.platform_uuid}`;
    tracks.set(key, [...(tracks.get(key) ?? []), row]);
  }
  let measured = 0;
  for (const row of rows) {
    const window = await trackRecordOf(db, row);
    if (row.accuracy === null) {
      expect(window.length).toBeLessThan(MIN_RESOLVED);
      continue;
    }
    expect(row.accuracy).toBe(window.filter((item) => item.outcome === 'hit').length / window.length);
    measured += 1;
  }
  for (const track of tracks.values()) {
    track.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    for (let i = 1; i < track.length; i++) {
      const previous = track[i - 1]!;
      // Resolved no later than the next signal was made: never two open at once.
      expect(previous.resolved_at).not.toBeNull();
      expect(previous.resolved_at!.getTime()).toBeLessThanOrEqual(track[i]!.created_at.getTime());
    }
  }
  return { signals: rows.length, measured };
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
      await seedPlatforms(db, { paperExchangeUrl: EXCHANGE_URL });
      for (const [index, pair] of PAIRS.entries()) {
        await db.insert(symbols).values({
          symbol_uuid: `00000000-0000-4000-8000-00000000000${index + 1}`,
          symbol_name: pair.replace('USDT', ''),
          symbol_pair: pair,
          symbol_quantity_precision: 0,
          symbol_price_precision: SYMBOLS.find((spec) => spec.symbol === pair)!.pricePrecision,
        });
      }
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
