import { describe, expect, test, vi } from 'vitest';
import { statisticTradeByDayAnswer, statisticTradeByMonthAnswer } from '../../../../contracts';
import { apiGet } from '../../../lib/api-client';
import { getStatisticTradeByDay } from './get-statistic-trade-by-day';
import { getStatisticTradeByMonth } from './get-statistic-trade-by-month';

vi.mock('../../../lib/api-client', () => ({ apiGet: vi.fn() }));

describe('statistics calls', () => {
  test('GET public/get_statistic_trade_by_day/ parses with the contract and gives the list', async () => {
    const list = [
      {
        statistic_time: '2026-03-15T12:00:00.000Z',
        trade_open_count_buy: 1,
        trade_open_count_sell: 0,
        trade_open_roe_buy: 0.5,
        trade_open_roe_sell: 0,
        current_price: 97_000,
      },
    ];
    vi.mocked(apiGet).mockResolvedValueOnce({ result: { statistic_trade_by_day_list: list } });
    await expect(getStatisticTradeByDay()).resolves.toEqual(list);
    expect(apiGet).toHaveBeenCalledWith('public/get_statistic_trade_by_day/', statisticTradeByDayAnswer);
  });

  test('GET public/get_statistic_trade_by_month/ parses with the contract and gives the list', async () => {
    vi.mocked(apiGet).mockResolvedValueOnce({ result: { statistic_trade_by_month_list: [] } });
    await expect(getStatisticTradeByMonth()).resolves.toEqual([]);
    expect(apiGet).toHaveBeenCalledWith('public/get_statistic_trade_by_month/', statisticTradeByMonthAnswer);
  });
});
