import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AnalysisResult } from '../../../contracts';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import {
  ANALYSIS_DEBOUNCE_MS,
  EMPTY_ANALYSIS_RESULT,
  resetAnalysisStore,
} from '../../features/analysis/analysis-store';
import { getAnalysis } from '../../features/analysis/api/get-analysis';
import { AnalysisPage } from './analysis-page';

vi.mock('../../features/analysis/api/get-analysis', () => ({ getAnalysis: vi.fn() }));
vi.mock('../../features/analysis/components/correlation-chart', () => ({
  CorrelationChart: ({ points, label }: { points: { lag: number }[]; label: string }) => (
    <div data-testid="correlation-chart" aria-label={label}>
      {points.length} lags from {points[0]?.lag} to {points.at(-1)?.lag}
    </div>
  ),
}));

const LAGS = Array.from({ length: 49 }, (_, i) => i - 24);
const RESULT: AnalysisResult = {
  lag_price_list: LAGS.map((lag) => ({
    lag,
    corr_buy: lag === 3 ? 0.58196 : 0.01 * (lag % 5),
    corr_sell: lag === -2 ? 0.1235 : -0.02,
  })),
  lag_buy: { max_corr: 0.58196, lag_at_max_corr: 3 },
  lag_sell: { max_corr: 0.1235, lag_at_max_corr: -2 },
};

/** 2026-03-15 14:30 local time. */
const NOW = new Date(2026, 2, 15, 14, 30);
const local = (year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0, ms = 0) =>
  new Date(year, month, day, hours, minutes, seconds, ms).toISOString();

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  resetAnalysisStore();
  vi.mocked(getAnalysis).mockReset();
  vi.mocked(getAnalysis).mockResolvedValue(RESULT);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets promises (the answer, the lazy chart) settle. */
const settle = () => act(async () => undefined);
const advance = (ms: number) =>
  act(async () => {
    vi.advanceTimersByTime(ms);
  });

async function renderPage() {
  render(<AnalysisPage />);
  await settle();
  await settle();
}

const picker = (testId: string) => within(screen.getByTestId(testId));

/** A click; the store notifies React after a microtask, so the click is settled too. */
async function click(element: HTMLElement) {
  fireEvent.click(element);
  await settle();
}

describe('/analysis', () => {
  test('asks for the last 7 days at once and shows both maxima and the chart', async () => {
    await renderPage();
    expect(getAnalysis).toHaveBeenCalledTimes(1);
    expect(getAnalysis).toHaveBeenCalledWith({
      datatime_start: local(2026, 2, 9),
      datatime_end: local(2026, 2, 15, 23, 59, 59, 99),
    });
    const buy = screen.getByTestId('analysis-max-buy');
    expect(buy).toHaveTextContent('Buy: maximum correlation');
    expect(buy).toHaveTextContent('0.582');
    expect(buy).toHaveTextContent('at lag +3 (+15 min)');
    const sell = screen.getByTestId('analysis-max-sell');
    expect(sell).toHaveTextContent('0.124');
    expect(sell).toHaveTextContent('at lag -2 (-10 min)');
    expect(screen.getByTestId('correlation-chart')).toHaveTextContent('49 lags from -24 to 24');
    // The values by lag, to 3 decimals.
    const row = within(screen.getByTestId('analysis-values')).getByRole('rowheader', {
      name: '+3 (+15 min)',
    }).parentElement!;
    expect(row).toHaveTextContent('0.582');
    expect(row).toHaveTextContent('-0.020');
  });

  test('day changes are sent 800 ms after the last one, once', async () => {
    await renderPage();
    vi.mocked(getAnalysis).mockClear();
    const start = picker('analysis-start-day');
    for (let i = 0; i < 3; i += 1) {
      await click(start.getByRole('button', { name: 'Previous day' }));
      await advance(ANALYSIS_DEBOUNCE_MS - 100);
    }
    expect(getAnalysis).not.toHaveBeenCalled();
    await advance(100);
    await settle();
    expect(getAnalysis).toHaveBeenCalledTimes(1);
    expect(getAnalysis).toHaveBeenCalledWith({
      datatime_start: local(2026, 2, 6),
      datatime_end: local(2026, 2, 15, 23, 59, 59, 99),
    });
  });

  test('the day label shows the day and resets it to today; next-day stops at today', async () => {
    await renderPage();
    const start = picker('analysis-start-day');
    const end = picker('analysis-end-day');
    expect(start.getByTitle('Click for today')).toHaveTextContent('Mon, Mar 9, 2026');
    expect(end.getByTitle('Click for today')).toHaveTextContent('Sun, Mar 15, 2026');
    expect(end.getByRole('button', { name: 'Next day' })).toBeDisabled();
    expect(start.getByRole('button', { name: 'Next day' })).toBeEnabled();

    await click(end.getByRole('button', { name: 'Previous day' }));
    expect(end.getByTitle('Click for today')).toHaveTextContent('Sat, Mar 14, 2026');
    expect(end.getByRole('button', { name: 'Next day' })).toBeEnabled();
    await click(end.getByTitle('Click for today'));
    expect(end.getByTitle('Click for today')).toHaveTextContent('Sun, Mar 15, 2026');

    await click(start.getByTitle('Click for today'));
    expect(start.getByTitle('Click for today')).toHaveTextContent('Sun, Mar 15, 2026');
    expect(start.getByRole('button', { name: 'Next day' })).toBeDisabled();
    vi.mocked(getAnalysis).mockClear();
    await advance(ANALYSIS_DEBOUNCE_MS);
    expect(getAnalysis).toHaveBeenCalledWith({
      datatime_start: local(2026, 2, 15),
      datatime_end: local(2026, 2, 15, 23, 59, 59, 99),
    });
  });

  test('an empty answer shows "No data for this range"', async () => {
    vi.mocked(getAnalysis).mockResolvedValue(EMPTY_ANALYSIS_RESULT);
    await renderPage();
    expect(screen.getByTestId('analysis-empty')).toHaveTextContent('No data for this range');
    expect(screen.queryByTestId('correlation-chart')).toBeNull();
  });

  test('a failure is only logged and shows the empty state', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getAnalysis).mockRejectedValue(new Error('Timeout'));
    await renderPage();
    expect(logged).toHaveBeenCalled();
    expect(screen.getByTestId('analysis-empty')).toHaveTextContent('No data for this range');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('an end day before the start day is not sent and says why', async () => {
    await renderPage();
    vi.mocked(getAnalysis).mockClear();
    const end = picker('analysis-end-day');
    for (let i = 0; i < 7; i += 1) await click(end.getByRole('button', { name: 'Previous day' }));
    await advance(ANALYSIS_DEBOUNCE_MS);
    expect(getAnalysis).not.toHaveBeenCalled();
    expect(screen.getByTestId('analysis-range-problem')).toHaveTextContent(
      'The start day must not be after the end day.',
    );
    expect(screen.queryByTestId('analysis-max-buy')).toBeNull();
  });

  test('a range over 31 days is not sent and says why', async () => {
    await renderPage();
    vi.mocked(getAnalysis).mockClear();
    const start = picker('analysis-start-day');
    for (let i = 0; i < 24; i += 1) await click(start.getByRole('button', { name: 'Previous day' }));
    await advance(ANALYSIS_DEBOUNCE_MS);
    expect(getAnalysis).toHaveBeenCalledTimes(1);
    await click(start.getByRole('button', { name: 'Previous day' }));
    await advance(ANALYSIS_DEBOUNCE_MS);
    expect(getAnalysis).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('analysis-range-problem')).toHaveTextContent(
      'The range can be at most 31 days.',
    );
  });

  test('speaks Ukrainian', async () => {
    await initTestI18n('ua');
    try {
      vi.mocked(getAnalysis).mockResolvedValue(EMPTY_ANALYSIS_RESULT);
      await renderPage();
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Аналіз');
      expect(screen.getByTestId('analysis-empty')).toHaveTextContent('Немає даних за цей діапазон');
      expect(picker('analysis-start-day').getByRole('button', { name: 'Попередній день' })).toBeEnabled();
    } finally {
      await initTestI18n('en');
    }
  });
});
