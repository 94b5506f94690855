// Opening and closing trades in both modes (SPEC.md §4 "Opening a trade", "Closing a trade"), with the real
// trade-core vault: the token envelope is sealed and opened for real; the exchange steps of lib/trade-flow.ts
// and the API calls are mocked.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { BTC_UUID, byUuid, makeSignal, PLATFORM_UUID } from '../../testing/live-fixtures';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { TRADE_REFETCH_DELAY_MS } from '../../config/constants';
import { ApiError, ApiErrorKind } from '../../lib/api-client';
import {
  describeExchangeCode,
  ExchangeClient,
  ExchangeError,
  ExchangeFailure,
} from '../../../shared-core/exchange-client';
import { closePosition, OpenFailure, openPosition, TradeOpenError } from '../../../shared-core/trade-flow';
import { authStore, resetAuthStore } from '../../stores/auth-store';
import { notificationsStore, resetNotificationsStore } from '../../stores/notifications-store';
import { platformsStore, resetPlatformsStore } from '../../stores/platforms-store';
import { preferencesStore, resetPreferencesStore } from '../../stores/preferences-store';
import { pushSignals, resetSignalsStore, signalsStore } from '../signals/signals-store';
import { resetSymbolsStore, symbolsStore } from '../../stores/symbols-store';
import { putPinCode, resetPinCodeStore } from '../../stores/pin-code-store';
import { TradeTokenLevel } from '../../stores/token-level';
import { writeTokenEnvelope } from '../../stores/token-storage';
import { sealNewTradeToken } from '../../stores/token-vault';
import { resetTradeTokensStore, tradeTokensStore } from '../../stores/trade-tokens-store';
import { readClientOpens } from './client-open-journal';
import { makeTrade } from './testing/trade-fixtures';
import { closeTrade, openTradeFromSignal, resetTradeStatus } from './trades-actions';
import { resetTradesStore, setOpenTrades, tradesStore } from './trades-store';

const api = vi.hoisted(() => ({
  createClientTrade: vi.fn(),
  createServerTrade: vi.fn(),
  closeClientTrade: vi.fn(),
  closeServerTrade: vi.fn(),
  updateTradeStatus: vi.fn(),
  getOpenTrades: vi.fn(),
  getPlatformPreferences: vi.fn(),
}));
vi.mock('./api/create-client-trade', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/create-client-trade')>()),
  createClientTrade: api.createClientTrade,
}));
vi.mock('./api/create-server-trade', () => ({ createServerTrade: api.createServerTrade }));
vi.mock('./api/close-client-trade', () => ({ closeClientTrade: api.closeClientTrade }));
vi.mock('./api/close-server-trade', () => ({ closeServerTrade: api.closeServerTrade }));
vi.mock('./api/update-trade-status', () => ({ updateTradeStatus: api.updateTradeStatus }));
vi.mock('./api/get-open-trades', () => ({ getOpenTrades: api.getOpenTrades }));
vi.mock('../../stores/api/get-platform-preferences', () => ({
  getPlatformPreferences: api.getPlatformPreferences,
}));
vi.mock('../../../shared-core/trade-flow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../shared-core/trade-flow')>()),
  openPosition: vi.fn(),
  closePosition: vi.fn(),
  checkPositions: vi.fn(),
}));

const PIN = '12345';
const USER_KEY = 'b'.repeat(64);
const PREFERENCES = {
  trade_margin: 10,
  trade_leverage: 20,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};
const OPENED = {
  trade_open_price: '97010.5',
  trade_quantity: '0.002',
  trade_order_id: 'sdo-order',
  trade_stop_order_id: 'sds-order',
  trade_stop_price: '96525.4',
};
let envelope = '';

function exchangeError(code: number, message = '') {
  return new ExchangeError(
    'placeMarketOrder',
    ExchangeFailure.EXCHANGE,
    describeExchangeCode(code, message).text,
    code,
    400,
    describeExchangeCode(code, message),
  );
}

function useMode(trade_in_server_side: 0 | 1) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side,
  };
}

const notes = () =>
  notificationsStore.notification_list.map(({ type, description, isOnlyManualClose }) => ({
    type,
    description,
    isOnlyManualClose,
  }));

beforeAll(async () => {
  await loadTradeCoreForTests();
  envelope = sealNewTradeToken('my-key', 'my-secret', {
    pinCode: PIN,
    platformUuid: PLATFORM_UUID,
    userTradeTokenKey: USER_KEY,
  });
});
beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  for (const fn of Object.values(api)) fn.mockReset();
  vi.mocked(openPosition).mockReset();
  vi.mocked(closePosition).mockReset();
  api.getOpenTrades.mockResolvedValue([]);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  resetAuthStore();
  resetNotificationsStore();
  resetPlatformsStore();
  resetPreferencesStore();
  resetSignalsStore();
  resetSymbolsStore();
  resetPinCodeStore();
  resetTradeTokensStore();
  resetTradesStore();
  authStore.user = {
    user_uuid: '22222222-2222-4222-8222-222222222222',
    user_email: 'trader@example.com',
    user_nickname: 'trader',
    user_trade_token_key: USER_KEY,
  };
  platformsStore.platform_dict = {
    [PLATFORM_UUID]: {
      platform_uuid: PLATFORM_UUID,
      platform_name: 'Paper Futures',
      platform_background: '#123456',
      level: TradeTokenLevel.TRADE_AVAILABLE,
      trade_leverage_max: 50,
      platform_url: 'http://127.0.0.1:8081',
      platform_allows_browser: true,
    },
  };
  symbolsStore.symbol_dict = {
    [BTC_UUID]: {
      symbol_uuid: BTC_UUID,
      symbol_name: 'BTC',
      symbol_pair: 'BTCUSDT',
      symbol_quantity_precision: 3,
      symbol_price_precision: 1,
    },
  };
  preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID] = { ...PREFERENCES };
  useMode(0);
  putPinCode(PLATFORM_UUID, PIN);
  tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.TRADE_AVAILABLE };
  writeTokenEnvelope(PLATFORM_UUID, envelope);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function addSignal() {
  const signal = makeSignal();
  pushSignals(byUuid(signal));
  return signal;
}

describe('opening a trade: silent preconditions (SPEC.md §4)', () => {
  test.each([
    ['without a PIN', () => resetPinCodeStore()],
    [
      'below TRADE_AVAILABLE',
      () => {
        tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.WRONG_PIN_CODE };
      },
    ],
    [
      'without trade settings',
      () => {
        resetPreferencesStore();
        useMode(0);
        api.getPlatformPreferences.mockRejectedValue(new Error('Timeout'));
      },
    ],
  ])('%s nothing is opened', async (_name, arrange) => {
    const signal = addSignal();
    arrange();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(api.createClientTrade).not.toHaveBeenCalled();
    expect(api.createServerTrade).not.toHaveBeenCalled();
    expect(notes().filter((note) => note.type === 'Success')).toEqual([]);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
  });

  test('trade settings not read yet are read first', async () => {
    resetPreferencesStore();
    useMode(1);
    api.getPlatformPreferences.mockResolvedValue(PREFERENCES);
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(api.getPlatformPreferences).toHaveBeenCalledWith(PLATFORM_UUID);
    expect(api.createServerTrade).toHaveBeenCalledOnce();
  });
});

describe('opening a trade in client mode', () => {
  test('runs the exchange steps with the decrypted token, records the trade and refetches after 1 s', async () => {
    vi.mocked(openPosition).mockResolvedValue(OPENED);
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    const [client, input] = vi.mocked(openPosition).mock.calls[0] ?? [];
    expect(client).toBeInstanceOf(ExchangeClient);
    expect(input).toEqual({
      symbol_pair: 'BTCUSDT',
      trade_direction: 'BUY',
      trade_margin: 10,
      trade_leverage: 20,
      trade_stop_loss_percent: 10,
      symbol_price_precision: 1,
      symbol_quantity_precision: 3,
      signal_uuid: signal.signal_uuid,
    });
    expect(api.createClientTrade).toHaveBeenCalledExactlyOnceWith({
      signal_uuid: signal.signal_uuid,
      ...PREFERENCES,
      ...OPENED,
    });
    expect(notes()).toEqual([
      { type: 'Success', description: ['notification.trade_opened'], isOnlyManualClose: false },
    ]);
    expect(signalsStore.signal_list).toEqual([]);
    expect(api.getOpenTrades).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TRADE_REFETCH_DELAY_MS);
    expect(api.getOpenTrades).toHaveBeenCalledOnce();
  });

  test("without a user: 'Current user not found'", async () => {
    resetAuthStore();
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(notes()).toEqual([
      { type: 'Error', description: ['notification.current_user_not_found'], isOnlyManualClose: false },
    ]);
  });

  test("without a stored token: 'Trade token not found'", async () => {
    localStorage.clear();
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(notes()[0]).toMatchObject({
      type: 'Error',
      description: ['notification.trade_token_not_found', 'BTCUSDT'],
    });
  });

  test('a shown exchange error is an Error notification with its text; a hidden one is not shown', async () => {
    vi.mocked(openPosition).mockRejectedValueOnce(exchangeError(-2019));
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(notes()).toEqual([
      {
        type: 'Error',
        description: ['trades.notify.open_failed', 'BTCUSDT', 'exchange_error.-2019'],
        isOnlyManualClose: false,
      },
    ]);
    vi.mocked(openPosition).mockRejectedValueOnce(exchangeError(-4059));
    await openTradeFromSignal(signal.signal_uuid);
    expect(notes()).toHaveLength(1);
    expect(api.createClientTrade).not.toHaveBeenCalled();
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
  });

  test('a refused stop whose position was closed again: an error telling so, nothing recorded, the card goes', async () => {
    vi.mocked(openPosition).mockRejectedValue(
      new TradeOpenError(OpenFailure.STOP_REJECTED_POSITION_CLOSED, exchangeError(-4014), OPENED),
    );
    const signal = addSignal();
    const other = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(api.createClientTrade).not.toHaveBeenCalled();
    expect(notes()).toEqual([
      {
        type: 'Error',
        description: ['trades.notify.stop_rejected_position_closed', 'exchange_error.-4014'],
        isOnlyManualClose: false,
      },
    ]);
    // Trading the card again would reuse the filled opening order of a position that is closed.
    expect(signalsStore.signal_list).toEqual([other.signal_uuid]);
  });

  test('an unconfirmed order keeps the card, so trading it again can record the position', async () => {
    const timeout = new ExchangeError('placeMarketOrder', ExchangeFailure.TIMEOUT, 'Timeout');
    vi.mocked(openPosition).mockRejectedValue(
      new TradeOpenError(OpenFailure.ORDER_UNCONFIRMED, timeout, { trade_order_id: 'sdo-order' }),
    );
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
  });

  test('an unconfirmed order: an error that stays until closed, pointing to Repair', async () => {
    const timeout = new ExchangeError('placeMarketOrder', ExchangeFailure.TIMEOUT, 'Timeout');
    vi.mocked(openPosition).mockRejectedValue(
      new TradeOpenError(OpenFailure.ORDER_UNCONFIRMED, timeout, { trade_order_id: 'sdo-order' }),
    );
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(api.createClientTrade).not.toHaveBeenCalled();
    expect(notes()).toEqual([
      {
        type: 'Error',
        description: ['trades.notify.order_unconfirmed', 'errors.timeout'],
        isOnlyManualClose: true,
      },
    ]);
  });

  test('opened without its stop: recorded with no stop order and a Warning that stays', async () => {
    vi.mocked(openPosition).mockResolvedValue({
      ...OPENED,
      trade_stop_order_id: null,
      stop_error: exchangeError(-4014),
    });
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(api.createClientTrade).toHaveBeenCalledWith(
      expect.objectContaining({ trade_stop_order_id: null, trade_order_id: 'sdo-order' }),
    );
    expect(notes()).toEqual([
      {
        type: 'Warning',
        description: ['trades.notify.opened_without_stop', 'BTCUSDT', 'exchange_error.-4014'],
        isOnlyManualClose: true,
      },
      { type: 'Success', description: ['notification.trade_opened'], isOnlyManualClose: false },
    ]);
  });

  test('a position opened but not recorded: an error that stays, and the card stays for a retry', async () => {
    vi.mocked(openPosition).mockResolvedValue(OPENED);
    api.createClientTrade.mockRejectedValue(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Internal server error', 500),
    );
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(notes()).toEqual([
      {
        type: 'Error',
        description: ['trades.notify.record_failed', 'BTCUSDT', 'Internal server error'],
        isOnlyManualClose: true,
      },
    ]);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
  });
});

describe('client mode: an open is noted until its outcome is known (client-open-journal.ts)', () => {
  const noted = () => readClientOpens().map((open) => open.signal_uuid);

  test('noted while the exchange steps run, with what completing it needs; forgotten once recorded', async () => {
    const signal = addSignal();
    let duringOpen: ReturnType<typeof readClientOpens> = [];
    vi.mocked(openPosition).mockImplementation(async () => {
      duringOpen = readClientOpens();
      return OPENED;
    });
    await openTradeFromSignal(signal.signal_uuid);
    expect(duringOpen).toEqual([
      {
        signal_uuid: signal.signal_uuid,
        ...PREFERENCES,
        user_uuid: authStore.user?.user_uuid,
        platform_uuid: PLATFORM_UUID,
        symbol_pair: 'BTCUSDT',
        symbol_price_precision: 1,
        trade_direction: 'BUY',
        started_at: Date.now(),
      },
    ]);
    expect(JSON.stringify(duringOpen)).not.toContain(PIN);
    expect(api.createClientTrade).toHaveBeenCalledOnce();
    expect(noted()).toEqual([]);
  });

  test('forgotten when nothing stayed open: an exchange refusal, or the position closed again', async () => {
    vi.mocked(openPosition).mockRejectedValueOnce(exchangeError(-2019));
    await openTradeFromSignal(addSignal().signal_uuid);
    vi.mocked(openPosition).mockRejectedValueOnce(
      new TradeOpenError(OpenFailure.STOP_REJECTED_POSITION_CLOSED, exchangeError(-4014), OPENED),
    );
    await openTradeFromSignal(addSignal().signal_uuid);
    expect(noted()).toEqual([]);
  });

  test('kept while the position may be open unrecorded: an unconfirmed order, a failed record', async () => {
    const unconfirmed = addSignal();
    const timeout = new ExchangeError('placeMarketOrder', ExchangeFailure.TIMEOUT, 'Timeout');
    vi.mocked(openPosition).mockRejectedValueOnce(
      new TradeOpenError(OpenFailure.ORDER_UNCONFIRMED, timeout, { trade_order_id: 'sdo-order' }),
    );
    await openTradeFromSignal(unconfirmed.signal_uuid);
    const unrecorded = addSignal();
    vi.mocked(openPosition).mockResolvedValueOnce(OPENED);
    api.createClientTrade.mockRejectedValueOnce(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Internal server error', 500),
    );
    await openTradeFromSignal(unrecorded.signal_uuid);
    expect(noted()).toEqual([unconfirmed.signal_uuid, unrecorded.signal_uuid]);
  });
});

describe('opening a trade in server mode', () => {
  test('posts the payload with pin_code; the server detail of a 4xx is the error text', async () => {
    useMode(1);
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(api.createServerTrade).toHaveBeenCalledExactlyOnceWith({
      signal_uuid: signal.signal_uuid,
      ...PREFERENCES,
      pin_code: PIN,
    });
    expect(notes()[0]).toMatchObject({ type: 'Success', description: ['notification.trade_opened'] });

    const second = addSignal();
    api.createServerTrade.mockRejectedValueOnce(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Order notional must be no smaller than 5', 400),
    );
    await openTradeFromSignal(second.signal_uuid);
    expect(notes()[1]).toEqual({
      type: 'Error',
      description: ['trades.notify.open_failed', 'BTCUSDT', 'Order notional must be no smaller than 5'],
      isOnlyManualClose: false,
    });
    expect(signalsStore.signal_list).toEqual([second.signal_uuid]);
  });

  test('no answer in time: a Warning that stays says the trade may still open; the card stays', async () => {
    useMode(1);
    const signal = addSignal();
    api.createServerTrade.mockRejectedValueOnce(new ApiError(ApiErrorKind.TIMEOUT_ERROR, 'Timeout'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openTradeFromSignal(signal.signal_uuid);
    expect(notes()).toEqual([
      { type: 'Warning', description: ['trades.notify.server_open_timeout'], isOnlyManualClose: true },
    ]);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
  });
});

describe('closing a trade (SPEC.md §4 "Closing a trade")', () => {
  test('client mode: the exchange steps, then the report with the closed status and price', async () => {
    const trade = makeTrade({ trade_in_server_side: 0 });
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
      trade_status: 'manual_close',
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
