// GET /api/public/get_statistic_trade_by_day/ and /get_statistic_trade_by_month/ (SPEC.md §7): public, the
// contracts' shapes, the last 24 hours of points and the last 30 complete UTC days of items, oldest first, and
// empty lists when nothing was recorded.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  houseRecordAnswer,
  statisticTradeByDayAnswer,
  statisticTradeByMonthAnswer,
} from '../../../../contracts';
import { statisticTradeDays, statisticTradePoints } from '../../db/schema-statistics';
import { trades } from '../../db/schema-trades';
import { DAY_MS, statisticItem, statisticPoint, utcDate } from '../../engine/statistics';
import { ensureHouseUser, HOUSE_USER_UUID } from '../../services/house';
import { BINANCE_PLATFORM_UUID } from '../../services/platforms';
import { DEFAULT_PLATFORM_PREFERENCES, DEFAULT_TRADE_PREFERENCES } from '../../services/preferences';
import { initialTrailingLevel } from '../../services/trade-math';
import {
  createTestApp,
  ensureTestSymbol,
  storeTradeTokenUnchecked,
  type TestApp,
} from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Noon UTC, on a 5-minute boundary.
  t.clock.nowMs = Date.UTC(2026, 2, 10, 12, 0);
});
afterAll(async () => t?.close());

const get = (name: string) => t.app.inject({ method: 'GET', url: `/api/public/${name}/` });

describe('public statistics', () => {
  it('answers empty lists before anything was recorded, without a login', async () => {
    const byDay = await get('get_statistic_trade_by_day');
    expect(byDay.statusCode).toBe(200);
    expect(statisticTradeByDayAnswer.parse(byDay.json())).toEqual({
      result: { statistic_trade_by_day_list: [] },
    });
    const byMonth = await get('get_statistic_trade_by_month');
    expect(byMonth.statusCode).toBe(200);
    expect(statisticTradeByMonthAnswer.parse(byMonth.json())).toEqual({
      result: { statistic_trade_by_month_list: [] },
    });
  });

  it('answers the points of the last 24 hours, oldest first, as numbers', async () => {
    const now = t.clock.nowMs;
    const trade = { direction: 'SELL' as const, pnl: '0.9', margin: '6' };
    const times = [
      now - DAY_MS - 300_000,
      now - DAY_MS,
      now - DAY_MS + 300_000,
      now - 300_000,
      now,
      now + 300_000,
    ];
    // Stored out of order: the answer sorts.
    for (const time of [...times].reverse()) {
      await t.db.insert(statisticTradePoints).values(statisticPoint(time, [trade], '97000.5'));
    }
    const list = statisticTradeByDayAnswer.parse((await get('get_statistic_trade_by_day')).json()).result
      .statistic_trade_by_day_list;
    expect(list.map((point) => Date.parse(point.statistic_time))).toEqual([
      now - DAY_MS + 300_000,
      now - 300_000,
      now,
    ]);
    expect(list[0]).toEqual({
      statistic_time: new Date(now - DAY_MS + 300_000).toISOString(),
      trade_open_count_buy: 0,
      trade_open_count_sell: 1,
      trade_open_roe_buy: 0,
      trade_open_roe_sell: 15,
      current_price: 97000.5,
    });
  });

  it('answers the last 30 complete days, oldest first', async () => {
    const today = Date.UTC(2026, 2, 10);
    const trades = [
      { direction: 'BUY' as const, pnl: '1.94', margin: '19.4' },
      { direction: 'BUY' as const, pnl: '-0.3', margin: '1.5' },
    ];
    for (const offset of [0, -1, -2, -30, -31]) {
      await t.db.insert(statisticTradeDays).values(statisticItem(today + offset * DAY_MS, trades, '91000'));
    }
    const list = statisticTradeByMonthAnswer.parse((await get('get_statistic_trade_by_month')).json()).result
      .statistic_trade_by_month_list;
    expect(list.map((item) => item.statistic_date)).toEqual(
      [-30, -2, -1].map((offset) => utcDate(today + offset * DAY_MS)),
    );
    expect(list.at(-1)).toEqual({
      statistic_date: '2026-03-09',
      trade_close_count_buy: 2,
      trade_close_count_sell: 0,
      trade_close_roe_buy: 7.85,
      trade_close_roe_sell: 0,
      current_price: 91000,
    });
  });
});

// GET /api/public/get_house_record/ (issue 42): the house's settings today (the new-trader defaults) and, read
// from the house's own trades, since which day they carry them and book fees.
describe('the house record', () => {
  let symbolUuid = '';
  let n = 0;
  const houseTrade = async (
    day: number,
    options: { takeProfit: number; trailing: number; commission: string | null; filled?: boolean },
  ) => {
    const filled = options.filled ?? true;
    await t.db.insert(trades).values({
      trade_uuid: randomUUID(),
      user_uuid: HOUSE_USER_UUID,
      platform_uuid: BINANCE_PLATFORM_UUID,
      signal_uuid: randomUUID(),
      symbol_uuid: symbolUuid,
      trade_direction: 'BUY',
      trade_in_server_side: 1,
      trade_open_price: filled ? '97000' : null,
      trade_quantity: filled ? '0.001' : null,
      trade_margin: String(DEFAULT_PLATFORM_PREFERENCES.trade_margin),
      trade_leverage: DEFAULT_PLATFORM_PREFERENCES.trade_leverage,
      trade_stop_loss_percent: DEFAULT_PLATFORM_PREFERENCES.trade_stop_loss_percent,
      trade_take_profit_percent: options.takeProfit,
      trade_treiling_stop_percent: options.trailing,
      trade_open_commission: options.commission,
      trade_treiling_stop_percent_current: initialTrailingLevel(10),
      // Each a minute after the one before within its day, so the order is the order of the calls.
      trade_create_timestamp: new Date(Date.UTC(2026, 2, day, 8, 0) + (n += 1) * 60_000),
    });
  };
  const record = async () => {
    // The answer is kept a minute.
    t.clock.nowMs += 61_000;
    const answer = await get('get_house_record');
    expect(answer.statusCode).toBe(200);
    return houseRecordAnswer.parse(answer.json()).result;
  };
  const { trade_take_profit_percent: TP, trade_treiling_stop_percent: TRAILING } =
    DEFAULT_PLATFORM_PREFERENCES;

  it('answers nothing without a house, without a login', async () => {
    expect(await record()).toEqual({
      house_settings: null,
      settings_since: null,
      previous_settings: null,
      fees_since: null,
    });
  });

  it('names the defaults the house trades with, and from which day its trades carry them and book fees', async () => {
    await ensureHouseUser(t.db, t.app.secretBox);
    await storeTradeTokenUnchecked(t, HOUSE_USER_UUID, {
      platform_uuid: BINANCE_PLATFORM_UUID,
      pin_code: '12345678',
      api_key: 'house-key',
      api_secret: 'house-secret',
    });
    symbolUuid = (await ensureTestSymbol(t.db, 'BTCUSDT')).symbol_uuid;
    const settings = {
      ...DEFAULT_PLATFORM_PREFERENCES,
      minimal_accuracy: DEFAULT_TRADE_PREFERENCES.minimal_accuracy,
      trade_exits_on_exchange: true,
    };
    // A house with no trade yet: its settings, no day.
    expect(await record()).toEqual({
      house_settings: settings,
      settings_since: null,
      previous_settings: null,
      fees_since: null,
    });

    // Days 1–2: the old defaults, no fees booked; day 3: the old ones with fees; day 4: a trade that never filled
    // (no fee, nothing to book) with today's, then today's with fees from day 4 on.
    await houseTrade(1, { takeProfit: 5, trailing: 3, commission: null });
    await houseTrade(2, { takeProfit: 5, trailing: 3, commission: null });
    await houseTrade(3, { takeProfit: 5, trailing: 3, commission: '0.0485' });
    // Before any trade with today's settings: the old ones are named, no day yet for today's.
    expect(await record()).toMatchObject({
      settings_since: null,
      previous_settings: { trade_take_profit_percent: 5, trade_treiling_stop_percent: 3, trade_margin: 10 },
      fees_since: '2026-03-03',
    });
    await houseTrade(4, { takeProfit: TP, trailing: TRAILING, commission: null, filled: false });
    await houseTrade(4, { takeProfit: TP, trailing: TRAILING, commission: '0.0485' });
    await houseTrade(5, { takeProfit: TP, trailing: TRAILING, commission: '0.0485' });
    expect(await record()).toEqual({
      house_settings: settings,
      settings_since: '2026-03-04',
      previous_settings: {
        trade_margin: DEFAULT_PLATFORM_PREFERENCES.trade_margin,
        trade_leverage: DEFAULT_PLATFORM_PREFERENCES.trade_leverage,
        trade_stop_loss_percent: DEFAULT_PLATFORM_PREFERENCES.trade_stop_loss_percent,
        trade_take_profit_percent: 5,
        trade_treiling_stop_percent: 3,
      },
      fees_since: '2026-03-03',
    });

    // A filled trade without a booked fee after those: fees count from the first one after it.
    await houseTrade(6, { takeProfit: TP, trailing: TRAILING, commission: null });
    await houseTrade(7, { takeProfit: TP, trailing: TRAILING, commission: '0.0485' });
    expect(await record()).toMatchObject({ settings_since: '2026-03-04', fees_since: '2026-03-07' });
  });

  it('keeps an answer a minute', async () => {
    const first = await get('get_house_record');
    await houseTrade(8, { takeProfit: 5, trailing: 3, commission: null });
    const kept = await get('get_house_record');
    expect(kept.json()).toEqual(first.json());
    t.clock.nowMs += 61_000;
    expect(houseRecordAnswer.parse((await get('get_house_record')).json()).result).toMatchObject({
      settings_since: null,
      previous_settings: { trade_take_profit_percent: 5 },
      fees_since: null,
    });
  });
});
