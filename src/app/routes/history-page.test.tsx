import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { makeTrade } from '../../testing/trade-fixtures';
import { getTradesHistory } from '../../features/history/api/get-trades-history';
import { dayRange, resetHistoryStore } from '../../features/history/history-store';
import { durationMinutes, HistoryPage } from './history-page';

vi.mock('../../features/history/api/get-trades-history', () => ({ getTradesHistory: vi.fn() }));

const NOW = new Date(2026, 10, 22, 9, 30);
const CLOSED = {
  trade_open_price: '97000.0',
  trade_close_price: '97485.04',
  trade_create_timestamp: '2026-11-22T07:00:00.000Z',
  trade_close_timestamp: '2026-11-22T07:12:40.000Z',
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  resetHistoryStore();
  vi.mocked(getTradesHistory).mockReset();
  vi.mocked(getTradesHistory).mockResolvedValue([]);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function renderPage(entry = '/trade_history') {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[entry]}>
        <HistoryPage />
      </MemoryRouter>,
    );
  });
}

const lastRange = () => vi.mocked(getTradesHistory).mock.lastCall?.[0];

describe('/trade_history (SPEC.md §2)', () => {
  test('opens on today; each click moves exactly one day; the date button resets to today', async () => {
    await renderPage();
    const today = dayRange(NOW);
    expect(lastRange()).toEqual(today);
    await act(async () => fireEvent.click(screen.getByTestId('history-previous-day')));
    expect(lastRange()).toEqual(dayRange(new Date(2026, 10, 21)));
    await act(async () => fireEvent.click(screen.getByTestId('history-previous-day')));
    expect(lastRange()).toEqual(dayRange(new Date(2026, 10, 20)));
    await act(async () => fireEvent.click(screen.getByTestId('history-next-day')));
    expect(lastRange()).toEqual(dayRange(new Date(2026, 10, 21)));
    expect(screen.getByTestId('history-day')).toHaveTextContent('21');
    await act(async () => fireEvent.click(screen.getByTestId('history-day')));
    expect(lastRange()).toEqual(today);
  });

  test('a spinner while reading, then the empty text', async () => {
    let answer: (trades: never[]) => void = () => undefined;
    vi.mocked(getTradesHistory).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    await renderPage();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await act(async () => answer([]));
    expect(screen.getByTestId('history-empty')).toHaveTextContent('No trades on this day.');
  });

  test('rows: coin, direction, prices, margin, quantity, PNL, ROE, times, duration and status badge', async () => {
    vi.mocked(getTradesHistory).mockResolvedValue([
      makeTrade({
        ...CLOSED,
        trade_status: 'take_profit',
        trade_pnl_current: '0.97',
        trade_roe_current: '9.7',
      }),
      makeTrade({ ...CLOSED, trade_direction: 'SELL', trade_status: 'stop_loss', trade_pnl_current: '-1.2' }),
      makeTrade({ ...CLOSED, trade_status: 'treiling_stop' }),
      makeTrade({ ...CLOSED, trade_status: 'manual_close' }),
      makeTrade({ ...CLOSED, trade_status: 'direction_signal' }),
      makeTrade({ ...CLOSED, trade_status: 'reverse_signal' }),
      makeTrade({ trade_status: 'open' }),
      makeTrade({ ...CLOSED, trade_status: 'mystery' as 'open' }),
    ]);
    await renderPage();
    const rows = screen.getAllByTestId('history-row');
    expect(rows).toHaveLength(8);
    const first = within(rows[0]!);
    expect(rows[0]).toHaveTextContent('BTC');
    expect(first.getByTestId('trade-direction')).toHaveTextContent('BUY');
    expect(rows[0]).toHaveTextContent('97000.0');
    expect(rows[0]).toHaveTextContent('97485.0');
    expect(rows[0]).toHaveTextContent('10.00');
    expect(rows[0]).toHaveTextContent('0.002');
    expect(rows[0]).toHaveTextContent('0.97');
    expect(rows[0]).toHaveTextContent('9.70');
    expect(first.getByTestId('history-duration')).toHaveTextContent('13 min');
    expect(within(rows[1]!).getByTestId('trade-direction')).toHaveTextContent('SELL');
    const badges = screen.getAllByTestId('history-status');
    expect(badges.map((badge) => [badge.textContent, badge.dataset.palette])).toEqual([
      ['TP', 'green'],
      ['SL', 'red'],
      ['TS', 'violet'],
      ['MC', 'blue'],
      ['DS', 'blue'],
      ['RS', 'orange'],
      ['O', 'green'],
      ['', undefined],
    ]);
    // An unknown status shows the dots icon.
    expect(badges[7]?.querySelector('svg')).not.toBeNull();
    // Issue 53: what the letters mean, once each, under the table; the quantity in the row's own coin.
    expect(screen.getByTestId('history-status-legend')).toHaveTextContent(
      'O OpenTP Take profitSL Stop lossTS Trailing stopMC Manual closeDS Direction signalRS Reverse signal',
    );
    expect(rows[0]!.querySelector('[data-col="quantity"]')).toHaveTextContent('0.002 BTC');
    expect(screen.getByRole('columnheader', { name: 'Quantity' })).toBeInTheDocument();
    expect(within(rows[6]!).queryByTestId('history-duration')).toBeNull();
  });

  test('a closed trade whose orders are still on the exchange says how many (issue 54)', async () => {
    vi.mocked(getTradesHistory).mockResolvedValue([
      makeTrade({ ...CLOSED, trade_status: 'stop_loss', trade_orders_left: 3 }),
      makeTrade({ ...CLOSED, trade_status: 'take_profit', trade_orders_left: 0 }),
    ]);
    await renderPage();
    const rows = screen.getAllByTestId('history-row');
    expect(within(rows[0]!).getByTestId('history-orders-left')).toHaveTextContent(
      'Orders of this trade still on the exchange: 3.',
    );
    expect(within(rows[1]!).queryByTestId('history-orders-left')).toBeNull();
  });

  test("'Realized PNL for this page' sums exactly, green above 0 and red otherwise, with a tooltip", async () => {
    vi.mocked(getTradesHistory).mockResolvedValue([
      makeTrade({ ...CLOSED, trade_pnl_current: '0.1' }),
      makeTrade({ ...CLOSED, trade_pnl_current: '0.2', trade_pnl_net: '0.1', trade_roe_net: '1.03' }),
      makeTrade({ ...CLOSED, trade_pnl_current: '-0.295' }),
    ]);
    await renderPage();
    const badge = screen.getByTestId('realized-pnl');
    // SPEC.md's figure under its name, gross: 0.1 + 0.2 − 0.295 = 0.005 (green); the net beside it (issue 40):
    // 0.1 + 0.1 − 0.295 = −0.095. The tooltip defines both.
    expect(badge).toHaveTextContent('Realized PNL for this page0.01 $net -0.10 $');
    expect(badge).toHaveClass('is-positive');
    expect(badge.getAttribute('title')).toMatch(
      /Σ PNL \$ of the trades listed.*Net: the same after the commissions/,
    );
    const nets = screen.getAllByTestId('history-pnl-net');
    expect(nets[1]).toHaveTextContent('0.101.03 %');
    expect(nets[1]).toHaveClass('is-positive');
    expect(nets[0]).toHaveTextContent('—');
    vi.mocked(getTradesHistory).mockResolvedValue([]);
    await act(async () => fireEvent.click(screen.getByTestId('history-previous-day')));
    expect(screen.getByTestId('realized-pnl')).toHaveTextContent('0.00 $');
    expect(screen.getByTestId('realized-pnl')).toHaveClass('is-negative');
  });

  test('duration is rounded to whole minutes', () => {
    expect(
      durationMinutes({
        trade_create_timestamp: '2026-11-22T07:00:00.000Z',
        trade_close_timestamp: '2026-11-22T07:00:29.000Z',
      }),
    ).toBe(0);
    expect(
      durationMinutes({
        trade_create_timestamp: '2026-11-22T07:00:00.000Z',
        trade_close_timestamp: '2026-11-22T09:00:30.000Z',
      }),
    ).toBe(121);
  });

  test('?trade=<uuid> (a notification’s click, issue 41) scrolls to that row and outlines it', async () => {
    const trades = [makeTrade(), makeTrade(), makeTrade()];
    vi.mocked(getTradesHistory).mockResolvedValue(trades);
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    await renderPage(`/trade_history?trade=${trades[1]!.trade_uuid}`);
    const rows = await screen.findAllByTestId('history-row');
    await vi.waitFor(() => expect(rows[1]).toHaveClass('is-push-target'));
    expect(scrolled).toEqual([rows[1]]);
    expect(rows[0]).not.toHaveClass('is-push-target');
  });
});
