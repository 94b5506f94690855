// Closing trades in both modes and resetting a UI status (SPEC.md §4 "Closing a trade"), with the real
// trade-core vault: the token envelope is sealed and opened for real; the exchange steps of
// shared-core/trade-flow.ts and the API calls are mocked.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { TRADE_REFETCH_DELAY_MS } from '../../config/constants';
import { closePosition } from '../../../shared-core/trade-flow';
import { resetAuthStore } from '../../stores/auth-store';
import { resetPinCodeStore } from '../../stores/pin-code-store';
import { TradeTokenLevel } from '../../stores/token-level';
import { tradeTokensStore } from '../../stores/trade-tokens-store';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { PLATFORM_UUID } from '../../testing/live-fixtures';
import { startTradingTest, exchangeError, notes, PIN, sealTestToken } from '../../testing/trading-session';
import { makeTrade } from '../../testing/trade-fixtures';
import { closeTrade, resetTradeStatus } from './trades-actions';
import { resetTradesStore, setOpenTrades, tradesStore } from './trades-store';

const api = vi.hoisted(() => ({
  closeClientTrade: vi.fn(),
  closeServerTrade: vi.fn(),
  updateTradeStatus: vi.fn(),
  getOpenTrades: vi.fn(),
}));
vi.mock('./api/close-client-trade', () => ({ closeClientTrade: api.closeClientTrade }));
vi.mock('./api/close-server-trade', () => ({ closeServerTrade: api.closeServerTrade }));
vi.mock('./api/update-trade-status', () => ({ updateTradeStatus: api.updateTradeStatus }));
vi.mock('./api/get-open-trades', () => ({ getOpenTrades: api.getOpenTrades }));
vi.mock('../../../shared-core/trade-flow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared-core/trade-flow')>()),
  closePosition: vi.fn(),
  checkPositions: vi.fn(),
}));

let envelope = '';

beforeAll(async () => {
  await loadTradeCoreForTests();
  envelope = sealTestToken();
});
beforeEach(() => {
  for (const fn of Object.values(api)) fn.mockReset();
  vi.mocked(closePosition).mockReset();
  api.getOpenTrades.mockResolvedValue([]);
  resetTradesStore();
  startTradingTest(envelope);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('closing a trade (SPEC.md §4 "Closing a trade")', () => {
  test('client mode: the exchange steps, then the report with the closed status and price', async () => {
    const trade = makeTrade({
      trade_in_server_side: 0,
      trade_exits: {
        take_profit: { held_by: 'exchange', price: '97485.0' },
        trailing: { held_by: 'signaldesk', reason: 'refused' },
      },
    });
    setOpenTrades([trade]);
    vi.mocked(closePosition).mockResolvedValue({
      trade_status: 'manual_close',
      trade_close_price: '97200.1',
      stop_cancelled: true,
    });
    await expect(closeTrade(trade.trade_uuid)).resolves.toBe(true);
    expect(vi.mocked(closePosition).mock.calls[0]?.[1]).toEqual({
      symbol_pair: 'BTCUSDT',
      trade_direction: 'BUY',
      trade_quantity: trade.trade_quantity,
      trade_leverage: trade.trade_leverage,
      trade_stop_order_id: trade.trade_stop_order_id,
      trade_order_id: trade.trade_order_id,
      trade_status: 'manual_close',
      // Issue 35: the close cancels the exits the exchange holds (and reads them when the position is gone).
      trade_exits_held: true,
    });
    expect(api.closeClientTrade).toHaveBeenCalledExactlyOnceWith({
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      trade_close_price: '97200.1',
    });
    expect(notes().map((note) => [note.type, note.description[0]])).toEqual([
      ['Success', 'notification.trade_closed'],
      ['Success', 'notification.stop_loss_cancelled'],
    ]);
    expect(tradesStore.trade_by_uuid_dict).toEqual({});
    await vi.advanceTimersByTimeAsync(TRADE_REFETCH_DELAY_MS);
    expect(api.getOpenTrades).toHaveBeenCalledOnce();
  });

  test('a position the stop had closed is reported as stop_loss without a price when unknown', async () => {
    const trade = makeTrade();
    setOpenTrades([trade]);
    vi.mocked(closePosition).mockResolvedValue({
      trade_status: 'stop_loss',
      trade_close_price: undefined,
      stop_cancelled: false,
    });
    await closeTrade(trade.trade_uuid, 'take_profit');
    expect(vi.mocked(closePosition).mock.calls[0]?.[1].trade_status).toBe('take_profit');
    expect(api.closeClientTrade).toHaveBeenCalledWith({
      trade_uuid: trade.trade_uuid,
      trade_status: 'stop_loss',
    });
    expect(notes().map((note) => note.description[0])).toEqual(['notification.trade_closed']);
  });

  test('a trade opened in server mode is closed by the server, whatever the current mode', async () => {
    const trade = makeTrade({ trade_in_server_side: 1 });
    setOpenTrades([trade]);
    await closeTrade(trade.trade_uuid);
    expect(closePosition).not.toHaveBeenCalled();
    expect(api.closeServerTrade).toHaveBeenCalledExactlyOnceWith({
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(notes().map((note) => note.description[0])).toEqual(['notification.trade_closed']);
  });

  test.each([
    ['no stored token', () => localStorage.clear(), ['notification.trade_token_not_found', 'BTCUSDT']],
    ['no user', () => resetAuthStore(), ['notification.current_user_not_found']],
    ['no PIN', () => resetPinCodeStore(), ['trades.notify.pin_not_set', 'BTCUSDT']],
    [
      'no TRADE_AVAILABLE',
      () => {
        tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.NO_PIN_CODE };
      },
      ['trades.notify.token_not_available', 'BTCUSDT'],
    ],
  ])('client mode with %s: an error notification and nothing sent', async (_name, arrange, description) => {
    const trade = makeTrade();
    setOpenTrades([trade]);
    arrange();
    await expect(closeTrade(trade.trade_uuid)).resolves.toBe(false);
    expect(closePosition).not.toHaveBeenCalled();
    expect(api.closeClientTrade).not.toHaveBeenCalled();
    expect(notes()).toEqual([{ type: 'Error', description, isOnlyManualClose: false }]);
    expect(tradesStore.trade_by_uuid_dict[trade.trade_uuid]).toBeDefined();
  });

  test('a trade being closed shows processing and cannot be closed twice', async () => {
    const trade = makeTrade();
    setOpenTrades([trade]);
    let finish: (value: {
      trade_status: 'manual_close';
      trade_close_price: string;
      stop_cancelled: boolean;
    }) => void = () => undefined;
    vi.mocked(closePosition).mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const first = closeTrade(trade.trade_uuid);
    await vi.waitFor(() => expect(closePosition).toHaveBeenCalledOnce());
    expect(tradesStore.processing_by_uuid[trade.trade_uuid]).toBe(true);
    await expect(closeTrade(trade.trade_uuid)).resolves.toBe(false);
    finish({ trade_status: 'manual_close', trade_close_price: '97000.0', stop_cancelled: false });
    await expect(first).resolves.toBe(true);
    expect(closePosition).toHaveBeenCalledOnce();
    expect(api.closeClientTrade).toHaveBeenCalledOnce();
  });

  test('a failed close keeps the trade, clears processing and tells why', async () => {
    const trade = makeTrade();
    setOpenTrades([trade]);
    vi.mocked(closePosition).mockRejectedValue(exchangeError(-2015));
    await expect(closeTrade(trade.trade_uuid)).resolves.toBe(false);
    expect(tradesStore.trade_by_uuid_dict[trade.trade_uuid]).toBeDefined();
    expect(tradesStore.processing_by_uuid).toEqual({});
    expect(notes()).toEqual([
      {
        type: 'Error',
        description: ['trades.notify.close_failed', 'BTCUSDT', 'exchange_error.-2015'],
        isOnlyManualClose: false,
      },
    ]);
  });
});

describe('resetting the UI status', () => {
  test('posts trade_status open and clears the UI status', async () => {
    const trade = makeTrade({ trade_ui_status: 'TAKE_PROFIT' });
    setOpenTrades([trade]);
    api.updateTradeStatus.mockResolvedValue(undefined);
    await expect(resetTradeStatus(trade.trade_uuid)).resolves.toBe(true);
    expect(api.updateTradeStatus).toHaveBeenCalledWith({
      trade_uuid: trade.trade_uuid,
      trade_status: 'open',
    });
    expect(tradesStore.trade_by_uuid_dict[trade.trade_uuid]?.trade_ui_status).toBeNull();
    expect(tradesStore.ui_status_since_by_uuid).toEqual({});
  });
});
