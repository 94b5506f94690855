// Day ranges in a zone with daylight saving time: Kyiv moves its clocks on 2026-03-29 (a 23-hour day).
process.env.TZ = 'Europe/Kyiv';

import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { makeTrade } from '../../testing/trade-fixtures';
import { getTradesHistory } from './api/get-trades-history';
import {
  dayRange,
  historyStore,
  loadTradeHistory,
  resetHistoryDayToToday,
  resetHistoryStore,
  shiftDayRange,
  shiftHistoryDay,
} from './history-store';

vi.mock('./api/get-trades-history', () => ({ getTradesHistory: vi.fn() }));

beforeAll(loadTradeCoreForTests);
beforeEach(() => {
  vi.mocked(getTradesHistory).mockReset();
  resetHistoryStore();
});
afterEach(() => vi.useRealTimers());

describe('day range (SPEC.md §5, §9)', () => {
  test('runs from 00:00:00.000 to 23:59:59.099 local time, sent as ISO strings', () => {
    const range = dayRange(new Date(2026, 10, 22, 15, 30));
    // Kyiv is UTC+2 in November.
    expect(range).toEqual({
      start_date: '2026-11-21T22:00:00.000Z',
      end_date: '2026-11-22T21:59:59.099Z',
    });
  });

  test('each step moves exactly one calendar day, across the daylight-saving change', () => {
    const saturday = dayRange(new Date(2026, 2, 28));
    const sunday = shiftDayRange(saturday, 1);
    const monday = shiftDayRange(sunday, 1);
    // UTC+2 before the change, UTC+3 after it.
    expect(saturday.start_date).toBe('2026-03-27T22:00:00.000Z');
    expect(sunday).toEqual({ start_date: '2026-03-28T22:00:00.000Z', end_date: '2026-03-29T20:59:59.099Z' });
    expect(monday.start_date).toBe('2026-03-29T21:00:00.000Z');
    expect(shiftDayRange(monday, -1)).toEqual(sunday);
    expect(shiftDayRange(sunday, -1)).toEqual(saturday);
  });

  test('previous, next and back to today', () => {
    vi.useFakeTimers({ now: new Date(2026, 10, 22, 9, 0) });
    resetHistoryDayToToday();
    const today = historyStore.date_range;
    shiftHistoryDay(-1);
    shiftHistoryDay(-1);
    expect(new Date(historyStore.date_range.start_date).getDate()).toBe(20);
    shiftHistoryDay(1);
    expect(new Date(historyStore.date_range.start_date).getDate()).toBe(21);
    resetHistoryDayToToday();
    expect(historyStore.date_range).toEqual(today);
  });
});

describe('reading the history (SPEC.md §3 Trade history state)', () => {
  test('lists the trades of the range and sums realized_pnl exactly', async () => {
    vi.mocked(getTradesHistory).mockResolvedValue([
      makeTrade({ trade_pnl_current: '0.1', trade_status: 'take_profit' }),
      makeTrade({ trade_pnl_current: '0.2', trade_status: 'stop_loss' }),
      makeTrade({ trade_pnl_current: '-0.05', trade_status: 'manual_close' }),
    ]);
    await loadTradeHistory();
    expect(getTradesHistory).toHaveBeenCalledWith(historyStore.date_range);
    expect(historyStore.trade_list).toHaveLength(3);
    // 0.1 + 0.2 − 0.05 is 0.25000000000000006 in binary floating point.
    expect(historyStore.realized_pnl).toBe('0.25');
    expect(historyStore.is_loading).toBe(false);
  });

  test('a failure is only logged; the state stays (SPEC.md §8)', async () => {
    vi.mocked(getTradesHistory).mockResolvedValueOnce([makeTrade({ trade_pnl_current: '1' })]);
    await loadTradeHistory();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getTradesHistory).mockRejectedValueOnce(new Error('Timeout'));
    await loadTradeHistory();
    expect(logged).toHaveBeenCalled();
    expect(historyStore.trade_list).toHaveLength(1);
    expect(historyStore.realized_pnl).toBe('1');
    logged.mockRestore();
  });

  test('an answer for a day left behind is dropped', async () => {
    let answerFirst: (trades: ReturnType<typeof makeTrade>[]) => void = () => undefined;
    vi.mocked(getTradesHistory)
      .mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce([]);
    const first = loadTradeHistory();
    shiftHistoryDay(-1);
    await loadTradeHistory();
    answerFirst([makeTrade()]);
    await first;
    expect(historyStore.trade_list).toEqual([]);
  });
});
