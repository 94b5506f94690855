import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { ETH_UUID, PLATFORM_UUID } from '../../../testing/live-fixtures';
import { initTestI18n } from '../../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { MODAL_CLOSE_MS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { preferencesStore, resetPreferencesStore } from '../../../stores/preferences-store';
import { TradeTokenLevel } from '../../../stores/token-level';
import { resetTradeTokensStore, tradeTokensStore } from '../../../stores/trade-tokens-store';
import { getOpenTrades } from '../api/get-open-trades';
import { getTradeTrendByUuid } from '../api/get-trade-trend-by-uuid';
import { makeCalculated, makeTrade } from '../../../testing/trade-fixtures';
import { closeTrade, resetTradeStatus } from '../trades-actions';
import {
  applyTradeCalculated,
  closeConfirmStore,
  closeRequestStore,
  loadOpenTrades,
  resetTradesStore,
  setOpenTrades,
  tradesStore,
} from '../trades-store';
import { useTradeStatusTimers } from '../use-trade-status-timers';
import { OpenTradesTable } from './open-trades-table';
import { TradeTrendModal } from './trade-trend-modal';
import { CloseConfirmDialog } from './close-confirm-dialog';

vi.mock('../trades-actions', () => ({
  closeTrade: vi.fn(async () => true),
  resetTradeStatus: vi.fn(async () => true),
}));
vi.mock('../api/get-open-trades', () => ({ getOpenTrades: vi.fn(async () => []) }));
vi.mock('../api/get-trade-trend-by-uuid', () => ({ getTradeTrendByUuid: vi.fn() }));
vi.mock('../../../lib/format', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../lib/format')>();
  return { ...original, formatFixed: vi.fn(original.formatFixed) };
});
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

/** Global preferences with one-click close on (issue 39): Close closes at once. */
const ONE_CLICK_CLOSE = {
  trade_auto_open_delay: 0,
  trade_auto_close_delay: 0,
  minimal_accuracy: 60,
  trade_in_server_side: 0,
  trade_max_open_trades: 0,
  trade_daily_loss_limit: 0,
  trade_exits_on_exchange: 1,
  trade_one_click_close: 1,
} as const;

const HELD_BY_EXCHANGE = {
  take_profit: { held_by: 'exchange', price: '97485.00' },
  trailing: { held_by: 'exchange', price: '97291.00' },
} as const;

const ETH_SYMBOL = {
  symbol_uuid: ETH_UUID,
  symbol_name: 'ETH',
  symbol_pair: 'ETHUSDT',
  symbol_price_precision: 2,
  symbol_quantity_precision: 3,
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  resetTradesStore();
  resetTradeTokensStore();
  resetPreferencesStore();
  closeConfirmStore.trade_uuid = null;
  vi.mocked(closeTrade).mockClear();
  vi.mocked(resetTradeStatus).mockClear();
  checkExchange.mockClear();
  vi.mocked(getOpenTrades).mockClear();
  tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.TRADE_AVAILABLE };
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** The table, the trend modal and the session's UI-status clock, as the app mounts them. */
function Session() {
  useTradeStatusTimers(true, checkExchange);
  return (
    <>
      <OpenTradesTable />
      <TradeTrendModal />
      <Location />
    </>
  );
}

const checkExchange = vi.fn();

function renderAt(path = '/trading') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="*" element={<Session />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function setAutoCloseDelay(trade_auto_close_delay: number) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay: 0,
    trade_auto_close_delay,
    minimal_accuracy: 60,
    trade_in_server_side: 0,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
}

describe('open-trades table (SPEC.md §2 Trading screen)', () => {
  test('shows a spinner before the first read, then the empty text', async () => {
    renderAt();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await act(() => loadOpenTrades());
    expect(screen.getByTestId('open-trades-empty')).toHaveTextContent('No open trades');
  });

  test('each row shows coin, direction, prices at the symbol precision, margin, quantity, PNL, ROE, SL', () => {
    setOpenTrades([
      makeTrade({
        trade_open_price: '97000.04',
        trade_current_price: '97123.45',
        trade_last_update_price: -1,
        trade_margin: '12.5',
        trade_quantity: '0.002',
        trade_pnl_current: '0.24682',
        trade_roe_current: '-1.005',
        trade_treiling_stop_percent_current: '-10',
        trade_liquidation_price: '92520.1',
        trade_open_commission: '0.09700000',
        trade_close_commission: '0.09712345',
        trade_pnl_net: '0.05269655',
        trade_roe_net: '0.54',
      }),
    ]);
    renderAt();
    const row = screen.getByTestId('trade-row');
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('BTC');
    expect(within(row).getByTestId('trade-direction')).toHaveTextContent('BUY');
    expect(within(row).getByTestId('trade-open-price')).toHaveTextContent('97000.0');
    expect(within(row).getByTestId('trade-current-price')).toHaveTextContent('97123.5');
    expect(within(row).getByRole('img', { name: 'Down' })).toBeInTheDocument();
    // Liq. $ (issue 18): the price, and (97123.45 − 92520.1) ÷ 97123.45 × 100 = 4.7396… % away.
    expect(within(row).getByTestId('trade-liq-price')).toHaveTextContent('92520.1');
    expect(within(row).getByTestId('trade-liq-distance')).toHaveTextContent('4.74 % away');
    expect(cells[4]).toHaveTextContent('12.50');
    expect(cells[5]).toHaveTextContent('0.002');
    // Net of both commissions beside the gross figures, and the fees: opening as charged, closing estimated.
    expect(within(row).getByTestId('trade-pnl-net')).toHaveTextContent('0.05');
    expect(within(row).getByTestId('trade-net')).toHaveClass('is-positive');
    expect(within(row).getByTestId('trade-roe-net')).toHaveTextContent('0.54 %');
    expect(within(row).getByTestId('trade-fee-open')).toHaveTextContent('0.0970');
    expect(within(row).getByTestId('trade-fee-close')).toHaveTextContent('+0.0971 close');
    expect(within(row).getByTestId('trade-pnl')).toHaveTextContent('0.25');
    expect(within(row).getByTestId('trade-pnl')).toHaveClass('is-positive');
    // Half away from zero in exact decimals: −1.005 → −1.01 (binary floating point gives −1.00).
    expect(within(row).getByTestId('trade-roe')).toHaveTextContent('-1.01');
    expect(within(row).getByTestId('trade-roe')).toHaveClass('is-negative');
    expect(within(row).getByTestId('trade-sl')).toHaveTextContent('-10.00');
    expect(within(row).getByTestId('trade-status')).toHaveTextContent('O');
  });

  test('a trade with trade_error shows a warning marker with a translated tooltip', () => {
    setOpenTrades([makeTrade({ trade_error: 'stop_missing', trade_direction: 'SELL' })]);
    renderAt();
    const marker = screen.getByTestId('trade-error');
    expect(marker).toHaveAttribute('title', expect.stringContaining('no stop loss on the exchange'));
    expect(screen.getByTestId('trade-direction')).toHaveTextContent('SELL');
  });

  test('the exits badge says who closes the trade with no page open (issue 35)', () => {
    const reason = "The trailing stop's callback rate 0.0 % is outside the exchange's 0.1–10 %";
    setOpenTrades([
      makeTrade({ trade_exits: HELD_BY_EXCHANGE }),
      makeTrade({
        trade_exits: { ...HELD_BY_EXCHANGE, trailing: { held_by: 'signaldesk', reason } },
      }),
      makeTrade({ trade_exits: null }),
      makeTrade({ trade_exits: HELD_BY_EXCHANGE, trade_error: 'stop_missing' }),
    ]);
    renderAt();
    const badges = screen.getAllByTestId('trade-exits');
    const states = badges.map((badge) => [badge.dataset.state, badge.textContent]);
    expect(states).toEqual([
      ['exchange', 'Exchange'],
      ['signaldesk', 'Signaldesk'],
      ['signaldesk', 'Signaldesk'],
      ['unprotected', 'Unprotected'],
    ]);
    expect(badges[0]).toHaveClass('is-exchange');
    expect(badges[1]).toHaveAttribute('title', expect.stringContaining(`Trailing stop: ${reason}`));
    expect(badges[3]).toHaveClass('is-unprotected');
  });

  test("the stop's gap backstop is in the badge's title; a refused one is said on the row (issue 54)", () => {
    setOpenTrades([
      makeTrade({ trade_exits: HELD_BY_EXCHANGE, trade_backstop: { held_by: 'exchange', price: '2940.44' } }),
      makeTrade({
        trade_exits: HELD_BY_EXCHANGE,
        trade_backstop: { held_by: 'signaldesk', reason: 'placeExitOrder: Unknown error (code -1111)' },
      }),
    ]);
    renderAt();
    const badges = screen.getAllByTestId('trade-exits');
    expect(badges[0]).toHaveAttribute('title', expect.stringContaining('a market stop at 2940.44 closes'));
    const notes = screen.getAllByTestId('trade-backstop-missing');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toHaveTextContent('The stop may not fill in a gap');
    expect(notes[0]).toHaveAttribute('title', expect.stringContaining('code -1111'));
  });

  test('the close button asks first (issue 39) and closes on yes; one-click close closes at once', async () => {
    const trade = makeTrade({ trade_pnl_current: '0.4', trade_pnl_net: '-0.1532' });
    setOpenTrades([trade]);
    renderAt();
    render(<CloseConfirmDialog />);
    fireEvent.click(screen.getByTestId('trade-close'));
    expect(closeConfirmStore.trade_uuid).toBe(trade.trade_uuid);
    expect(closeTrade).not.toHaveBeenCalled();
    await act(async () => {});
    const question = screen.getByTestId('close-confirm-dialog');
    expect(question).toHaveTextContent(trade.symbol.symbol_pair);
    // Issue 53: the net beside the gross, as the row shows it.
    expect(question).toHaveTextContent('PNL now: 0.40 $, net of the commissions -0.15 $.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(closeConfirmStore.trade_uuid).toBeNull();
    expect(closeTrade).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('trade-close'));
    await act(async () => {});
    fireEvent.click(screen.getByTestId('close-confirm'));
    expect(closeTrade).toHaveBeenCalledWith(trade.trade_uuid);
    expect(closeConfirmStore.trade_uuid).toBeNull();
    vi.mocked(closeTrade).mockClear();
    preferencesStore.trade_preferences = ONE_CLICK_CLOSE;
    fireEvent.click(screen.getByTestId('trade-close'));
    expect(closeTrade).toHaveBeenCalledWith(trade.trade_uuid);
    expect(closeConfirmStore.trade_uuid).toBeNull();
  });

  test('the close button closes at TRADE_AVAILABLE, asks for the PIN when the token is locked, and is off without a token', async () => {
    const trade = makeTrade();
    setOpenTrades([trade]);
    renderAt();
    preferencesStore.trade_preferences = ONE_CLICK_CLOSE;
    fireEvent.click(screen.getByTestId('trade-close'));
    expect(closeTrade).toHaveBeenCalledWith(trade.trade_uuid);
    // Issue 36: a locked token (no PIN after a reload, or a wrong one) asks for the PIN instead of a dead button.
    for (const level of [TradeTokenLevel.WRONG_PIN_CODE, TradeTokenLevel.NO_PIN_CODE]) {
      vi.mocked(closeTrade).mockClear();
      closeRequestStore.trade_uuid = null;
      await act(async () => {
        tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level };
      });
      expect(screen.getByTestId('trade-close')).toBeEnabled();
      expect(screen.getByTestId('trade-close')).toHaveAttribute('title', expect.stringContaining('PIN Code'));
      fireEvent.click(screen.getByTestId('trade-close'));
      expect(closeRequestStore.trade_uuid).toBe(trade.trade_uuid);
      expect(closeTrade).not.toHaveBeenCalled();
    }
    await act(async () => {
      tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.NO_TRADE_TOKEN };
    });
    expect(screen.getByTestId('trade-close')).toBeDisabled();
  });

  test('a price update redraws only its own row', async () => {
    const trades = Array.from({ length: 20 }, (_, i) =>
      makeTrade({ symbol: i % 2 ? ETH_SYMBOL : makeTrade().symbol }),
    );
    setOpenTrades(trades);
    renderAt();
    expect(screen.getAllByTestId('trade-row')).toHaveLength(20);
    const target = trades[7]!;
    vi.mocked(formatFixed).mockClear();
    await act(async () => {
      applyTradeCalculated(
        target.trade_uuid,
        makeCalculated(target, { trade_current_price: '98000.0', trade_pnl_current: '1.8' }),
      );
    });
    const row = screen
      .getAllByTestId('trade-row')
      .find((element) => element.dataset.tradeUuid === target.trade_uuid)!;
    expect(within(row).getByTestId('trade-current-price')).toHaveTextContent('98000.0');
    // One row formats its 6 figures; a whole-table redraw would format 20 × 6.
    expect(vi.mocked(formatFixed).mock.calls.length).toBeLessThanOrEqual(6);
  });

  test('a row scrolled out of view redraws nothing on a price, and shows the current numbers when back', async () => {
    // jsdom has no IntersectionObserver: this one reports what the test says is on screen.
    let report: ((entries: { target: Element; isIntersecting: boolean }[]) => void) | undefined;
    const observed = new Set<Element>();
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: typeof report) {
          report = callback;
        }
        observe(element: Element) {
          observed.add(element);
        }
        unobserve(element: Element) {
          observed.delete(element);
        }
      },
    );
    try {
      const trades = Array.from({ length: 3 }, () => makeTrade());
      setOpenTrades(trades);
      renderAt();
      const target = trades[1]!;
      const rowOf = () =>
        screen
          .getAllByTestId('trade-row')
          .find((element) => element.dataset.tradeUuid === target.trade_uuid)!;
      expect(observed.has(rowOf())).toBe(true);
      const before = within(rowOf()).getByTestId('trade-current-price').textContent;
      await act(async () => report!([{ target: rowOf(), isIntersecting: false }]));
      vi.mocked(formatFixed).mockClear();
      await act(async () => {
        applyTradeCalculated(target.trade_uuid, makeCalculated(target, { trade_current_price: '98000.0' }));
      });
      expect(vi.mocked(formatFixed)).not.toHaveBeenCalled();
      expect(within(rowOf()).getByTestId('trade-current-price').textContent).toBe(before);
      await act(async () => report!([{ target: rowOf(), isIntersecting: true }]));
      expect(within(rowOf()).getByTestId('trade-current-price')).toHaveTextContent('98000.0');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("'Trade Trend Data' modal", () => {
  test('the details button opens it with ?trade_detail_uuid; closing removes the parameter', async () => {
    vi.useRealTimers();
    const trade = makeTrade();
    setOpenTrades([trade]);
    vi.mocked(getTradeTrendByUuid).mockResolvedValue({
      trade,
      trade_take_profit_price: '97485.0',
      trade_treiling_stop_price: '96515.0',
      trend_data_list: [
        { time: 0, open: 1, high: 1, low: 1, close: 97000 },
        { time: 60_000, open: 1, high: 1, low: 1, close: 97100 },
      ],
    });
    renderAt('/trading?tab=1');
    fireEvent.click(screen.getByTestId('trade-detail'));
    expect(screen.getByTestId('location')).toHaveTextContent(`trade_detail_uuid=${trade.trade_uuid}`);
    const dialog = screen.getByRole('dialog', { name: 'Trade Trend Data' });
    expect(await within(dialog).findByTestId('trade-trend-content')).toBeInTheDocument();
    expect(getTradeTrendByUuid).toHaveBeenCalledWith(trade.trade_uuid);
    expect(dialog).toHaveTextContent('BTCUSDT');
    expect(screen.getByTestId('candle-chart')).toHaveTextContent(
      '2 candles; Entry 97000.0, Stop 96515.0, Take profit 97485.0, Trailing from 97145.3; Opened BUY',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/trading?tab=1');
    expect(screen.getByTestId('location')).not.toHaveTextContent('trade_detail_uuid');
  });

  test('its trend data is dropped 60 s after the modal closed (SPEC.md §9 unused cached API data)', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const trade = makeTrade();
    setOpenTrades([trade]);
    vi.mocked(getTradeTrendByUuid).mockResolvedValue({
      trade,
      trade_take_profit_price: '97485.0',
      trade_treiling_stop_price: '96515.0',
      trend_data_list: [{ time: 0, open: 1, high: 1, low: 1, close: 97000 }],
    });
    renderAt('/trading');
    fireEvent.click(screen.getByTestId('trade-detail'));
    const dialog = screen.getByRole('dialog', { name: 'Trade Trend Data' });
    expect(await within(dialog).findByTestId('trade-trend-content')).toBeInTheDocument();
    await advance(120_000);
    expect(tradesStore.trade_trend_data[trade.trade_uuid]).toBeDefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    // The body goes away after the modal's closing state (MODAL_CLOSE_MS); its 60 s start then.
    await advance(MODAL_CLOSE_MS);
    expect(screen.queryByTestId('trade-trend-content')).toBeNull();
    await advance(59_900);
    expect(tradesStore.trade_trend_data[trade.trade_uuid]).toBeDefined();
    await advance(100);
    expect(tradesStore.trade_trend_data[trade.trade_uuid]).toBeUndefined();
  });
});

describe('UI status button and countdown (SPEC.md §4; README "Automatic closing")', () => {
  async function flag(
    uiStatus: 'TAKE_PROFIT' | 'DIRECTION_SIGNAL' | 'STOP_LOSS',
    overrides: Parameters<typeof makeTrade>[0] = {},
  ) {
    const trade = makeTrade(overrides);
    await act(async () => {
      setOpenTrades([trade]);
      applyTradeCalculated(trade.trade_uuid, makeCalculated(trade, { trade_ui_status: uiStatus }));
    });
    return trade;
  }

  test('pulses in its colour and alternates each second between the seconds elapsed and its letters', async () => {
    setAutoCloseDelay(0);
    renderAt();
    await flag('TAKE_PROFIT');
    const button = () => screen.getByTestId('trade-ui-status');
    expect(button()).toHaveClass('palette-green');
    // SPEC.md §4: an elapsed counter (0, 2, 4 … seconds since the status was set) and the label by turns.
    expect(button()).toHaveTextContent(/^0$/);
    await advance(1000);
    expect(button()).toHaveTextContent(/^TP$/);
    await advance(1000);
    expect(button()).toHaveTextContent(/^2$/);
    await advance(1000);
    expect(button()).toHaveTextContent(/^TP$/);
    await advance(1000);
    expect(button()).toHaveTextContent(/^4$/);
    // The countdown of the default 50 s stays in the tooltip, redrawn each second.
    expect(button()).toHaveAttribute(
      'title',
      'Take profit: automatic closing is OFF, so the trade stays open; the flag clears in 46 s. Click to clear it now.',
    );
  });

  test('its accessible name names when the status runs out and does not change each second', async () => {
    setAutoCloseDelay(5);
    renderAt();
    await flag('TAKE_PROFIT');
    const button = () => screen.getByTestId('trade-ui-status');
    // Flagged at the fake clock's 1 000 000 ms; the 5 s countdown runs out at 1 005 000 ms.
    const runsOut = new Date(1_005_000).toLocaleTimeString('en', {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    const name = `Take profit: closes automatically at ${runsOut}. Click to keep the trade open.`;
    expect(button()).toHaveAccessibleName(name);
    expect(button()).toHaveAttribute('title', expect.stringContaining('closes automatically in 5 s'));
    await advance(1000);
    expect(button()).toHaveAccessibleName(name);
    await advance(1000);
    expect(button()).toHaveAccessibleName(name);
    expect(button()).toHaveAttribute('title', expect.stringContaining('closes automatically in 3 s'));
  });

  test('delay 0 (OFF): nothing is closed; after the default 50 s the status resets to open', async () => {
    setAutoCloseDelay(0);
    renderAt();
    const trade = await flag('STOP_LOSS');
    expect(screen.getByTestId('trade-ui-status')).toHaveClass('palette-red');
    await advance(49_000);
    expect(resetTradeStatus).not.toHaveBeenCalled();
    await advance(1000);
    expect(resetTradeStatus).toHaveBeenCalledExactlyOnceWith(trade.trade_uuid);
    await advance(10_000);
    expect(resetTradeStatus).toHaveBeenCalledOnce();
    expect(closeTrade).not.toHaveBeenCalled();
  });

  test('delay 0 (OFF): a direction signal stays lit its default 30 s', async () => {
    setAutoCloseDelay(0);
    renderAt();
    const trade = await flag('DIRECTION_SIGNAL');
    expect(screen.getByTestId('trade-ui-status')).toHaveAttribute(
      'title',
      expect.stringContaining('the flag clears in 30 s'),
    );
    expect(screen.getByTestId('trade-ui-status')).toHaveClass('palette-blue');
    await advance(1000);
    expect(screen.getByTestId('trade-ui-status')).toHaveTextContent(/^DS$/);
    await advance(27_000);
    expect(screen.getByTestId('trade-ui-status')).toHaveTextContent(/^28$/);
    expect(resetTradeStatus).not.toHaveBeenCalled();
    await advance(2000);
    expect(resetTradeStatus).toHaveBeenCalledExactlyOnceWith(trade.trade_uuid);
    expect(closeTrade).not.toHaveBeenCalled();
  });

  test('a delay of 5 s: the countdown is 5 s and at zero the trade is closed with the status', async () => {
    setAutoCloseDelay(5);
    renderAt();
    const trade = await flag('TAKE_PROFIT');
    expect(screen.getByTestId('trade-ui-status')).toHaveTextContent(/^0$/);
    expect(screen.getByTestId('trade-ui-status')).toHaveAttribute(
      'title',
      expect.stringContaining('closes automatically in 5 s'),
    );
    await advance(4000);
    expect(closeTrade).not.toHaveBeenCalled();
    await advance(1000);
    expect(closeTrade).toHaveBeenCalledExactlyOnceWith(trade.trade_uuid, 'take_profit');
    await advance(5000);
    expect(closeTrade).toHaveBeenCalledOnce();
    expect(resetTradeStatus).not.toHaveBeenCalled();
  });

  test('a delay of 5 s: a take profit the exchange holds is not closed by the countdown (issue 35), it clears', async () => {
    setAutoCloseDelay(5);
    renderAt();
    const trade = await flag('TAKE_PROFIT', { trade_exits: HELD_BY_EXCHANGE });
    expect(screen.getByTestId('trade-ui-status')).toHaveTextContent(/^0$/);
    expect(screen.getByTestId('trade-ui-status')).toHaveAttribute(
      'title',
      expect.stringContaining(
        'the exchange holds this exit and closes the trade there; the flag clears in 50 s',
      ),
    );
    // 2 s later the platform's balance is read: its reconciliation records the exchange's close.
    await advance(1000);
    expect(checkExchange).not.toHaveBeenCalled();
    await advance(1000);
    expect(checkExchange).toHaveBeenCalledExactlyOnceWith(trade.platform_uuid);
    await advance(48_000);
    expect(checkExchange).toHaveBeenCalledOnce();
    expect(closeTrade).not.toHaveBeenCalled();
    expect(resetTradeStatus).toHaveBeenCalledExactlyOnceWith(trade.trade_uuid);
  });

  test('a delay of 5 s: a direction signal only resets to open', async () => {
    setAutoCloseDelay(5);
    renderAt();
    const trade = await flag('DIRECTION_SIGNAL');
    await advance(5000);
    expect(resetTradeStatus).toHaveBeenCalledExactlyOnceWith(trade.trade_uuid);
    expect(closeTrade).not.toHaveBeenCalled();
  });

  test('a click resets the trade to open', async () => {
    setAutoCloseDelay(5);
    renderAt();
    const trade = await flag('TAKE_PROFIT');
    fireEvent.click(screen.getByTestId('trade-ui-status'));
    expect(resetTradeStatus).toHaveBeenCalledWith(trade.trade_uuid);
  });
});
