// Opening a trade from a signal in both modes (SPEC.md §4 "Opening a trade"), with the real trade-core vault:
// the token envelope is sealed and opened for real; the exchange steps of shared-core/trade-flow.ts and the API
// calls are mocked.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { TRADE_REFETCH_DELAY_MS } from '../config/constants';
import { ApiError, ApiErrorKind } from '../lib/api-client';
import { ExchangeClient, ExchangeError, ExchangeFailure } from '../../shared-core/exchange-client';
import { OpenFailure, openPosition, TradeOpenError } from '../../shared-core/trade-flow';
import { pushSignals, resetSignalsStore, signalsStore } from '../features/signals/signals-store';
import { readClientOpens } from '../features/trades/client-open-journal';
import { loadOpenTrades, resetTradesStore, setOpenTrades } from '../features/trades/trades-store';
import { makeTrade } from '../testing/trade-fixtures';
import { authStore, resetAuthStore } from '../stores/auth-store';
import { resetPinCodeStore } from '../stores/pin-code-store';
import { resetPreferencesStore } from '../stores/preferences-store';
import { TradeTokenLevel } from '../stores/token-level';
import { tradeTokensStore } from '../stores/trade-tokens-store';
import { byUuid, ETH_UUID, makeSignal, PLATFORM_UUID } from '../testing/live-fixtures';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import {
  exchangeError,
  notes,
  PIN,
  PREFERENCES,
  sealTestToken,
  startTradingTest,
  chooseMode,
} from '../testing/trading-session';
import { openTradeFromSignal, removeCardsOfTradedSignals, resetSymbolHolds } from './signal-trading';

const api = vi.hoisted(() => ({
  createClientTrade: vi.fn(),
  createServerTrade: vi.fn(),
  getOpenTrades: vi.fn(),
  getPlatformPreferences: vi.fn(),
}));
vi.mock('../features/trades/api/create-client-trade', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/trades/api/create-client-trade')>()),
  createClientTrade: api.createClientTrade,
}));
vi.mock('../features/trades/api/create-server-trade', () => ({ createServerTrade: api.createServerTrade }));
vi.mock('../features/trades/api/get-open-trades', () => ({ getOpenTrades: api.getOpenTrades }));
vi.mock('../stores/api/get-platform-preferences', () => ({
  getPlatformPreferences: api.getPlatformPreferences,
}));
// Orders left waiting by closes the server recorded (issue 37) are another file's (account-follow.ts): none here.
vi.mock('../features/trades/account-follow', () => ({
  mayHaveWaitingOrders: () => false,
  cancelWaitingOrders: vi.fn(),
}));
vi.mock('../../shared-core/trade-flow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared-core/trade-flow')>()),
  openPosition: vi.fn(),
}));

const OPENED = {
  trade_open_price: '97010.5',
  trade_quantity: '0.002',
  trade_order_id: 'sdo-order',
  trade_stop_order_id: 'sds-order',
  trade_stop_price: '96525.4',
};
let envelope = '';

beforeAll(async () => {
  await loadTradeCoreForTests();
  envelope = sealTestToken();
});
beforeEach(() => {
  for (const fn of Object.values(api)) fn.mockReset();
  vi.mocked(openPosition).mockReset();
  api.getOpenTrades.mockResolvedValue([]);
  resetSignalsStore();
  resetTradesStore();
  resetSymbolHolds();
  startTradingTest(envelope);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function addSignal(overrides: Parameters<typeof makeSignal>[0] = {}) {
  const signal = makeSignal(overrides);
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
        chooseMode(0);
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
    chooseMode(1);
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
      // Issue 35: the exchange holds the take profit and the trailing stop (the preference's default).
      exits: {
        trade_take_profit_percent: PREFERENCES.trade_take_profit_percent,
        trade_treiling_stop_percent: PREFERENCES.trade_treiling_stop_percent,
      },
    });
    expect(api.createClientTrade).toHaveBeenCalledExactlyOnceWith({
      signal_uuid: signal.signal_uuid,
      ...PREFERENCES,
      ...OPENED,
      trade_exits: null,
      trade_backstop: null,
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
    // Another symbol: the unconfirmed order may have opened a position, so its own symbol stays taken.
    const unrecorded = addSignal({
      symbol: {
        symbol_uuid: ETH_UUID,
        symbol_name: 'ETH',
        symbol_pair: 'ETHUSDT',
        symbol_price_precision: 2,
      },
    });
    vi.mocked(openPosition).mockResolvedValueOnce(OPENED);
    api.createClientTrade.mockRejectedValueOnce(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Internal server error', 500),
    );
    await openTradeFromSignal(unrecorded.signal_uuid);
    expect(noted()).toEqual([unconfirmed.signal_uuid, unrecorded.signal_uuid]);
  });
});

describe('one trade per symbol and exchange account (issue 36)', () => {
  test.each([
    ['client', 0],
    ['server', 1],
  ] as const)(
    '%s mode: a BUY and a SELL signal on one symbol in the same second open one trade; the other is told why',
    async (_mode, side) => {
      chooseMode(side);
      vi.mocked(openPosition).mockResolvedValue(OPENED);
      const buy = addSignal();
      const sell = addSignal();
      sell.signal_direction_created = 'SELL';
      await Promise.all([openTradeFromSignal(buy.signal_uuid), openTradeFromSignal(sell.signal_uuid)]);
      const opens = side === 0 ? vi.mocked(openPosition).mock.calls : api.createServerTrade.mock.calls;
      expect(opens).toHaveLength(1);
      expect(notes().map((note) => note.description)).toEqual([
        ['trades.notify.symbol_has_trade', 'BTCUSDT'],
        ['notification.trade_opened'],
      ]);
      // Still held after the open, until the list shows the trade: a third signal there opens nothing either.
      const third = addSignal();
      await openTradeFromSignal(third.signal_uuid);
      expect(opens).toHaveLength(1);
    },
  );

  test('a trade listed on the symbol (either mode) keeps a signal there from opening', async () => {
    chooseMode(0);
    setOpenTrades([makeTrade({ trade_in_server_side: 1 })]);
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(notes()[0]?.description).toEqual(['trades.notify.symbol_has_trade', 'BTCUSDT']);
  });
});

describe('opening a trade in server mode', () => {
  test('posts the payload with pin_code; the server detail of a 4xx is the error text', async () => {
    chooseMode(1);
    const signal = addSignal();
    await openTradeFromSignal(signal.signal_uuid);
    expect(openPosition).not.toHaveBeenCalled();
    expect(api.createServerTrade).toHaveBeenCalledExactlyOnceWith({
      signal_uuid: signal.signal_uuid,
      ...PREFERENCES,
      pin_code: PIN,
    });
    expect(notes()[0]).toMatchObject({ type: 'Success', description: ['notification.trade_opened'] });

    // (That trade closed meanwhile: its symbol is free again.)
    resetSymbolHolds();
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
    chooseMode(1);
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

describe('the card of a traded signal', () => {
  test('goes when the open trades read shows a trade of its signal, opened here or elsewhere', async () => {
    removeCardsOfTradedSignals();
    const trade = makeTrade();
    const traded = makeSignal({ signal_uuid: trade.signal_uuid });
    const other = makeSignal();
    pushSignals(byUuid(traded, other));
    api.getOpenTrades.mockResolvedValueOnce([trade]);
    await loadOpenTrades();
    expect(signalsStore.signal_list).toEqual([other.signal_uuid]);
  });
});
