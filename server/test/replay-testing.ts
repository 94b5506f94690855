// Test support for replays of the seeded market through the live core (restart.test.ts, backfill.test.ts): a
// database with the paper platform and two symbols, a feed the test plays candles into, and the consistency
// check of a stored track record. Not used at run time.
import { EventEmitter } from 'node:events';
import { expect } from 'vitest';
import { generateHistory, SYMBOLS } from '../../paper-exchange/src/index';
import type { Database } from '../src/db';
import { symbols } from '../src/db/schema';
import { signals } from '../src/db/schema-signals';
import { seedPlatforms } from '../src/services/platforms';
import { candleFromHistory, type Candle } from '../src/engine/candles';
import { startLiveCore } from '../src/engine/live-core';
import { MarketAnalytics } from '../src/engine/market-analytics';
import type { MarketFeed } from '../src/engine/market-feed';
import { MIN_RESOLVED } from '../src/engine/signal-engine';
import { trackRecordOf, type SignalRow } from '../src/engine/signal-store';

export const EXCHANGE_URL = 'http://paper.test';
export const PAIRS = ['BTCUSDT', 'DOGEUSDT'];
export const HISTORY_END_TIME = Date.UTC(2026, 1, 1);

const silentHub = {
  size: 0,
  connectedUsers: () => [],
  broadcast: () => undefined,
  sendToUser: () => undefined,
};

/** The part of MarketFeed the live core uses, fed by the test instead of an exchange. */
export class FakeFeed extends EventEmitter {
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

/** The paper platform and PAIRS as symbols, as a first start stores them. */
export async function seedReplayDatabase(db: Database): Promise<void> {
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
}

export function seededHistory(days = 2) {
  return generateHistory({ seed: 7, days, symbols: PAIRS, endTime: HISTORY_END_TIME });
}

export function seededMarket(days = 2): Map<string, Candle[]> {
  return new Map(
    [...seededHistory(days)].map(([pair, candles]) => {
      const precision = SYMBOLS.find((spec) => spec.symbol === pair)!.pricePrecision;
      return [pair, candles.map((candle) => candleFromHistory(candle, precision))];
    }),
  );
}

/** Runs a live core over candles [from, to) of the market; returns its warnings. */
export async function runCore(db: Database, market: Map<string, Candle[]>, from: number, to: number) {
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

/**
 * Every stored accuracy equals the hit rate over the stored outcomes it was measured over, and a neuron never
 * has two signals open at once on one symbol.
 */
export async function expectConsistent(db: Database) {
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
