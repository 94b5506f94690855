import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { HouseRecord, StatisticTradeItem, StatisticTradePoint } from '../../../contracts';
import { getHouseRecord } from './api/get-house-record';
import { getStatisticTradeByDay } from './api/get-statistic-trade-by-day';
import { getStatisticTradeByMonth } from './api/get-statistic-trade-by-month';
import {
  loadStatisticTradeByDay,
  loadStatisticTradeByMonth,
  loadStatistics,
  resetStatisticsStore,
  statisticsStore,
} from './statistics-store';

vi.mock('./api/get-statistic-trade-by-day', () => ({ getStatisticTradeByDay: vi.fn() }));
vi.mock('./api/get-statistic-trade-by-month', () => ({ getStatisticTradeByMonth: vi.fn() }));
vi.mock('./api/get-house-record', () => ({ getHouseRecord: vi.fn() }));

const SETTINGS = {
  trade_margin: 10,
  trade_leverage: 10,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 30,
  trade_treiling_stop_percent: 8,
};
const HOUSE: HouseRecord = {
  house_settings: { ...SETTINGS, minimal_accuracy: 60, trade_exits_on_exchange: true },
  settings_since: '2026-03-12',
  previous_settings: null,
  fees_since: '2026-03-12',
};

const point = (minute: number, overrides: Partial<StatisticTradePoint> = {}): StatisticTradePoint => ({
  statistic_time: new Date(Date.UTC(2026, 2, 15, 12, minute)).toISOString(),
  trade_open_count_buy: 2,
  trade_open_count_sell: 1,
  trade_open_roe_buy: 1.25,
  trade_open_roe_sell: -0.5,
  current_price: 97_123.4,
  ...overrides,
});

const item = (day: number, overrides: Partial<StatisticTradeItem> = {}): StatisticTradeItem => ({
  statistic_date: `2026-03-${String(day).padStart(2, '0')}`,
  trade_close_count_buy: 4,
  trade_close_count_sell: 3,
  trade_close_roe_buy: 2.5,
  trade_close_roe_sell: -1.75,
  current_price: 96_000,
  ...overrides,
});

const DAY = [point(0), point(5), point(10, { trade_open_count_buy: 7 })];
const MONTH = [item(12), item(13), item(14, { trade_close_count_sell: 9 })];

beforeEach(() => {
  resetStatisticsStore();
  vi.mocked(getStatisticTradeByDay).mockReset();
  vi.mocked(getStatisticTradeByMonth).mockReset();
  vi.mocked(getHouseRecord).mockReset().mockResolvedValue(HOUSE);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the statistics store', () => {
  test('starts empty: no last_information, no yesterday, empty lists', () => {
    expect(statisticsStore.statistic_trade_by_day_list).toEqual([]);
    expect(statisticsStore.last_information).toBeUndefined();
    expect(statisticsStore.statistic_trade_by_month_list).toEqual([]);
    expect(statisticsStore.yesterday_information).toBeUndefined();
    expect(statisticsStore.is_day_loaded).toBe(false);
    expect(statisticsStore.is_month_loaded).toBe(false);
  });

  test('the day list is stored and its last point becomes last_information', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    const loading = loadStatisticTradeByDay();
    expect(statisticsStore.is_day_loading).toBe(true);
    await loading;
    expect(statisticsStore.statistic_trade_by_day_list).toEqual(DAY);
    expect(statisticsStore.last_information).toEqual(DAY[2]);
    expect(statisticsStore.is_day_loading).toBe(false);
    expect(statisticsStore.is_day_loaded).toBe(true);
  });

  test("the month list is stored and its last item becomes yesterday's information", async () => {
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(MONTH);
    await loadStatisticTradeByMonth();
    expect(statisticsStore.statistic_trade_by_month_list).toEqual(MONTH);
    expect(statisticsStore.yesterday_information).toEqual(MONTH[2]);
    expect(statisticsStore.is_month_loaded).toBe(true);
  });

  test('an empty answer empties the lists and clears the derived information', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(MONTH);
    await loadStatistics();
    vi.mocked(getStatisticTradeByDay).mockResolvedValue([]);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue([]);
    await loadStatistics();
    expect(statisticsStore.statistic_trade_by_day_list).toEqual([]);
    expect(statisticsStore.last_information).toBeUndefined();
    expect(statisticsStore.yesterday_information).toBeUndefined();
  });

  test('failures are only logged and leave the state as it was', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(MONTH);
    await loadStatistics();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getStatisticTradeByDay).mockRejectedValue(new Error('Timeout'));
    vi.mocked(getStatisticTradeByMonth).mockRejectedValue(new Error('HTTP error 500'));
    vi.mocked(getHouseRecord).mockRejectedValue(new Error('HTTP error 500'));
    await loadStatistics();
    expect(logged).toHaveBeenCalledTimes(3);
    expect(statisticsStore.house_record).toEqual(HOUSE);
    expect(statisticsStore.statistic_trade_by_day_list).toEqual(DAY);
    expect(statisticsStore.last_information).toEqual(DAY[2]);
    expect(statisticsStore.statistic_trade_by_month_list).toEqual(MONTH);
    expect(statisticsStore.yesterday_information).toEqual(MONTH[2]);
    expect(statisticsStore.is_day_loading).toBe(false);
    expect(statisticsStore.is_month_loading).toBe(false);
  });

  test('an absent result stores nothing', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    await loadStatisticTradeByDay();
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(undefined as unknown as StatisticTradePoint[]);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(undefined as unknown as StatisticTradeItem[]);
    await loadStatistics();
    expect(statisticsStore.statistic_trade_by_day_list).toEqual(DAY);
    expect(statisticsStore.last_information).toEqual(DAY[2]);
    expect(statisticsStore.statistic_trade_by_month_list).toEqual([]);
    expect(statisticsStore.yesterday_information).toBeUndefined();
  });

  test('an answer that arrives after a newer read or a reset is dropped', async () => {
    let answerFirst: (list: StatisticTradePoint[]) => void = () => undefined;
    vi.mocked(getStatisticTradeByDay)
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce([point(20)]);
    const first = loadStatisticTradeByDay();
    await loadStatisticTradeByDay();
    answerFirst(DAY);
    await first;
    expect(statisticsStore.last_information).toEqual(point(20));

    let answerLate: (list: StatisticTradeItem[]) => void = () => undefined;
    vi.mocked(getStatisticTradeByMonth).mockImplementationOnce(
      () => new Promise((resolve) => (answerLate = resolve)),
    );
    const late = loadStatisticTradeByMonth();
    resetStatisticsStore();
    answerLate(MONTH);
    await late;
    expect(statisticsStore.statistic_trade_by_month_list).toEqual([]);
    expect(statisticsStore.yesterday_information).toBeUndefined();
    expect(statisticsStore.is_month_loading).toBe(false);
  });

  test('the house record is read with the lists; one that arrives after a reset is dropped', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(MONTH);
    await loadStatistics();
    expect(getHouseRecord).toHaveBeenCalledTimes(1);
    expect(statisticsStore.house_record).toEqual(HOUSE);
    let answerLate: (record: HouseRecord) => void = () => undefined;
    vi.mocked(getHouseRecord).mockImplementationOnce(() => new Promise((resolve) => (answerLate = resolve)));
    const late = loadStatistics();
    resetStatisticsStore();
    answerLate({ ...HOUSE, fees_since: null });
    await late;
    expect(statisticsStore.house_record).toBeUndefined();
  });

  test('reset empties everything', async () => {
    vi.mocked(getStatisticTradeByDay).mockResolvedValue(DAY);
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue(MONTH);
    await loadStatistics();
    resetStatisticsStore();
    expect(statisticsStore.house_record).toBeUndefined();
    expect(statisticsStore.statistic_trade_by_day_list).toEqual([]);
    expect(statisticsStore.last_information).toBeUndefined();
    expect(statisticsStore.statistic_trade_by_month_list).toEqual([]);
    expect(statisticsStore.yesterday_information).toBeUndefined();
    expect(statisticsStore.is_day_loaded).toBe(false);
  });
});
