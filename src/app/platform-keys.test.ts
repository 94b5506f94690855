// Token level logic of SPEC.md §4 in both modes, PIN changes and revoke, and the balance that follows them
// (app/platform-keys.ts), with the real trade-core vault (pkg/ loaded into jsdom); the API calls and the
// exchange call are mocked.
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { makePaperPlatform, makeTrader } from '../testing/live-fixtures';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { TradeSide } from '../../contracts/preferences';
import { TradeTokenMessage } from '../../contracts/trade-tokens';
import { openToken } from '../../shared-core/trade-core';
import { authStore, resetAuthStore } from '../stores/auth-store';
import { balancesStore, resetBalancesStore } from '../features/balances/balances-store';
import { platformsStore, resetPlatformsStore } from '../stores/platforms-store';
import { preferencesStore, resetPreferencesStore } from '../stores/preferences-store';
import { pinCodeStore, resetPinCodeStore } from '../stores/pin-code-store';
import { TradeTokenLevel } from '../stores/token-level';
import {
  getTradeTokenLevel,
  loadTradeToken,
  resetTradeTokensStore,
  tradeTokensStore,
} from '../stores/trade-tokens-store';
import { ExchangeClient } from '../../shared-core/exchange-client';
import {
  addToken,
  forgetPinCode,
  loadBalance,
  loadBalances,
  revokeToken,
  savePinCode,
} from './platform-keys';
import { ApiError, ApiErrorKind } from '../lib/api-client';

const api = vi.hoisted(() => ({
  getTradeToken: vi.fn(),
  createTradeToken: vi.fn(),
  revokeTradeToken: vi.fn(),
  getAccount: vi.fn(),
  getAccountBalance: vi.fn(),
}));
vi.mock('../stores/api/get-trade-token', () => ({ getTradeToken: api.getTradeToken }));
vi.mock('../stores/api/create-trade-token', () => ({ createTradeToken: api.createTradeToken }));
vi.mock('../stores/api/revoke-trade-token', () => ({ revokeTradeToken: api.revokeTradeToken }));
vi.mock('../features/balances/api/get-account-balance', () => ({ getAccountBalance: api.getAccountBalance }));

const PLATFORM = '11111111-1111-4111-8111-111111111111';
const USER_KEY = 'a'.repeat(64);
const BALANCE = {
  available_balance: 90,
  total_margin_balance: 100,
  total_unrealized_profit: 1,
  total_wallet_balance: 99,
};

function useMode(mode: TradeSide) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 60,
    trade_in_server_side: mode,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
}

beforeAll(loadTradeCoreForTests);
beforeEach(() => {
  localStorage.clear();
  for (const fn of Object.values(api)) fn.mockReset();
  resetAuthStore();
  resetBalancesStore();
  resetPinCodeStore();
  resetPreferencesStore();
  resetPlatformsStore();
  resetTradeTokensStore();
  authStore.user = makeTrader(USER_KEY);
  platformsStore.platform_dict = { [PLATFORM]: makePaperPlatform({ trade_leverage_max: 20 }) };
  platformsStore.is_loaded = true;
  api.getAccount.mockResolvedValue(BALANCE);
  // The exchange's answer is the test's; the client (its URL, its key) is the real one the store built.
  vi.spyOn(ExchangeClient.prototype, 'getAccount').mockImplementation(function (this: ExchangeClient) {
    return api.getAccount({ baseUrl: this.baseUrl, apiKey: this.apiKey });
  });
  useMode(TradeSide.CLIENT);
});

describe('client mode', () => {
  test('no local token gives NO_TRADE_TOKEN', async () => {
    await loadTradeToken(PLATFORM);
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.NO_TRADE_TOKEN);
  });

  test('adding a token needs a PIN', async () => {
    await expect(addToken(PLATFORM, 'key', 'secret')).rejects.toThrow('trade_token.set_pin_first');
  });

  test('a created token is stored as an envelope under the platform_uuid and is TRADE_AVAILABLE', async () => {
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'my-api-key', 'my-api-secret');
    const stored = localStorage.getItem(PLATFORM);
    expect(stored).toMatch(/^v1\$argon2id\$/);
    expect(stored).not.toContain('my-api-key');
    expect(stored).not.toContain('my-api-secret');
    const content = JSON.parse(openToken(stored ?? '', '12345', PLATFORM, USER_KEY)) as Record<
      string,
      unknown
    >;
    expect(content).toMatchObject({
      message: TradeTokenMessage.CREATED,
      api_key: 'my-api-key',
      api_secret: 'my-api-secret',
    });
    expect(tradeTokensStore.token_by_platform_uuid[PLATFORM]).toMatchObject({
      level: TradeTokenLevel.TRADE_AVAILABLE,
      message: TradeTokenMessage.CREATED,
    });
    // Neither the PIN nor the credentials reach storage outside the envelope.
    expect(JSON.stringify({ ...localStorage })).not.toContain('12345');
    // The token state never holds the credentials.
    expect(JSON.stringify(tradeTokensStore)).not.toContain('my-api-secret');
    // The balance was read from the exchange with the decrypted credentials.
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toEqual(BALANCE));
    expect(api.getAccount).toHaveBeenCalledWith({ baseUrl: 'http://127.0.0.1:8081', apiKey: 'my-api-key' });
  });

  test('without a PIN a stored token is NO_PIN_CODE with its message; a wrong PIN is WRONG_PIN_CODE', async () => {
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'k', 's');
    await forgetPinCode(PLATFORM);
    expect(tradeTokensStore.token_by_platform_uuid[PLATFORM]).toEqual({
      level: TradeTokenLevel.NO_PIN_CODE,
      message: 'Please send PIN-Code for receive data about Trade Token',
    });
    expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeUndefined();
    await savePinCode(PLATFORM, '99999');
    expect(tradeTokensStore.token_by_platform_uuid[PLATFORM]).toEqual({
      level: TradeTokenLevel.WRONG_PIN_CODE,
      message: 'Wrong PIN Code for reading Trade Token data',
    });
  });

  test('changing the PIN re-encrypts the token under the new PIN', async () => {
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'k', 's');
    await savePinCode(PLATFORM, '54321');
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.TRADE_AVAILABLE);
    const stored = localStorage.getItem(PLATFORM) ?? '';
    expect(() => openToken(stored, '12345', PLATFORM, USER_KEY)).toThrow();
    expect(JSON.parse(openToken(stored, '54321', PLATFORM, USER_KEY))).toMatchObject({ api_key: 'k' });
  });

  test('a PIN must have exactly 5 characters; an empty one clears it', async () => {
    await expect(savePinCode(PLATFORM, '1234')).rejects.toThrow();
    await savePinCode(PLATFORM, '12345');
    expect(pinCodeStore.pin_code_by_platform_uuid[PLATFORM]).toBe('12345');
    await savePinCode(PLATFORM, '');
    expect(pinCodeStore.pin_code_by_platform_uuid[PLATFORM]).toBeUndefined();
  });

  test('revoke removes the local item, the PIN, the token and the balance; the server forgets the followed key', async () => {
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'k', 's');
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeDefined());
    // Not reached, the local token goes all the same.
    api.revokeTradeToken.mockRejectedValueOnce(new Error('offline'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await revokeToken(PLATFORM);
    expect(api.revokeTradeToken).toHaveBeenCalledWith({ platform_uuid: PLATFORM });
    expect(localStorage.getItem(PLATFORM)).toBeNull();
    expect(pinCodeStore.pin_code_by_platform_uuid[PLATFORM]).toBeUndefined();
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.NO_TRADE_TOKEN);
    expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeUndefined();
  });

  test('a failing exchange call removes the stored balance', async () => {
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'k', 's');
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeDefined());
    api.getAccount.mockRejectedValueOnce(new Error('getAccount: Margin is insufficient'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await loadBalance(PLATFORM);
    expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeUndefined();
  });
});

describe('server mode', () => {
  const record = {
    trade_token_uuid: '33333333-3333-4333-8333-333333333333',
    platform_uuid: PLATFORM,
    created_at: '2026-11-22T06:00:00.000Z',
    updated_at: null,
    message: null,
    level: TradeTokenLevel.TRADE_AVAILABLE,
  };

  beforeEach(() => useMode(TradeSide.SERVER));

  test('the token is fetched with pin_code and platform_uuid and stored', async () => {
    api.getTradeToken.mockResolvedValueOnce(record);
    api.getAccountBalance.mockResolvedValue(BALANCE);
    await savePinCode(PLATFORM, '12345');
    expect(api.getTradeToken).toHaveBeenCalledWith({ pin_code: '12345', platform_uuid: PLATFORM });
    expect(tradeTokensStore.token_by_platform_uuid[PLATFORM]).toMatchObject({
      level: TradeTokenLevel.TRADE_AVAILABLE,
      trade_token_uuid: record.trade_token_uuid,
    });
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toEqual(BALANCE));
    expect(api.getAccountBalance).toHaveBeenCalledWith({ pin_code: '12345', platform_uuid: PLATFORM });
  });

  test('an error on fetch removes the token', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.getTradeToken.mockRejectedValueOnce(new Error('Trade token not found'));
    await savePinCode(PLATFORM, '12345');
    expect(tradeTokensStore.token_by_platform_uuid[PLATFORM]).toEqual({
      level: TradeTokenLevel.NO_TRADE_TOKEN,
    });
  });

  test('create posts key, secret, platform and PIN, then refetches; nothing is stored locally', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.getTradeToken.mockRejectedValueOnce(new Error('none')).mockResolvedValueOnce(record);
    await savePinCode(PLATFORM, '12345');
    await addToken(PLATFORM, 'key', 'secret');
    expect(api.createTradeToken).toHaveBeenCalledWith({
      api_key: 'key',
      api_secret: 'secret',
      platform_uuid: PLATFORM,
      pin_code: '12345',
    });
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.TRADE_AVAILABLE);
    expect(localStorage.getItem(PLATFORM)).toBeNull();
  });

  test('revoke posts the call, clears the PIN and removes the token and balance', async () => {
    api.getTradeToken.mockResolvedValue(record);
    api.getAccountBalance.mockResolvedValue(BALANCE);
    await savePinCode(PLATFORM, '12345');
    await revokeToken(PLATFORM);
    expect(api.revokeTradeToken).toHaveBeenCalledWith({ platform_uuid: PLATFORM });
    expect(pinCodeStore.pin_code_by_platform_uuid[PLATFORM]).toBeUndefined();
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.NO_TRADE_TOKEN);
    expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toBeUndefined();
  });

  test('a token revoked elsewhere (404) or a wrong PIN (403) stops the balance poll until the trader acts (issue 39)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.getTradeToken.mockResolvedValue(record);
    api.getAccountBalance.mockResolvedValue(BALANCE);
    await savePinCode(PLATFORM, '12345');
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toEqual(BALANCE));
    api.getAccountBalance.mockClear();
    api.getAccountBalance.mockRejectedValue(
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Trade token not found', 404),
    );
    await loadBalance(PLATFORM);
    expect(api.getAccountBalance).toHaveBeenCalledTimes(1);
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.NO_TRADE_TOKEN);
    expect(pinCodeStore.pin_code_by_platform_uuid[PLATFORM]).toBeUndefined();
    await loadBalances();
    await loadBalance(PLATFORM);
    expect(api.getAccountBalance).toHaveBeenCalledTimes(1);

    // A wrong PIN: the level says so and the poll waits for the PIN to be entered again.
    api.getAccountBalance.mockResolvedValue(BALANCE);
    await savePinCode(PLATFORM, '12345');
    await vi.waitFor(() => expect(balancesStore.balance_by_platform_uuid[PLATFORM]).toEqual(BALANCE));
    api.getAccountBalance.mockClear();
    api.getAccountBalance.mockRejectedValue(new ApiError(ApiErrorKind.HTTP_ERROR, 'WRONG_PIN_CODE', 403));
    await loadBalance(PLATFORM);
    expect(getTradeTokenLevel(PLATFORM)).toBe(TradeTokenLevel.WRONG_PIN_CODE);
    await loadBalance(PLATFORM);
    expect(api.getAccountBalance).toHaveBeenCalledTimes(1);
  });
});
