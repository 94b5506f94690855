// A logged-in trader who can trade on the paper platform, for the tests of opening and closing trades: the
// session's stores (src/stores) filled as after login, a PIN and a client-mode token sealed by the real
// trade-core vault (load trade-core first). Feature stores are each test file's own to reset.
import { vi } from 'vitest';
import { describeExchangeCode, ExchangeError, ExchangeFailure } from '../../shared-core/exchange-client';
import { authStore, resetAuthStore } from '../stores/auth-store';
import { notificationsStore, resetNotificationsStore } from '../stores/notifications-store';
import { putPinCode, resetPinCodeStore } from '../stores/pin-code-store';
import { platformsStore, resetPlatformsStore } from '../stores/platforms-store';
import { preferencesStore, resetPreferencesStore } from '../stores/preferences-store';
import { resetSymbolsStore, symbolsStore } from '../stores/symbols-store';
import { TradeTokenLevel } from '../stores/token-level';
import { writeTokenEnvelope } from '../stores/token-storage';
import { sealNewTradeToken } from '../stores/token-vault';
import { resetTradeTokensStore, tradeTokensStore } from '../stores/trade-tokens-store';
import { BTC_UUID, ETH_UUID, makePaperPlatform, makeTrader, PLATFORM_UUID } from './live-fixtures';

export const PIN = '12345';
const USER_KEY = 'b'.repeat(64);
export const PREFERENCES = {
  trade_margin: 10,
  trade_leverage: 20,
  trade_stop_loss_percent: 10,
  trade_take_profit_percent: 5,
  trade_treiling_stop_percent: 3,
};

/** The paper platform's token, sealed under PIN and USER_KEY. */
export function sealTestToken(): string {
  return sealNewTradeToken('my-key', 'my-secret', {
    pinCode: PIN,
    platformUuid: PLATFORM_UUID,
    userTradeTokenKey: USER_KEY,
  });
}

/** An exchange refusal with its catalogue text (SPEC.md §8). */
export function exchangeError(code: number, message = '') {
  return new ExchangeError(
    'placeMarketOrder',
    ExchangeFailure.EXCHANGE,
    describeExchangeCode(code, message).text,
    code,
    400,
    describeExchangeCode(code, message),
  );
}

/** The global trade preferences with the given mode (0 client, 1 server). */
export function chooseMode(trade_in_server_side: 0 | 1) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
}

/** The notifications shown, as a trader reads them. */
export const notes = () =>
  notificationsStore.notification_list.map(({ type, description, isOnlyManualClose }) => ({
    type,
    description,
    isOnlyManualClose,
  }));

/**
 * Resets the session's stores and fills them: the user, the paper platform and BTCUSDT, the platform's trade
 * settings, client mode, the PIN, level TRADE_AVAILABLE and the stored token `envelope`.
 */
export function arrangeTradingSession(envelope: string): void {
  resetAuthStore();
  resetNotificationsStore();
  resetPlatformsStore();
  resetPreferencesStore();
  resetSymbolsStore();
  resetPinCodeStore();
  resetTradeTokensStore();
  authStore.user = makeTrader(USER_KEY);
  platformsStore.platform_dict = { [PLATFORM_UUID]: makePaperPlatform() };
  symbolsStore.symbol_dict = {
    [BTC_UUID]: {
      symbol_uuid: BTC_UUID,
      symbol_name: 'BTC',
      symbol_pair: 'BTCUSDT',
      symbol_quantity_precision: 3,
      symbol_price_precision: 1,
    },
    [ETH_UUID]: {
      symbol_uuid: ETH_UUID,
      symbol_name: 'ETH',
      symbol_pair: 'ETHUSDT',
      symbol_quantity_precision: 3,
      symbol_price_precision: 2,
    },
  };
  preferencesStore.platform_preferences_by_uuid[PLATFORM_UUID] = { ...PREFERENCES };
  chooseMode(0);
  putPinCode(PLATFORM_UUID, PIN);
  tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.TRADE_AVAILABLE };
  writeTokenEnvelope(PLATFORM_UUID, envelope);
}

/**
 * Before each test of opening or closing: fake timers, empty local storage, console errors kept quiet (the
 * flows log what they notify), and the session arranged with `envelope`.
 */
export function startTradingTest(envelope: string): void {
  vi.useFakeTimers();
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  arrangeTradingSession(envelope);
}
