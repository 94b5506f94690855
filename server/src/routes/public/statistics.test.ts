// GET /api/public/get_statistic_trade_by_day/ and /get_statistic_trade_by_month/ (SPEC.md §7): public, the
// contracts' shapes, the last 24 hours of points and the last 30 complete UTC days of items, oldest first, and
// empty lists when nothing was recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statisticTradeByDayAnswer, statisticTradeByMonthAnswer } from '../../../../contracts';
import { statisticTradeDays, statisticTradePoints } from '../../db/schema-statistics';
import { DAY_MS, statisticItem, statisticPoint, utcDate } from '../../engine/statistics';
import { createTestApp, type TestApp } from '../../../test/test-app';

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
