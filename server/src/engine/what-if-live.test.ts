// One truth with the public record on a live range (issue 42 item 5): a whole process (buildApp's instance with
// the paper exchange: the house account, its first start's backfill, the house follower trading the live signals
// through the traders' calls, server mode, its exits held by the exchange) runs on a paper exchange whose clock the
// test moves one second at a time, so the exchange's marks, triggers and fills happen at every second of every
// minute. Afterwards the what-if replay of the house's settings over that live range — the stored 1-minute candles
// the leader recorded and the stored signals — takes the same trades with the same statuses, and its PNL is within
// the stated tolerance of the house's real paper fills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPaperExchange, SYMBOLS } from '../../../paper-exchange/src/index';
import {
  compareDecimals,
  divDecimals,
  initTradeCore,
  mulDecimals,
  subDecimals,
} from '../../../shared-core/trade-core-node';
import { buildApp } from '../app';
import { openDatabase, type DatabaseHandle } from '../db';
import { trades } from '../db/schema-trades';
import { ensureHouseUser, HOUSE_USER_UUID } from '../services/house';
import { SoleLeadership } from '../services/leadership';
import { PAPER_PLATFORM_UUID, seedPlatforms } from '../services/platforms';
import { setPlatformPreferences } from '../services/preferences';
import { loadMasterKey, SecretBox } from '../services/secret-box';
import { MINUTE_MS } from './candles';
import { MarketFeed, type CandleEvent } from './market-feed';
import { replaySettingsOf } from './replay-settings';
import { EXCHANGE_ORDER_FILTERS } from './trade-replay';
import { replayWhatIf } from './what-if';
import { WhatIfStore } from './what-if-data';
import { findPlatform } from '../services/platforms';

const LIVE_MINUTES = 120;
/**
 * The stated tolerance: a live trade opens at its MARKET fill (the mark when the house's order arrives, plus the
 * half-spread) where the replay opens at the signal's entry price (the minute's close), and an exit fills at the
 * first second's mark beyond its trigger where the replay fills at the trigger. Per closed trade, the net PNLs may
 * differ by at most this many ROE points (the gap ÷ the margin × 100): two price gaps of a few basis points, × 10
 * leverage. Measured on this seed: 0.09 to 0.22 points over 4 closes (8 trades in 120 minutes).
 */
const ROE_TOLERANCE = '0.50';
/**
 * The house's settings here: a 5 % take profit and a 3 % trailing stop (the defaults before issue 42's study), so
 * 120 minutes hold several opens and closes to compare. With today's defaults (30 % and 8 %: moves of 3 % and
 * 0.8 % at 10×) the house closes few trades in two hours. The agreement tested is the replay's, not the defaults'.
 */
const HOUSE_SETTINGS = {
  trade_margin: 10,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};

const silent = { info: () => undefined, warn: () => undefined };
let handle: DatabaseHandle;
let close: () => Promise<void>;
let now = 0;
let liveFrom = 0;
let liveTo = 0;
let originTime = 0;

beforeAll(async () => {
  await initTradeCore();
  // A whole second past a minute boundary, as the live harness starts.
  now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - LIVE_MINUTES * MINUTE_MS - 10 * MINUTE_MS + 1000;
  const paper = await buildPaperExchange({ seed: 23, historyDays: 1, tickMs: 1_000_000, clock: () => now });
  await paper.app.listen({ port: 0, host: '127.0.0.1' });
  const address = paper.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const exchange = paper.exchange;
  originTime = exchange.originTime;
  handle = await openDatabase({});
  const pairs = SYMBOLS.map((spec) => spec.symbol);
  const feed = new MarketFeed(url, `ws://127.0.0.1:${port}`, pairs, silent);
  const secretBox = new SecretBox(loadMasterKey({}));
  // Saved before the instance starts, so the backfill and the live house both trade with them.
  await seedPlatforms(handle.db, { paperExchangeUrl: url });
  await ensureHouseUser(handle.db, secretBox);
  await setPlatformPreferences(handle.db, HOUSE_USER_UUID, PAPER_PLATFORM_UUID, HOUSE_SETTINGS);
  const { app, instance } = await buildApp({
    feed,
    db: handle.db,
    secretBox,
    exchangeUrl: url,
    paperExchangeUrl: url,
    instance: {
      leadership: new SoleLeadership(),
      box: secretBox,
      paper: {
        url,
        wsUrl: `ws://127.0.0.1:${port}`,
        seed: exchange.seed,
        originTime: exchange.originTime,
        historyEndTime: exchange.historyEndTime,
        adminToken: exchange.adminToken,
        createAccount: async (balance) => {
          const created = exchange.createAccount(balance);
          return { apiKey: created.account.apiKey, apiSecret: created.apiSecret };
        },
      },
      log: silent,
    },
  });
  await feed.start();
  close = async () => {
    await instance!.stop();
    await feed.close();
    await app.close();
    await paper.close();
    await handle.close();
  };
  const liveCandles = (minuteOpen: number) =>
    new Promise<void>((resolve) => {
      const seen = new Set<string>();
      const listener = (event: CandleEvent) => {
        if (!event.live || event.candle.openTime !== minuteOpen) return;
        seen.add(event.symbol);
        if (seen.size < pairs.length) return;
        feed.off('candle', listener);
        resolve();
      };
      feed.on('candle', listener);
    });
  // The server signs with the real time: the exchange checks signatures against it (its clock skew, kept 5 s
  // ahead of the real time at every step), while its market and fills run on the test's clock.
  const inStep = () => exchange.faults.set({ clockSkewMs: Date.now() + 5000 - now });
  inStep();
  // The live range starts at the next whole minute.
  liveFrom = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
  now = liveFrom - 1000;
  exchange.tick();
  await instance!.idle();
  for (let minute = 0; minute < LIVE_MINUTES; minute++) {
    const open = liveFrom + minute * MINUTE_MS;
    const closed = liveCandles(open);
    for (let second = 1; second <= 60; second++) {
      now = open + second * 1000;
      inStep();
      exchange.tick();
      // The marks reach the feed and the monitor over the stream, as they would.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closed;
    await instance!.idle();
  }
  liveTo = liveFrom + LIVE_MINUTES * MINUTE_MS;
  await instance!.idle();
}, 600_000);
afterAll(() => close?.());

describe('the what-if replay of a live range', () => {
  it('takes the house’s live trades with their statuses, PNL within the tolerance', async () => {
    const live = (await handle.db.select().from(trades)).filter(
      (row) =>
        row.user_uuid === HOUSE_USER_UUID &&
        row.trade_in_server_side === 1 &&
        row.trade_create_timestamp.getTime() >= liveFrom,
    );
    expect(live.length).toBeGreaterThan(3);
    const platform = (await findPlatform(handle.db, PAPER_PLATFORM_UUID))!;
    const settings = await replaySettingsOf(handle.db, HOUSE_USER_UUID, platform);
    expect(settings.preferences).toEqual(HOUSE_SETTINGS);
    expect(live.every((row) => row.trade_take_profit_percent === 5)).toBe(true);
    // From the backfill's start: the replay carries the backfilled trades still open into the live range as the
    // house did (one trade per symbol).
    const data = await new WhatIfStore(handle.db, () => now).load(PAPER_PLATFORM_UUID, originTime, liveTo);
    const { replay } = replayWhatIf({
      userUuid: HOUSE_USER_UUID,
      platformUuid: PAPER_PLATFORM_UUID,
      fromMs: originTime,
      toMs: liveTo,
      symbols: data.symbols,
      neurons: data.neurons,
      days: data.days,
      settings,
      orderFilters: EXCHANGE_ORDER_FILTERS,
    });
    const replayed = new Map(
      replay.trades
        .filter((trade) => trade.openedAt >= liveFrom)
        .map((trade) => [trade.row.signal_uuid, trade]),
    );
    const report = live.map((row) => {
      const twin = replayed.get(row.signal_uuid);
      return {
        signal: row.signal_uuid,
        live: row.trade_status,
        replayed: twin?.row.trade_status,
        liveNet: row.trade_pnl_net,
        replayedNet: twin?.row.trade_pnl_net,
        margin: twin?.terms.margin,
      };
    });
    const told = JSON.stringify(report, null, 1);
    expect(new Set(replayed.keys()), told).toEqual(new Set(live.map((row) => row.signal_uuid)));
    for (const item of report) {
      expect(item.replayed, told).toBe(item.live);
      if (item.live === 'open') continue;
      // |live net − replayed net| ÷ margin × 100, in ROE points.
      const gap = subDecimals(item.liveNet!, item.replayedNet!);
      const roeGap = mulDecimals(divDecimals(gap.replace('-', ''), item.margin!, 8), 100);
      expect(compareDecimals(roeGap, ROE_TOLERANCE), `${roeGap} ROE points: ${told}`).toBeLessThanOrEqual(0);
    }
  });
});
