// The client-mode reconciliation that follows a balance read (app/platform-keys.ts): after a successful exchange read, the open
// client-mode trades of that platform are checked and the ones the exchange closed are reported. The vault is
// real; the exchange steps and the API calls are mocked.
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { ETH_UUID, makePaperPlatform, makeTrader, PLATFORM_UUID } from '../testing/live-fixtures';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { checkPositions } from '../../shared-core/trade-flow';
import { authStore, resetAuthStore } from '../stores/auth-store';
import { platformsStore, resetPlatformsStore } from '../stores/platforms-store';
import { resetPreferencesStore } from '../stores/preferences-store';
import { putPinCode, resetPinCodeStore } from '../stores/pin-code-store';
import { writeTokenEnvelope } from '../stores/token-storage';
import { sealNewTradeToken } from '../stores/token-vault';
import { closeClientTrade } from '../features/trades/api/close-client-trade';
import { makeTrade } from '../testing/trade-fixtures';
import { resetTradesStore, setOpenTrades, tradesStore } from '../features/trades/trades-store';
import { ExchangeClient } from '../../shared-core/exchange-client';
import { balancesStore, resetBalancesStore } from '../features/balances/balances-store';
import { loadBalance } from './platform-keys';

vi.mock('../features/balances/api/get-account-balance', () => ({ getAccountBalance: vi.fn() }));
vi.mock('../features/trades/api/close-client-trade', () => ({
  closeClientTrade: vi.fn(async () => undefined),
}));
vi.mock('../features/trades/api/get-open-trades', () => ({ getOpenTrades: vi.fn(async () => []) }));
vi.mock('../../shared-core/trade-flow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared-core/trade-flow')>()),
  checkPositions: vi.fn(),
}));

const OTHER_PLATFORM = '33333333-3333-4333-8333-333333333333';
const PIN = '12345';
const USER_KEY = 'd'.repeat(64);
const BALANCE = {
  available_balance: 90,
  total_margin_balance: 100,
  total_unrealized_profit: 1,
  total_wallet_balance: 99,
};
let envelope = '';

beforeAll(async () => {
  await loadTradeCoreForTests();
  envelope = sealNewTradeToken('k', 's', {
    pinCode: PIN,
    platformUuid: PLATFORM_UUID,
    userTradeTokenKey: USER_KEY,
  });
});
beforeEach(() => {
  localStorage.clear();
  resetAuthStore();
  resetBalancesStore();
  resetPinCodeStore();
  resetPlatformsStore();
  resetPreferencesStore();
  resetTradesStore();
  vi.mocked(checkPositions).mockReset();
  vi.mocked(closeClientTrade).mockClear();
  vi.spyOn(ExchangeClient.prototype, 'getAccount').mockResolvedValue(BALANCE);
  authStore.user = makeTrader(USER_KEY);
  platformsStore.platform_dict = { [PLATFORM_UUID]: makePaperPlatform() };
  putPinCode(PLATFORM_UUID, PIN);
  writeTokenEnvelope(PLATFORM_UUID, envelope);
});
afterEach(() => vi.restoreAllMocks());

describe('client-mode reconciliation after a balance read', () => {
  test("checks this platform's open client-mode trades and reports the ones the exchange closed", async () => {
    const closedByStop = makeTrade();
    const stillOpen = makeTrade({
      symbol: { ...closedByStop.symbol, symbol_uuid: ETH_UUID, symbol_pair: 'ETHUSDT' },
    });
    const serverSide = makeTrade({ trade_in_server_side: 1 });
    const otherPlatform = makeTrade({ platform_uuid: OTHER_PLATFORM });
    setOpenTrades([closedByStop, stillOpen, serverSide, otherPlatform]);
    vi.mocked(checkPositions).mockResolvedValue([
      {
        trade_uuid: closedByStop.trade_uuid,
        state: 'closed',
        trade_status: 'stop_loss',
        trade_close_price: '96515.0',
      },
      { trade_uuid: stillOpen.trade_uuid, state: 'open', trade_open_price: '3000', trade_quantity: '0.01' },
    ]);
    await loadBalance(PLATFORM_UUID);
    expect(balancesStore.balance_by_platform_uuid[PLATFORM_UUID]).toEqual(BALANCE);
    await vi.waitFor(() => expect(closeClientTrade).toHaveBeenCalledOnce());
    expect(vi.mocked(checkPositions).mock.calls[0]?.[1]).toEqual([
      {
        trade_uuid: closedByStop.trade_uuid,
        symbol_pair: 'BTCUSDT',
        trade_direction: 'BUY',
        trade_stop_order_id: closedByStop.trade_stop_order_id,
        trade_order_id: closedByStop.trade_order_id,
        trade_exits_held: false,
      },
      expect.objectContaining({ trade_uuid: stillOpen.trade_uuid, symbol_pair: 'ETHUSDT' }),
    ]);
    expect(closeClientTrade).toHaveBeenCalledWith({
      trade_uuid: closedByStop.trade_uuid,
      trade_status: 'stop_loss',
      trade_close_price: '96515.0',
    });
    await vi.waitFor(() => expect(tradesStore.trade_by_uuid_dict[closedByStop.trade_uuid]).toBeUndefined());
    expect(tradesStore.trade_by_uuid_dict[stillOpen.trade_uuid]).toBeDefined();
  });

  test('no open client-mode trades: no exchange check', async () => {
    setOpenTrades([makeTrade({ trade_in_server_side: 1 })]);
    await loadBalance(PLATFORM_UUID);
    expect(balancesStore.balance_by_platform_uuid[PLATFORM_UUID]).toEqual(BALANCE);
    expect(checkPositions).not.toHaveBeenCalled();
  });

  test('a failing check is only logged and the balance stays', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setOpenTrades([makeTrade()]);
    vi.mocked(checkPositions).mockRejectedValue(new Error('Timeout'));
    await loadBalance(PLATFORM_UUID);
    await vi.waitFor(() => expect(logged).toHaveBeenCalled());
    expect(balancesStore.balance_by_platform_uuid[PLATFORM_UUID]).toEqual(BALANCE);
    expect(closeClientTrade).not.toHaveBeenCalled();
  });
});
