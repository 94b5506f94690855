import i18n from 'i18next';
import { beforeAll, describe, expect, test } from 'vitest';
import type { StatisticTradeItem } from '../../../contracts';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import {
  combinedOpenRoe,
  DAY_TICK_STEPS,
  daysAgo,
  MINUTE_TICK_STEPS,
  minutesAgo,
  MONTH_MAX_TICKS,
  niceTicks,
  roeProfitLoss,
  STATISTICS_REFRESH_MS,
  tickIndexes,
  ticksForWidth,
  tradeTotals,
} from './statistics-format';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});

const item = (buy: number, sell: number): StatisticTradeItem => ({
  statistic_date: '2026-03-14',
  trade_close_count_buy: 1,
  trade_close_count_sell: 1,
  trade_close_roe_buy: buy,
  trade_close_roe_sell: sell,
  current_price: 96_000,
});

describe('x labels', () => {
  test("'{n} Minutes ago': n is 5 times the distance from the latest point", () => {
    expect(minutesAgo(287, 288)).toBe(0);
    expect(minutesAgo(286, 288)).toBe(5);
    expect(minutesAgo(0, 288)).toBe(1435);
    const label = (index: number) => i18n.t('insights:dashboard.minutes_ago', { n: minutesAgo(index, 288) });
    expect(label(287)).toBe('0 Minutes ago');
    expect(label(285)).toBe('10 Minutes ago');
    expect(label(0)).toBe('1435 Minutes ago');
  });

  test("'N Days ago' counts whole UTC days to today; yesterday is 1", () => {
    const now = new Date('2026-03-15T00:30:00.000Z');
    expect(daysAgo('2026-03-14', now)).toBe(1);
    expect(daysAgo('2026-02-14', now)).toBe(29);
    expect(daysAgo('2026-03-14', new Date('2026-03-15T23:59:59.999Z'))).toBe(1);
    expect(i18n.t('insights:dashboard.days_ago', { n: daysAgo('2026-03-05', now) })).toBe('10 Days ago');
  });

  test('the month chart has at most 10 ticks, the latest day always among them', () => {
    for (let length = 0; length <= 60; length += 1) {
      const ticks = tickIndexes(length, MONTH_MAX_TICKS, DAY_TICK_STEPS);
      expect(ticks.length).toBeLessThanOrEqual(MONTH_MAX_TICKS);
      if (length > 0) expect(ticks.at(-1)).toBe(length - 1);
      if (length > 0 && length <= MONTH_MAX_TICKS) expect(ticks).toHaveLength(length);
    }
    // 30 days: every third day back from yesterday.
    expect(tickIndexes(30, MONTH_MAX_TICKS, DAY_TICK_STEPS)).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29]);
    // A narrow screen fits fewer labels; never more than 10.
    expect(ticksForWidth(250, 78, MONTH_MAX_TICKS)).toBe(4);
    expect(ticksForWidth(100, 120, MONTH_MAX_TICKS)).toBe(2);
    expect(ticksForWidth(2000, 78, MONTH_MAX_TICKS)).toBe(MONTH_MAX_TICKS);
  });

  test('the last-day ticks fall on whole hours back from the latest point', () => {
    const ticks = tickIndexes(288, 6, MINUTE_TICK_STEPS);
    expect(ticks).toEqual([47, 95, 143, 191, 239, 287]);
    expect(ticks.map((index) => minutesAgo(index, 288))).toEqual([1200, 960, 720, 480, 240, 0]);
    expect(tickIndexes(1, 6, MINUTE_TICK_STEPS)).toEqual([0]);
    expect(tickIndexes(0, 6)).toEqual([]);
  });
});

describe('totals', () => {
  test('Total ROE is buy + sell in exact decimals', () => {
    expect(tradeTotals({ roe_buy: 0.1, roe_sell: 0.2, count_buy: 3, count_sell: 4 })).toEqual({
      total_roe: '0.3',
      total_count: 7,
    });
    expect(tradeTotals({ roe_buy: 1.15, roe_sell: -3.3, count_buy: 0, count_sell: 0 }).total_roe).toBe(
      '-2.15',
    );
  });

  test('the combined open ROE of a point is buy + sell, exact', () => {
    const point = {
      statistic_time: '2026-03-15T12:00:00.000Z',
      trade_open_count_buy: 1,
      trade_open_count_sell: 1,
      trade_open_roe_buy: 0.7,
      trade_open_roe_sell: 0.1,
      current_price: 97_000,
    };
    expect(combinedOpenRoe(point)).toBe('0.8');
  });

  test('ROE Profit sums the positive sides, ROE Loss the negative ones', () => {
    expect(roeProfitLoss(item(2.5, -1.75))).toEqual({ roe_profit: '2.5', roe_loss: '-1.75' });
    expect(roeProfitLoss(item(0.1, 0.2))).toEqual({ roe_profit: '0.3', roe_loss: '0' });
    expect(roeProfitLoss(item(-0.1, -0.2))).toEqual({ roe_profit: '0', roe_loss: '-0.3' });
    expect(roeProfitLoss(item(0, 0))).toEqual({ roe_profit: '0', roe_loss: '0' });
  });
});

describe('axes', () => {
  test('ticks are round and cover the values', () => {
    expect(niceTicks(0, 7, 4, 1)).toEqual({ ticks: [0, 2, 4, 6, 8], decimals: 0 });
    expect(niceTicks(0, 1, 4, 1)).toEqual({ ticks: [0, 1], decimals: 0 });
    expect(niceTicks(-1.3, 0.4, 4)).toEqual({ ticks: [-1.5, -1, -0.5, 0, 0.5], decimals: 1 });
    const price = niceTicks(96_120, 98_480, 3, 1);
    expect(price.ticks[0]).toBeLessThanOrEqual(96_120);
    expect(price.ticks.at(-1)).toBeGreaterThanOrEqual(98_480);
    expect(price.decimals).toBe(0);
    // A flat line is widened around its value.
    expect(niceTicks(0, 0, 4).ticks).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  test('the dashboard reads again every 5 minutes', () => {
    expect(STATISTICS_REFRESH_MS).toBe(300_000);
  });
});
