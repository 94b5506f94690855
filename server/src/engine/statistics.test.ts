// Statistics on known trades (contracts/statistics.ts; docs/server.md "Statistics"): a point's counts and
// unrealized ROE per side, a day's counts and realized ROE per side (the side's PNL ÷ its initial margin × 100,
// 2 decimals, 0 without trades), which trades a day holds, and the live recorder's catch-up of missed days.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statisticTradeDays, statisticTradePoints } from '../db/schema-statistics';
import { trades, type NewTradeRow } from '../db/schema-trades';
import { ensureHouseUser, HOUSE_USER_UUID } from '../services/house';
import { BINANCE_PLATFORM_UUID } from '../services/platforms';
import { createTestApp, ensureTestSymbol, signUpAndLogIn, type TestApp } from '../../test/test-app';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import { initialTrailingLevel } from '../services/trade-math';
import { DAY_MS, sideOf, statisticItem, statisticPoint, utcDate, type StatisticTrade } from './statistics';
import { StatisticsRecorder } from './statistics-live';

// BUY 0.002 at 97000, 10×: margin 19.4; BUY 0.1 at 150, 10×: margin 1.5; SELL 100 at 0.3, 5×: margin 6.
const buyA: StatisticTrade = { direction: 'BUY', pnl: '1.94', margin: '19.4' };
const buyB: StatisticTrade = { direction: 'BUY', pnl: '-0.3', margin: '1.5' };
const sellC: StatisticTrade = { direction: 'SELL', pnl: '0.9', margin: '6' };

beforeAll(() => initTradeCore());

describe('statistic point and item', () => {
  it('sums each side’s PNL over its margin: (1.94 − 0.3) ÷ 20.9 × 100 = 7.85 %', () => {
    expect(sideOf([buyA, buyB, sellC], 'BUY')).toEqual({ count: 2, roe: '7.85' });
    expect(sideOf([buyA, buyB, sellC], 'SELL')).toEqual({ count: 1, roe: '15.00' });
    expect(sideOf([buyB], 'BUY')).toEqual({ count: 1, roe: '-20.00' });
    expect(sideOf([buyA], 'SELL')).toEqual({ count: 0, roe: '0.00' });
  });

  it('makes the point of a boundary and the item of a day', () => {
    const time = Date.UTC(2026, 0, 5, 10, 35);
    expect(statisticPoint(time, [buyA, buyB, sellC], '97970.0')).toEqual({
      statistic_time: new Date(time),
      trade_open_count_buy: 2,
      trade_open_count_sell: 1,
      trade_open_roe_buy: '7.85',
      trade_open_roe_sell: '15.00',
      current_price: '97970.0',
    });
    expect(statisticItem(Date.UTC(2026, 0, 5), [sellC], '91000.5')).toEqual({
      statistic_date: '2026-01-05',
      trade_close_count_buy: 0,
      trade_close_count_sell: 1,
      trade_close_roe_buy: '0.00',
      trade_close_roe_sell: '15.00',
      current_price: '91000.5',
    });
  });
});

describe('statistics recorder', () => {
  let t: TestApp;
  let otherUser: string;
  const day = Date.UTC(2026, 0, 5);
  const candleEnds: number[] = [];
  const feed = {
    price: (symbol: string) =>
      symbol === 'BTCUSDT' ? { symbol, price: '92000.0', time: Date.now() } : undefined,
    candlesBetween: async (_symbol: string, from: number) => {
      candleEnds.push(from + 60_000);
      return [{ openTime: from, closeTime: from + 59_999, open: '1', high: '1', low: '1', close: '91000.5' }];
    },
  };

  beforeAll(async () => {
    t = await createTestApp();
    await ensureHouseUser(t.db, t.app.secretBox);
    otherUser = (await signUpAndLogIn(t.app, 'statistics')).user_uuid;
  });
  afterAll(async () => t?.close());

  /** A ready trade of `user` on a test symbol; closed at `closedAt` with `pnl` when given. */
  async function storeTrade(options: {
    user?: string;
    pair: string;
    direction: 'BUY' | 'SELL';
    quantity: string;
    open: string;
    leverage: number;
    pnl: string;
    closedAt?: number;
  }) {
    const symbol = await ensureTestSymbol(t.db, options.pair);
    const closed = options.closedAt !== undefined;
    const row: NewTradeRow = {
      trade_uuid: randomUUID(),
      user_uuid: options.user ?? HOUSE_USER_UUID,
      platform_uuid: BINANCE_PLATFORM_UUID,
      signal_uuid: randomUUID(),
      symbol_uuid: symbol.symbol_uuid,
      trade_direction: options.direction,
      trade_in_server_side: 1,
      trade_open_price: options.open,
      trade_quantity: options.quantity,
      trade_margin: '10',
      trade_leverage: options.leverage,
      trade_stop_loss_percent: 10,
      trade_take_profit_percent: 5,
      trade_treiling_stop_percent: 3,
      trade_status: closed ? 'take_profit' : 'open',
      trade_current_price: options.open,
      trade_pnl_current: options.pnl,
      trade_treiling_stop_percent_current: initialTrailingLevel(10),
      trade_create_timestamp: new Date(day - DAY_MS),
      trade_close_timestamp: closed ? new Date(options.closedAt!) : null,
    };
    const [stored] = await t.db.insert(trades).values(row).returning();
    return { ...stored!, symbol_pair: options.pair };
  }

  it('stores a day’s item from the house trades closed that day, and catches up missed days', async () => {
    // Day D: two BUYs (one at the day's last millisecond) and a SELL; then one at 00:00 of D+1, one still
    // open, and another user's: none of those three count for D.
    await storeTrade({
      pair: 'AAAUSDT',
      direction: 'BUY',
      quantity: '0.002',
      open: '97000',
      leverage: 10,
      pnl: '1.94',
      closedAt: day + 3_600_000,
    });
    await storeTrade({
      pair: 'BBBUSDT',
      direction: 'BUY',
      quantity: '0.1',
      open: '150',
      leverage: 10,
      pnl: '-0.3',
      closedAt: day + DAY_MS - 1,
    });
    await storeTrade({
      pair: 'CCCUSDT',
      direction: 'SELL',
      quantity: '100',
      open: '0.3',
      leverage: 5,
      pnl: '0.9',
      closedAt: day,
    });
    await storeTrade({
      pair: 'DDDUSDT',
      direction: 'SELL',
      quantity: '100',
      open: '0.3',
      leverage: 5,
      pnl: '-3',
      closedAt: day + DAY_MS,
    });
    await storeTrade({
      pair: 'EEEUSDT',
      direction: 'SELL',
      quantity: '100',
      open: '0.3',
      leverage: 5,
      pnl: '-3',
    });
    await storeTrade({
      user: otherUser,
      pair: 'FFFUSDT',
      direction: 'BUY',
      quantity: '1',
      open: '10',
      leverage: 10,
      pnl: '-1',
      closedAt: day + 60_000,
    });
    // Stored up to D−3: D−2, D−1 and D are missing.
    await t.db.insert(statisticTradeDays).values(statisticItem(day - 3 * DAY_MS, [], '90000'));

    const recorder = new StatisticsRecorder({
      db: t.db,
      monitor: t.monitor,
      feed,
      houseUserUuid: HOUSE_USER_UUID,
      log: { warn: () => undefined },
      clock: () => day,
    });
    expect(await recorder.recordDays(day + DAY_MS + 5 * 60_000)).toBe(3);
    expect(await recorder.recordDays(day + DAY_MS + 10 * 60_000)).toBe(0);
    const rows = await t.db.select().from(statisticTradeDays);
    expect(rows.map((row) => row.statistic_date).sort()).toEqual(
      [-3, -2, -1, 0].map((offset) => utcDate(day + offset * DAY_MS)),
    );
    expect(rows.find((row) => row.statistic_date === '2026-01-05')).toEqual({
      statistic_date: '2026-01-05',
      trade_close_count_buy: 2,
      trade_close_count_sell: 1,
      trade_close_roe_buy: '7.85',
      trade_close_roe_sell: '15.00',
      current_price: '91000.5',
    });
    expect(rows.find((row) => row.statistic_date === '2026-01-04')).toMatchObject({
      trade_close_count_buy: 0,
      trade_close_count_sell: 0,
      trade_close_roe_buy: '0.00',
    });
    // Bitcoin's close of each day's last minute.
    expect(candleEnds).toEqual([-1, 0, 1].map((offset) => day + offset * DAY_MS));
  });

  it('stores a point from the open house trades with the monitor’s live PNL', async () => {
    await t.db.delete(trades);
    const watched = await storeTrade({
      pair: 'GGGUSDT',
      direction: 'BUY',
      quantity: '0.002',
      open: '97000',
      leverage: 10,
      pnl: '0',
    });
    await storeTrade({
      pair: 'HHHUSDT',
      direction: 'SELL',
      quantity: '100',
      open: '0.3',
      leverage: 5,
      pnl: '0.9',
    });
    await storeTrade({
      pair: 'III' + 'USDT',
      direction: 'SELL',
      quantity: '100',
      open: '0.3',
      leverage: 5,
      pnl: '-3',
      closedAt: day,
    });
    await storeTrade({
      user: otherUser,
      pair: 'JJJUSDT',
      direction: 'BUY',
      quantity: '1',
      open: '10',
      leverage: 10,
      pnl: '5',
    });
    t.monitor.watch(watched);
    t.monitor.onPrice('GGGUSDT', '97970'); // PNL 1.94, not the stored 0
    const recorder = new StatisticsRecorder({
      db: t.db,
      monitor: t.monitor,
      feed,
      houseUserUuid: HOUSE_USER_UUID,
      log: { warn: () => undefined },
    });
    const time = day + 35 * 60_000;
    await recorder.recordPoint(time);
    const [point] = await t.db.select().from(statisticTradePoints);
    expect(point).toEqual({
      statistic_time: new Date(time),
      trade_open_count_buy: 1,
      trade_open_count_sell: 1,
      trade_open_roe_buy: '10.00',
      trade_open_roe_sell: '15.00',
      current_price: '92000.0',
    });
    t.monitor.forget(watched.trade_uuid);
  });

  it('records nothing without a bitcoin price', async () => {
    const recorder = new StatisticsRecorder({
      db: t.db,
      monitor: t.monitor,
      feed: { price: () => undefined, candlesBetween: async () => [] },
      houseUserUuid: HOUSE_USER_UUID,
      log: { warn: () => undefined },
    });
    expect(await recorder.recordPoint(day + 40 * 60_000)).toBeUndefined();
    expect(await recorder.recordDays(day + 40 * DAY_MS)).toBe(0);
  });
});
