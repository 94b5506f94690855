// The client-mode exchange of a platform: the vault is unlocked once when the PIN is given (real trade-core,
// its openToken counted), the signing key is kept while the PIN is and dropped with it, and the requests go
// straight to the exchange only where the platform allows browsers, else through our relay.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { TradeSide } from '../../contracts/preferences';
import { openToken } from '../../shared-core/trade-core';
import { makeTrader } from '../testing/live-fixtures';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { authStore, resetAuthStore } from './auth-store';
import { platformsStore, resetPlatformsStore } from './platforms-store';
import { preferencesStore, resetPreferencesStore } from './preferences-store';
import { resetPinCodeStore } from './pin-code-store';
import { PlatformExchangeError, withPlatformExchange } from './platform-exchange';
import { writeTokenEnvelope } from './token-storage';
import { sealNewTradeToken } from './token-vault';
import { removePinCode, resetTradeTokensStore, setPinCode } from './trade-tokens-store';

vi.mock('../../shared-core/trade-core', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../shared-core/trade-core')>();
  return { ...real, openToken: vi.fn(real.openToken) };
});
vi.mock('../features/balances/api/get-account-balance', () => ({ getAccountBalance: vi.fn() }));

const PLATFORM = '11111111-1111-4111-8111-111111111111';
const USER_KEY = 'e'.repeat(64);
const PIN = '13579';

beforeAll(loadTradeCoreForTests);
beforeEach(() => {
  // A PIN starts a balance read, which finds no server here: only logged.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  localStorage.clear();
  resetAuthStore();
  resetPlatformsStore();
  resetPreferencesStore();
  resetPinCodeStore();
  resetTradeTokensStore();
  authStore.user = makeTrader(USER_KEY);
  preferencesStore.trade_preferences = {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side: TradeSide.CLIENT,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
  setPlatform(false);
  writeTokenEnvelope(
    PLATFORM,
    sealNewTradeToken('my-key', 'my-secret', {
      pinCode: PIN,
      platformUuid: PLATFORM,
      userTradeTokenKey: USER_KEY,
    }),
  );
  vi.mocked(openToken).mockClear();
});
afterEach(() => {
  resetTradeTokensStore();
  vi.restoreAllMocks();
});

function setPlatform(allowsBrowser: boolean) {
  platformsStore.platform_dict = {
    [PLATFORM]: {
      platform_uuid: PLATFORM,
      platform_name: 'Binance USDⓈ-M',
      platform_background: '#f0b90b',
      level: 3,
      trade_leverage_max: 50,
      platform_url: 'https://fapi.binance.com',
      platform_allows_browser: allowsBrowser,
    },
  };
}

describe('the exchange of a platform in client mode', () => {
  test('the vault is opened once, when the PIN is given; trades after it sign without opening it again', async () => {
    await setPinCode(PLATFORM, PIN);
    expect(openToken).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      const apiKey = await withPlatformExchange(PLATFORM, async (client) => client.apiKey);
      expect(apiKey).toBe('my-key');
    }
    expect(openToken).toHaveBeenCalledTimes(1);
  });

  test('the key goes with the PIN: without one the exchange is not reached; a new PIN opens the vault anew', async () => {
    await setPinCode(PLATFORM, PIN);
    await removePinCode(PLATFORM);
    await expect(withPlatformExchange(PLATFORM, async () => 'reached')).rejects.toEqual(
      new PlatformExchangeError('trades.notify.pin_not_set'),
    );
    await setPinCode(PLATFORM, '00000');
    await expect(withPlatformExchange(PLATFORM, async () => 'reached')).rejects.toMatchObject({
      code: 'WrongPin',
    });
  });

  test('requests go through our relay unless the platform allows browsers', async () => {
    await setPinCode(PLATFORM, PIN);
    const relayed = await withPlatformExchange(PLATFORM, async (client) => client.baseUrl);
    expect(relayed).toBe(`/api/exchange_relay/${PLATFORM}`);
    setPlatform(true);
    const direct = await withPlatformExchange(PLATFORM, async (client) => client.baseUrl);
    expect(direct).toBe('https://fapi.binance.com');
  });
});
