import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { ETH_UUID, makePaperPlatform, makeTrader, PLATFORM_UUID } from '../../../testing/live-fixtures';
import { initTestI18n } from '../../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import { ApiError, ApiErrorKind } from '../../../lib/api-client';
import { ExchangeClient } from '../../../../shared-core/exchange-client';
import { checkPositions } from '../../../../shared-core/trade-flow';
import { authStore, resetAuthStore } from '../../../stores/auth-store';
import { platformsStore, resetPlatformsStore } from '../../../stores/platforms-store';
import { preferencesStore, resetPreferencesStore } from '../../../stores/preferences-store';
import { putPinCode, resetPinCodeStore } from '../../../stores/pin-code-store';
import { writeTokenEnvelope } from '../../../stores/token-storage';
import { sealNewTradeToken } from '../../../stores/token-vault';
import { closeClientTrade } from '../api/close-client-trade';
import { deleteTradeErrors } from '../api/delete-trade-errors';
import { getOpenTrades } from '../api/get-open-trades';
import { makeTrade } from '../../../testing/trade-fixtures';
import { resetTradesStore, setOpenTrades, tradesStore } from '../trades-store';
import { RepairTradesBox } from './repair-trades-box';

vi.mock('../api/delete-trade-errors', () => ({ deleteTradeErrors: vi.fn() }));
vi.mock('../api/close-client-trade', () => ({ closeClientTrade: vi.fn(async () => undefined) }));
vi.mock('../api/get-open-trades', () => ({ getOpenTrades: vi.fn(async () => []) }));
vi.mock('../../../../shared-core/trade-flow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../shared-core/trade-flow')>()),
  checkPositions: vi.fn(),
}));

const OTHER_PLATFORM = '33333333-3333-4333-8333-333333333333';
const PIN = '12345';
const USER_KEY = 'c'.repeat(64);
let envelope = '';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
  envelope = sealNewTradeToken('k', 's', {
    pinCode: PIN,
    platformUuid: PLATFORM_UUID,
    userTradeTokenKey: USER_KEY,
  });
});
beforeEach(() => {
  localStorage.clear();
  resetTradesStore();
  resetAuthStore();
  resetPinCodeStore();
  resetPlatformsStore();
  resetPreferencesStore();
  vi.mocked(deleteTradeErrors).mockReset();
  vi.mocked(checkPositions).mockReset();
  vi.mocked(closeClientTrade).mockClear();
  vi.mocked(getOpenTrades).mockClear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function repair() {
  render(<RepairTradesBox />);
  fireEvent.click(screen.getByTestId('repair-button'));
  const dialog = screen.getByRole('dialog', { name: 'Repair error trades' });
  expect(dialog).toHaveTextContent('Are you sure that you want to repair trade errors?');
  await act(async () => {
    fireEvent.click(within(dialog).getByTestId('repair-confirm'));
  });
}

/** The global mode (SPEC.md §3 trade_in_server_side): 1 Server, 0 Client. */
function setMode(trade_in_server_side: 0 | 1) {
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

describe("'Repair error trades' (SPEC.md §2 Trade preferences)", () => {
  test('shows the help text; after confirming, the count of repaired trades', async () => {
    setMode(1);
    putPinCode(PLATFORM_UUID, PIN);
    putPinCode(OTHER_PLATFORM, '54321');
    vi.mocked(deleteTradeErrors).mockResolvedValue(3);
    render(<RepairTradesBox />);
    expect(screen.getByTestId('repair-box')).toHaveTextContent(
      'If new trades cannot be opened on any platform, you can repair the trades with this button',
    );
    cleanup();
    await repair();
    expect(deleteTradeErrors).toHaveBeenCalledExactlyOnceWith({
      pin_code_by_platform_uuid: { [PLATFORM_UUID]: PIN, [OTHER_PLATFORM]: '54321' },
    });
    expect(screen.getByTestId('repair-result')).toHaveTextContent('Was successfully repair trades: 3');
  });

  test('in client mode the PINs stay in the page: the server is asked without them (issue 17)', async () => {
    setMode(0);
    putPinCode(PLATFORM_UUID, PIN);
    putPinCode(OTHER_PLATFORM, '54321');
    vi.mocked(deleteTradeErrors).mockResolvedValue(0);
    await repair();
    expect(deleteTradeErrors).toHaveBeenCalledExactlyOnceWith({ pin_code_by_platform_uuid: {} });
  });

  test('Cancel closes the question and repairs nothing', () => {
    render(<RepairTradesBox />);
    fireEvent.click(screen.getByTestId('repair-button'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(deleteTradeErrors).not.toHaveBeenCalled();
  });

  test.each([
    [
      'the server detail',
      new ApiError(ApiErrorKind.HTTP_ERROR, 'Repair is already running', 409),
      'Repair is already running',
    ],
    [
      'else HTTP error {status}',
      new ApiError(ApiErrorKind.HTTP_ERROR, 'unknown error', 502),
      'HTTP error 502',
    ],
    ['else the error message', new Error('Failed to fetch'), 'Failed to fetch'],
    ['else Unknown error', 'boom', 'Unknown error'],
  ])('a failure shows %s in red', async (_name, error, text) => {
    vi.mocked(deleteTradeErrors).mockRejectedValue(error);
    await repair();
    const shown = screen.getByTestId('repair-error');
    expect(shown).toHaveTextContent(text);
    expect(shown).toHaveClass('form-error');
    expect(screen.queryByTestId('repair-result')).toBeNull();
  });

  test('client-mode error trades are reconciled with the exchange from this browser first', async () => {
    authStore.user = makeTrader(USER_KEY);
    platformsStore.platform_dict = { [PLATFORM_UUID]: makePaperPlatform() };
    putPinCode(PLATFORM_UUID, PIN);
    writeTokenEnvelope(PLATFORM_UUID, envelope);
    const broken = makeTrade({ trade_error: 'position_missing' });
    const sound = makeTrade({ symbol: { ...broken.symbol, symbol_uuid: ETH_UUID, symbol_pair: 'ETHUSDT' } });
    const serverSide = makeTrade({ trade_error: 'stop_missing', trade_in_server_side: 1 });
    // Repair reads the open trades first (a trade opened a moment ago must be in its list), then again after.
    setOpenTrades([sound]);
    tradesStore.is_loaded = true;
    vi.mocked(getOpenTrades).mockResolvedValueOnce([broken, sound, serverSide]);
    vi.mocked(checkPositions).mockResolvedValue([
      {
        trade_uuid: broken.trade_uuid,
        state: 'closed',
        trade_status: 'stop_loss',
        trade_close_price: '96515.0',
      },
    ]);
    vi.mocked(deleteTradeErrors).mockResolvedValue(0);
    await repair();
    const [client, checked] = vi.mocked(checkPositions).mock.calls[0] ?? [];
    expect(client).toBeInstanceOf(ExchangeClient);
    expect(checked?.map((trade) => trade.trade_uuid)).toEqual([broken.trade_uuid]);
    expect(closeClientTrade).toHaveBeenCalledExactlyOnceWith({
      trade_uuid: broken.trade_uuid,
      trade_status: 'stop_loss',
      trade_close_price: '96515.0',
    });
    expect(vi.mocked(closeClientTrade).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(deleteTradeErrors).mock.invocationCallOrder[0] ?? 0,
    );
    expect(tradesStore.trade_by_uuid_dict[broken.trade_uuid]).toBeUndefined();
    expect(screen.getByTestId('repair-result')).toHaveTextContent('Was successfully repair trades: 0');
  });
});
