import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { SignalRecord } from '../../../../contracts';
import { initTestI18n } from '../../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { BTC_UUID, NEURON_UUID, PLATFORM_UUID } from '../../../testing/live-fixtures';
import { getSignalHistoryByUuid } from '../api/get-signal-history-by-uuid';
import { getSignalTrendByUuid } from '../api/get-signal-trend-by-uuid';
import { resetSignalsStore } from '../signals-store';
import { SignalTrendModal } from './signal-trend-modal';

vi.mock('../api/get-signal-trend-by-uuid', () => ({ getSignalTrendByUuid: vi.fn() }));
vi.mock('../api/get-signal-history-by-uuid', () => ({ getSignalHistoryByUuid: vi.fn() }));
// lightweight-charts draws on a canvas, which jsdom has not: the chart shows what it was given (the browser
// tests draw the real one).
vi.mock('../../../components/charts/candle-chart', () => ({
  CandleChart: ({
    candles,
    lines,
    markers,
  }: {
    candles: unknown[];
    lines: { label: string; price: string }[];
    markers: { label: string }[];
  }) => (
    <div data-testid="candle-chart">
      {candles.length} candles; {lines.map((line) => `${line.label} ${line.price}`).join(', ')};{' '}
      {markers.map((marker) => marker.label).join(', ')}
    </div>
  ),
}));

const SIGNAL_UUID = '99999999-9999-4999-8999-000000000777';
const RECORD: SignalRecord = {
  signal_uuid: SIGNAL_UUID,
  platform_uuid: PLATFORM_UUID,
  symbol_uuid: BTC_UUID,
  neuron_uuid: NEURON_UUID,
  signal_direction_created: 'SELL',
  signal_price_enter: 97000.5,
  signal_accuracy: 0.625,
  trend_moment: -1,
  signal_created_at: '2026-11-22T07:00:00.000Z',
  signal_resolved_at: null,
  signal_outcome: null,
  signal_price_exit: null,
};
const NEURON = { neuron_uuid: NEURON_UUID, neuron_tag_name: '' };

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetSignalsStore();
  vi.mocked(getSignalTrendByUuid).mockResolvedValue({
    signal: RECORD,
    symbol_pair: 'BTCUSDT',
    neuron: NEURON,
    hit_threshold_percent: 0.3,
    horizon_minutes: 30,
    price_target: 96709.5,
    price_stop: 97291.5,
    trend_data_list: [
      { time: 0, open: 1, high: 1, low: 1, close: 97000 },
      { time: 60_000, open: 1, high: 1, low: 1, close: 96950 },
    ],
  });
  vi.mocked(getSignalHistoryByUuid).mockResolvedValue({
    signal: RECORD,
    neuron: NEURON,
    resolved_count: 8,
    hit_count: 5,
    accuracy_window: 50,
    signal_history_list: [
      {
        ...RECORD,
        signal_uuid: `${SIGNAL_UUID.slice(0, -3)}001`,
        signal_outcome: 'hit',
        signal_price_exit: 96700,
      },
      {
        ...RECORD,
        signal_uuid: `${SIGNAL_UUID.slice(0, -3)}002`,
        signal_outcome: 'miss',
        signal_price_exit: 97300,
      },
    ],
  });
});
afterEach(cleanup);

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <SignalTrendModal />
              <Location />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe("'Signal Trend Data' modal", () => {
  test('closed without ?signal_detail_uuid', () => {
    renderAt('/trading');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('?signal_detail_uuid opens it with the signal, its chart and its track record', async () => {
    renderAt(`/trading?signal_detail_uuid=${SIGNAL_UUID}`);
    const dialog = await screen.findByRole('dialog', { name: 'Signal Trend Data' });
    expect(await screen.findByTestId('signal-trend-content')).toBeInTheDocument();
    expect(getSignalTrendByUuid).toHaveBeenCalledWith(SIGNAL_UUID);
    expect(getSignalHistoryByUuid).toHaveBeenCalledWith(SIGNAL_UUID);
    expect(dialog).toHaveTextContent('BTCUSDT');
    expect(dialog).toHaveTextContent('Sell');
    expect(dialog).toHaveTextContent('62.50 %');
    expect(dialog).toHaveTextContent('5 hits of 8 resolved');
    // No tag name: the neuron chip shows the first segment of its uuid.
    expect(dialog).toHaveTextContent('a1b2c3d4');
    expect(screen.getByTestId('candle-chart')).toHaveTextContent(
      `2 candles; Target 96709.5, Entry price ${RECORD.signal_price_enter}, Stop 97291.5; Signal`,
    );
    expect(screen.getByTestId('signal-history')).toHaveTextContent('HIT');
    expect(screen.getByTestId('signal-history')).toHaveTextContent('MISS');
  });

  test('closing removes the parameter and keeps the rest of the address', async () => {
    renderAt(`/trading?tab=1&signal_detail_uuid=${SIGNAL_UUID}`);
    await screen.findByRole('dialog', { name: 'Signal Trend Data' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/trading?tab=1');
    expect(screen.getByTestId('location')).not.toHaveTextContent('signal_detail_uuid');
  });

  test('a failed read shows the error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getSignalTrendByUuid).mockRejectedValueOnce(new Error('Signal not found'));
    renderAt(`/trading?signal_detail_uuid=${SIGNAL_UUID}`);
    expect(await screen.findByTestId('signal-detail-error')).toHaveTextContent('Signal not found');
  });
});
