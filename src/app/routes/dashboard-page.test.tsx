import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { HouseRecord, StatisticTradeItem, StatisticTradePoint } from '../../../contracts';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { getHouseRecord } from '../../features/statistics/api/get-house-record';
import { getStatisticTradeByDay } from '../../features/statistics/api/get-statistic-trade-by-day';
import { getStatisticTradeByMonth } from '../../features/statistics/api/get-statistic-trade-by-month';
import { STATISTICS_REFRESH_MS } from '../../features/statistics/statistics-format';
import { resetStatisticsStore } from '../../features/statistics/statistics-store';
import { DashboardPage, NowSection } from './dashboard-page';

vi.mock('../../features/statistics/api/get-statistic-trade-by-day', () => ({
  getStatisticTradeByDay: vi.fn(),
}));
vi.mock('../../features/statistics/api/get-statistic-trade-by-month', () => ({
  getStatisticTradeByMonth: vi.fn(),
}));
vi.mock('../../features/statistics/api/get-house-record', () => ({ getHouseRecord: vi.fn() }));
// The nivo charts draw nothing in jsdom (no layout): stand-ins show what they were given.
vi.mock('../../features/statistics/components/last-day-chart', () => ({
  LastDayChart: ({ points }: { points: StatisticTradePoint[] }) => (
    <div data-testid="last-day-chart">{points.length} points</div>
  ),
}));
vi.mock('../../features/statistics/components/last-month-chart', () => ({
  LastMonthChart: ({ items }: { items: StatisticTradeItem[] }) => (
    <div data-testid="last-month-chart">{items.length} days</div>
  ),
}));
vi.mock('../../features/statistics/components/trade-doughnuts', () => ({
  TradeDoughnuts: ({ testId, figures }: { testId: string; figures: { roe_sell: number } }) => (
    <div data-testid={testId}>doughnuts, sell ROE {figures.roe_sell}</div>
  ),
}));

/** 2026-03-15 12:30 UTC. */
const NOW = new Date(Date.UTC(2026, 2, 15, 12, 30));

const point = (index: number, overrides: Partial<StatisticTradePoint> = {}): StatisticTradePoint => ({
  statistic_time: new Date(Date.UTC(2026, 2, 14, 12, 30) + index * 300_000).toISOString(),
  trade_open_count_buy: 1,
  trade_open_count_sell: 1,
  trade_open_roe_buy: 0,
  trade_open_roe_sell: 0,
  current_price: 97_000,
  ...overrides,
});
const DAY = [
  ...Array.from({ length: 287 }, (_, index) => point(index)),
  point(287, {
    trade_open_count_buy: 3,
    trade_open_count_sell: 2,
    trade_open_roe_buy: 0.1,
    trade_open_roe_sell: 0.2,
  }),
];

const item = (day: number, overrides: Partial<StatisticTradeItem> = {}): StatisticTradeItem => ({
  statistic_date: `2026-02-${String(day).padStart(2, '0')}`,
  trade_close_count_buy: 1,
  trade_close_count_sell: 1,
  trade_close_roe_buy: 0,
  trade_close_roe_sell: 0,
  current_price: 96_000,
  ...overrides,
});
const MONTH = [
  ...Array.from({ length: 27 }, (_, index) => item(index + 1)),
  item(28, {
    statistic_date: '2026-03-14',
    trade_close_count_buy: 12,
    trade_close_count_sell: 5,
    trade_close_roe_buy: 1.15,
    trade_close_roe_sell: -3.3,
  }),
];

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
  previous_settings: { ...SETTINGS, trade_take_profit_percent: 5, trade_treiling_stop_percent: 3 },
  fees_since: '2026-02-20',
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  resetStatisticsStore();
  vi.mocked(getStatisticTradeByDay).mockReset().mockResolvedValue(DAY);
  vi.mocked(getStatisticTradeByMonth).mockReset().mockResolvedValue(MONTH);
  vi.mocked(getHouseRecord).mockReset().mockResolvedValue(HOUSE);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets promises (the answers, the lazy charts) settle. */
const settle = () => act(async () => undefined);

async function renderPage() {
  const view = render(<DashboardPage />);
  await settle();
  await settle();
  return view;
}

const line = (testId: string) => screen.getByTestId(testId);

describe('/dashboard', () => {
  test('reads both lists on mount and shows the four sections', async () => {
    await renderPage();
    expect(getStatisticTradeByDay).toHaveBeenCalledTimes(1);
    expect(getStatisticTradeByMonth).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Dashboard');
    for (const title of [
      'Statistic Trade By Last Day',
      'Statistic Trade By Now',
      'Statistic Trade By Yesterday',
      'Statistic Trade By Last Month',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
    }
    expect(screen.getByTestId('last-day-chart')).toHaveTextContent('288 points');
    expect(screen.getByTestId('last-month-chart')).toHaveTextContent('28 days');
  });

  test('says how the house trades: its settings, since which day and before, and since which day fees', async () => {
    await renderPage();
    expect(getHouseRecord).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { level: 2, name: 'How the house trades' })).toBeInTheDocument();
    expect(line('house-terms-settings')).toHaveTextContent(
      'every signal of accuracy 60 % or more with the new-trader defaults: margin 10 $ at ×10, stop loss 10 %, take profit 30 %, trailing stop 8 % (of the margin), the take profit and the trailing stop held by the exchange.',
    );
    expect(line('house-terms-since')).toHaveTextContent(
      'Its trades carry these settings from 2026-03-12 (UTC); before that day it traded with margin 10 $ at ×10, stop loss 10 %, take profit 5 %, trailing stop 3 %. When the defaults change, the record changes from that day on',
    );
    expect(line('house-terms-fees')).toHaveTextContent(
      "Its trades book the exchange's fees from 2026-02-20 (UTC); the ROE on this page is before fees.",
    );
  });

  test('the house terms without an earlier setting, before any trade with the new ones, and without a house', async () => {
    vi.mocked(getHouseRecord).mockResolvedValue({ ...HOUSE, previous_settings: null, fees_since: null });
    await renderPage();
    expect(line('house-terms-since')).toHaveTextContent(
      'Its trades carry these settings from the start of the record (2026-03-12, UTC).',
    );
    expect(line('house-terms-fees')).toHaveTextContent('No fees are booked in its trades yet');
    cleanup();
    resetStatisticsStore();
    vi.mocked(getHouseRecord).mockResolvedValue({ ...HOUSE, settings_since: null });
    await renderPage();
    expect(line('house-terms-since')).toHaveTextContent(
      'Its next trades carry these settings; so far it traded with margin 10 $ at ×10, stop loss 10 %, take profit 5 %',
    );
    cleanup();
    resetStatisticsStore();
    vi.mocked(getHouseRecord).mockResolvedValue({
      house_settings: null,
      settings_since: null,
      previous_settings: null,
      fees_since: null,
    });
    await renderPage();
    expect(screen.queryByTestId('house-terms')).toBeNull();
    expect(screen.getByTestId('statistics-last-month')).toBeInTheDocument();
  });

  test("'Statistic Trade By Now' shows the latest point with exact totals", async () => {
    await renderPage();
    const now = within(screen.getByTestId('statistics-now'));
    expect(now.getByTestId('statistics-now-summary')).toBeInTheDocument();
    // 0.1 + 0.2 is exactly 0.3 (no binary floating point).
    expect(line('statistics-now-summary-total-roe')).toHaveTextContent('Total ROE:0.30 %');
    expect(line('statistics-now-summary-buy-roe')).toHaveTextContent('Buy ROE:0.10 %');
    expect(line('statistics-now-summary-sell-roe')).toHaveTextContent('Sell ROE:0.20 %');
    expect(line('statistics-now-summary-total-count')).toHaveTextContent('Total Count:5');
    expect(line('statistics-now-summary-buy-count')).toHaveTextContent('Buy Count:3');
    expect(line('statistics-now-summary-sell-count')).toHaveTextContent('Sell Count:2');
    expect(now.getByTestId('statistics-now-doughnuts')).toBeInTheDocument();
  });

  test("'Statistic Trade By Yesterday' shows the last monthly item", async () => {
    await renderPage();
    const yesterday = within(screen.getByTestId('statistics-yesterday'));
    expect(yesterday.getByText('2026-03-14 (UTC)')).toBeInTheDocument();
    expect(line('statistics-yesterday-summary-total-roe')).toHaveTextContent('Total ROE:-2.15 %');
    expect(line('statistics-yesterday-summary-total-roe').querySelector('dd')).toHaveClass('is-negative');
    expect(line('statistics-yesterday-summary-buy-roe')).toHaveTextContent('Buy ROE:1.15 %');
    expect(line('statistics-yesterday-summary-sell-roe')).toHaveTextContent('Sell ROE:-3.30 %');
    expect(line('statistics-yesterday-summary-total-count')).toHaveTextContent('Total Count:17');
    expect(yesterday.getByTestId('statistics-yesterday-doughnuts')).toHaveTextContent('sell ROE -3.3');
  });

  test("'Statistic Trade By Now' renders nothing without a point", async () => {
    const { container } = render(<NowSection />);
    expect(container).toBeEmptyDOMElement();
    cleanup();
    vi.mocked(getStatisticTradeByDay).mockResolvedValue([]);
    await renderPage();
    expect(screen.queryByTestId('statistics-now')).toBeNull();
    expect(screen.queryByText('Statistic Trade By Now')).toBeNull();
    expect(screen.getByTestId('statistics-yesterday')).toBeInTheDocument();
  });

  test('shows a loader until the first answer, then "No statistics yet" for empty lists', async () => {
    let answerDay: (list: StatisticTradePoint[]) => void = () => undefined;
    vi.mocked(getStatisticTradeByDay).mockImplementation(
      () => new Promise((resolve) => (answerDay = resolve)),
    );
    vi.mocked(getStatisticTradeByMonth).mockResolvedValue([]);
    await renderPage();
    const lastDay = within(screen.getByTestId('statistics-last-day'));
    expect(lastDay.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.getByTestId('statistics-last-month-empty')).toHaveTextContent('No statistics yet');
    expect(screen.getByTestId('statistics-yesterday-empty')).toHaveTextContent('No statistics yet');
    await act(async () => answerDay([]));
    expect(screen.getByTestId('statistics-last-day-empty')).toHaveTextContent('No statistics yet');
    expect(lastDay.queryByRole('status')).toBeNull();
  });

  test('a failure is only logged: no message, the last data stays', async () => {
    await renderPage();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getStatisticTradeByDay).mockRejectedValue(new Error('Timeout'));
    vi.mocked(getStatisticTradeByMonth).mockRejectedValue(new Error('Timeout'));
    await act(async () => {
      vi.advanceTimersByTime(STATISTICS_REFRESH_MS);
    });
    await settle();
    expect(logged).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('last-day-chart')).toHaveTextContent('288 points');
    expect(line('statistics-now-summary-total-roe')).toHaveTextContent('0.30 %');
  });

  test('reads again every 5 minutes while open, and stops when closed', async () => {
    const { unmount } = await renderPage();
    await act(async () => {
      vi.advanceTimersByTime(STATISTICS_REFRESH_MS - 1);
    });
    expect(getStatisticTradeByDay).toHaveBeenCalledTimes(1);
    vi.mocked(getStatisticTradeByDay).mockResolvedValue([
      ...DAY.slice(1),
      point(288, { trade_open_count_buy: 9 }),
    ]);
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    await settle();
    expect(getStatisticTradeByDay).toHaveBeenCalledTimes(2);
    expect(getStatisticTradeByMonth).toHaveBeenCalledTimes(2);
    expect(line('statistics-now-summary-buy-count')).toHaveTextContent('Buy Count:9');
    unmount();
    await act(async () => {
      vi.advanceTimersByTime(3 * STATISTICS_REFRESH_MS);
    });
    expect(getStatisticTradeByDay).toHaveBeenCalledTimes(2);
  });

  test('speaks Ukrainian', async () => {
    await initTestI18n('ua');
    try {
      await renderPage();
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Панель статистики');
      expect(screen.getByRole('heading', { level: 2, name: 'Статистика угод зараз' })).toBeInTheDocument();
      expect(
        screen.getByRole('heading', { level: 2, name: 'Статистика угод за останній місяць' }),
      ).toBeInTheDocument();
      expect(line('statistics-now-summary-total-roe')).toHaveTextContent('Загальний ROE:0.30 %');
      expect(line('statistics-now-summary-sell-count')).toHaveTextContent('Кількість продажів:2');
    } finally {
      await initTestI18n('en');
    }
  });
});
