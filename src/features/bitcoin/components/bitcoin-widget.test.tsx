import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { MODAL_CLOSE_MS } from '../../../config/constants';
import { initTestI18n } from '../../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { getBitcoinPublicTrendData } from '../api/get-bitcoin-public-trend-data';
import { bitcoinStore, resetBitcoinStore, setBitcoinInformation } from '../bitcoin-store';
import { BitcoinWidget } from './bitcoin-widget';

vi.mock('../api/get-bitcoin-public-trend-data', () => ({ getBitcoinPublicTrendData: vi.fn() }));
// nivo needs a laid-out page; the chart's own rendering is checked in the browser tests.
vi.mock('../../../components/charts/price-chart', () => ({
  PriceChart: ({ points, label }: { points: unknown[]; label: string }) => (
    <div data-testid="price-chart" aria-label={label}>
      {points.length} points
    </div>
  ),
}));

const INFORMATION = { current_price: 97123.5, trend_moment: -1 as const, trend_prediction: -0.456 };

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetBitcoinStore();
  vi.mocked(getBitcoinPublicTrendData).mockReset();
  vi.mocked(getBitcoinPublicTrendData).mockResolvedValue({
    symbol_pair: 'BTCUSDT',
    bitcoin_public_information: INFORMATION,
    prediction_horizon_minutes: 15,
    trend_data_list: [
      { time: 0, price: 97_000, trend_moment: 0, trend_prediction: null },
      { time: 60_000, price: 97_100, trend_moment: 1, trend_prediction: 0.1 },
    ],
  });
});
afterEach(cleanup);

describe('BitcoinWidget', () => {
  test('price with 0 decimals, trend with 2 (absolute), the SPEC tooltips', () => {
    setBitcoinInformation(INFORMATION);
    render(<BitcoinWidget />);
    expect(screen.getByTestId('bitcoin-price')).toHaveTextContent('97 124 $');
    expect(screen.getByTestId('bitcoin-price')).toHaveAttribute(
      'title',
      'Current Price of Bitcoin, click for open additional information',
    );
    expect(screen.getByTestId('bitcoin-trend')).toHaveTextContent('0.46 %');
    expect(screen.getByTestId('bitcoin-trend')).toHaveAttribute(
      'title',
      'Prediction of Bitcoin trend, click for open additional information',
    );
    expect(screen.getByRole('img', { name: 'Down' })).toBeInTheDocument();
  });

  test("the arrow is the forecast's sign, not trend_moment's: −0.05 % reads ▼ 0.05 % on a bull moment (issue 53)", () => {
    setBitcoinInformation({ ...INFORMATION, trend_moment: 1, trend_prediction: -0.05 });
    render(<BitcoinWidget />);
    expect(screen.getByTestId('bitcoin-trend')).toHaveTextContent('0.05 %');
    expect(screen.getByRole('img', { name: 'Down' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Up' })).toBeNull();
  });

  // SPEC.md §9: four tiers around TREND_COLOUR_THRESHOLD_PERCENT (0.2 %), whatever trend_moment says.
  test.each([
    [0.35, 'palette-green'],
    [0.15, 'palette-yellow'],
    [-0.15, 'palette-orange'],
    [-0.35, 'palette-red'],
    [0, 'palette-gray'],
  ])('a prediction of %s (percent) is coloured %s', (trend_prediction, palette) => {
    setBitcoinInformation({ ...INFORMATION, trend_moment: 1, trend_prediction });
    render(<BitcoinWidget />);
    expect(screen.getByTestId('bitcoin-trend')).toHaveClass('trend-chip', palette);
  });

  test('each button opens "Bitcoin Public Information" with the chart, and every opening refetches', async () => {
    setBitcoinInformation(INFORMATION);
    render(<BitcoinWidget />);
    fireEvent.click(screen.getByTestId('bitcoin-price'));
    const dialog = await screen.findByRole('dialog', { name: 'Bitcoin Public Information' });
    expect(await screen.findByTestId('price-chart')).toHaveTextContent('2 points');
    expect(dialog).toHaveTextContent('BEAR');
    expect(dialog).toHaveTextContent('-0.46 %');
    expect(getBitcoinPublicTrendData).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByTestId('bitcoin-trend'));
    await act(async () => undefined);
    expect(getBitcoinPublicTrendData).toHaveBeenCalledTimes(2);
  });

  test('the trend data, cached API data, is dropped 60 s after the modal closed (SPEC.md §9); kept while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setBitcoinInformation(INFORMATION);
      render(<BitcoinWidget />);
      fireEvent.click(screen.getByTestId('bitcoin-price'));
      expect(await screen.findByTestId('price-chart')).toHaveTextContent('2 points');
      await act(() => vi.advanceTimersByTimeAsync(5 * 60_000));
      expect(bitcoinStore.trend_data).toBeDefined();
      fireEvent.keyDown(document, { key: 'Escape' });
      // The body goes away after the modal's closing state (MODAL_CLOSE_MS, 300 ms); its 60 s start then.
      await act(() => vi.advanceTimersByTimeAsync(MODAL_CLOSE_MS));
      expect(screen.queryByTestId('price-chart')).toBeNull();
      await act(() => vi.advanceTimersByTimeAsync(59_900));
      expect(bitcoinStore.trend_data).toBeDefined();
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(bitcoinStore.trend_data).toBeUndefined();
      // The widget's live information is not cached data: it stays.
      expect(screen.getByTestId('bitcoin-trend')).toHaveTextContent('0.46 %');
    } finally {
      vi.useRealTimers();
    }
  });
});
