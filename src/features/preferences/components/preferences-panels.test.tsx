import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { loadTradeCoreForTests } from '../../../testing/load-trade-core';
import type { Platform } from '../../../../contracts/platforms';
import { initTestI18n } from '../../../testing/i18n-test';
import { PREFERENCE_SAVE_DEBOUNCE_MS } from '../../../config/constants';
import { notificationsStore, resetNotificationsStore } from '../../../stores/notifications-store';
import { resetPreferencesStore } from '../../../stores/preferences-store';
import { GlobalPreferencesPanel } from './global-preferences-panel';
import { PlatformPreferencesPanel } from './platform-preferences-panel';
import { DEFAULT_TAKER_RATE } from '../../../../shared-core/trade-fees';

const api = vi.hoisted(() => ({
  getTradePreferences: vi.fn(),
  setTradePreferences: vi.fn(),
  getPlatformPreferences: vi.fn(),
  setPlatformPreferences: vi.fn(),
}));
vi.mock('../../../stores/api/get-trade-preferences', () => ({
  getTradePreferences: api.getTradePreferences,
}));
vi.mock('../../../stores/api/set-trade-preferences', () => ({
  setTradePreferences: api.setTradePreferences,
}));
vi.mock('../../../stores/api/get-platform-preferences', () => ({
  getPlatformPreferences: api.getPlatformPreferences,
}));
vi.mock('../../../stores/api/set-platform-preferences', () => ({
  setPlatformPreferences: api.setPlatformPreferences,
}));

const GLOBAL = {
  trade_auto_open_delay: 1,
  trade_auto_close_delay: 0,
  minimal_accuracy: 60,
  trade_in_server_side: 0,
  trade_max_open_trades: 0,
  trade_daily_loss_limit: 25,
  trade_exits_on_exchange: 1,
};
const PLATFORM_PREFS = {
  trade_margin: 10,
  trade_leverage: 19,
  trade_stop_loss_percent: 5,
  trade_take_profit_percent: 2,
  trade_treiling_stop_percent: 2,
};
const PLATFORM: Platform = {
  platform_uuid: '11111111-1111-4111-8111-111111111111',
  platform_name: 'Paper Futures',
  platform_background: '#334455',
  level: 3,
  trade_leverage_max: 20,
  platform_url: 'http://127.0.0.1:8081',
  platform_allows_browser: true,
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  for (const fn of Object.values(api)) fn.mockReset();
  api.getTradePreferences.mockResolvedValue(GLOBAL);
  api.getPlatformPreferences.mockResolvedValue(PLATFORM_PREFS);
  resetPreferencesStore();
  resetNotificationsStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const messages = () => notificationsStore.notification_list.map((item) => item.description[0]);
const within = (testId: string) => screen.getByTestId(testId);
const field = (name: string) => screen.getByRole('spinbutton', { name }) as HTMLInputElement;
/** Types `text` into a stepper's field and leaves it (the commit on blur). */
function typeInto(input: HTMLInputElement, text: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.blur(input);
}
const button = (testId: string, name: RegExp) =>
  Array.from(within(testId).querySelectorAll('button')).find((b) =>
    name.test(b.getAttribute('aria-label') ?? ''),
  )!;

describe('global preferences', () => {
  test('delay 0 shows OFF and trade_in_server_side shows Client', async () => {
    render(<GlobalPreferencesPanel />);
    await screen.findByTestId('preference-trade_auto_close_delay');
    expect(within('preference-trade_auto_close_delay')).toHaveTextContent('OFF');
    expect(within('preference-trade_in_server_side')).toHaveTextContent('Client');
    // The risk limits (issue 18): 0 is OFF too.
    expect(within('preference-trade_max_open_trades')).toHaveTextContent('OFF');
    expect(within('preference-trade_daily_loss_limit')).toHaveTextContent('25');
    // Issue 35: the exchange holds the exits unless the trader turned it off.
    expect(within('preference-trade_exits_on_exchange')).toHaveTextContent('ON');
    expect(within('preference-minimal_accuracy')).toHaveTextContent('60.00');
    // Issue 39: the numbers are typeable; a delay's 0 still shows OFF in the field until it is focused.
    expect(field('Auto close delay, s')).toHaveValue('OFF');
    expect(field('Minimal accuracy, %')).toHaveValue('60.00');
    // Client / Server has nothing to type: buttons only.
    expect(screen.queryByRole('spinbutton', { name: 'Trade side' })).toBeNull();
  });

  test('a delay typed in seconds is saved after the debounce (issue 39)', async () => {
    render(<GlobalPreferencesPanel />);
    await screen.findByTestId('preference-trade_auto_open_delay');
    vi.useFakeTimers();
    api.setTradePreferences.mockResolvedValue(undefined);
    typeInto(field('Auto open delay, s'), '45');
    typeInto(field('Minimal accuracy, %'), '72.5');
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS);
    });
    expect(api.setTradePreferences).toHaveBeenCalledExactlyOnceWith({
      ...GLOBAL,
      trade_auto_open_delay: 45,
      minimal_accuracy: 72.5,
    });
  });

  test('an edit is saved 2 s after the last edit, once, with a success notification', async () => {
    render(<GlobalPreferencesPanel />);
    await screen.findByTestId('preference-trade_in_server_side');
    vi.useFakeTimers();
    api.setTradePreferences.mockResolvedValue(undefined);
    fireEvent.click(button('preference-trade_in_server_side', /Increase/));
    expect(within('preference-trade_in_server_side')).toHaveTextContent('Server');
    fireEvent.click(button('preference-trade_max_open_trades', /Increase/));
    act(() => vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS - 1));
    fireEvent.click(button('preference-trade_auto_open_delay', /Increase/));
    act(() => vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS - 1));
    expect(api.setTradePreferences).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(api.setTradePreferences).toHaveBeenCalledTimes(1);
    expect(api.setTradePreferences).toHaveBeenCalledWith({
      ...GLOBAL,
      trade_auto_open_delay: 2,
      trade_in_server_side: 1,
      trade_max_open_trades: 1,
    });
    expect(messages()).toContain('notification.update_trade_preferences_success');
  });

  test('values edited back to the loaded ones are not saved', async () => {
    render(<GlobalPreferencesPanel />);
    await screen.findByTestId('preference-trade_auto_open_delay');
    vi.useFakeTimers();
    fireEvent.click(button('preference-trade_auto_open_delay', /Increase/));
    fireEvent.click(button('preference-trade_auto_open_delay', /Decrease/));
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    });
    expect(api.setTradePreferences).not.toHaveBeenCalled();
  });

  test('a failed save shows the error notification and the loaded values again', async () => {
    render(<GlobalPreferencesPanel />);
    await screen.findByTestId('preference-trade_auto_open_delay');
    vi.useFakeTimers();
    api.setTradePreferences.mockRejectedValue(new Error('Must be at most 60'));
    fireEvent.click(button('preference-trade_auto_open_delay', /Increase/));
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS);
    });
    expect(messages()).toContain('notification.update_trade_preferences_error');
    expect(within('preference-trade_auto_open_delay')).toHaveTextContent('1');
  });
});

describe('platform preferences', () => {
  test('the SPEC table: decimals, and leverage capped by the platform maximum', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_leverage');
    expect(within('preference-trade_margin')).toHaveTextContent('10.00');
    expect(within('preference-trade_stop_loss_percent')).toHaveTextContent('5.0');
    expect(button('preference-trade_stop_loss_percent', /Decrease/)).toBeDisabled();
    fireEvent.click(button('preference-trade_leverage', /Increase/));
    expect(within('preference-trade_leverage')).toHaveTextContent('20');
    expect(button('preference-trade_leverage', /Increase/)).toBeDisabled();
  });

  test('a take profit the round-trip fees eat at the leverage is flagged beside it (issue 36)', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_leverage');
    // 2 % at ×19: the fees take 2 × 0.05 % × 19 = 1.9 % ROE, the take profit clears them.
    expect(screen.queryByTestId('fee-flag')).toBeNull();
    fireEvent.click(button('preference-trade_leverage', /Increase/));
    // At ×20 they take 2.00 %: the take profit no longer clears them.
    expect(screen.getByTestId('fee-flag')).toHaveTextContent(
      "At ×20 the round trip's fees (0.050 % a side) take 2.00 % ROE: this take profit would close at a loss",
    );
    fireEvent.click(button('preference-trade_take_profit_percent', /Increase/));
    expect(screen.queryByTestId('fee-flag')).toBeNull();
    cleanup();
    // The trader's own charged rate (0.04 %) decides: 1.6 % at ×20.
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate="0.0004" />);
    await screen.findByTestId('preference-trade_leverage');
    fireEvent.click(button('preference-trade_leverage', /Increase/));
    expect(screen.queryByTestId('fee-flag')).toBeNull();
  });

  test('a change is saved with the platform_uuid and a success notification', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_margin');
    vi.useFakeTimers();
    api.setPlatformPreferences.mockResolvedValue(undefined);
    fireEvent.click(button('preference-trade_margin', /Increase/));
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS);
    });
    expect(api.setPlatformPreferences).toHaveBeenCalledWith({
      platform_uuid: PLATFORM.platform_uuid,
      ...PLATFORM_PREFS,
      trade_margin: 10.25,
    });
    expect(messages()).toContain('notification.update_platform_preferences_success');
  });

  test('margin typed as 100 is saved as the 100 the buttons make, shown 100.00 (issue 39)', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_margin');
    vi.useFakeTimers();
    api.setPlatformPreferences.mockResolvedValue(undefined);
    const margin = field('Margin, $');
    typeInto(margin, '100');
    expect(margin).toHaveValue('100.00');
    // Out of range is clamped like the buttons: leverage up to this platform's ×20.
    typeInto(field('Leverage, x'), '500');
    expect(field('Leverage, x')).toHaveValue('20');
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS);
    });
    expect(api.setPlatformPreferences).toHaveBeenCalledExactlyOnceWith({
      platform_uuid: PLATFORM.platform_uuid,
      ...PLATFORM_PREFS,
      trade_margin: 100,
      trade_leverage: 20,
    });
  });

  test('edits save while the card re-renders every 100 ms, as live prices make it (issue 53)', async () => {
    // A parent re-rendered by ticking data: each render makes the panel's save callback anew.
    function Ticking() {
      const [tick, setTick] = useState(0);
      useEffect(() => {
        const timer = setInterval(() => setTick((value) => value + 1), 100);
        return () => clearInterval(timer);
      }, []);
      return (
        <div data-tick={tick}>
          <PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />
        </div>
      );
    }
    render(<Ticking />);
    await screen.findByTestId('preference-trade_margin');
    vi.useFakeTimers();
    api.setPlatformPreferences.mockResolvedValue(undefined);
    typeInto(field('Margin, $'), '100');
    typeInto(field('Take profit, %'), '20');
    expect(screen.getByText('Saving…')).toBeInTheDocument();
    for (let elapsed = 0; elapsed < PREFERENCE_SAVE_DEBOUNCE_MS + 500; elapsed += 100) {
      await act(async () => {
        vi.advanceTimersByTime(100);
      });
    }
    expect(api.setPlatformPreferences).toHaveBeenCalledExactlyOnceWith({
      platform_uuid: PLATFORM.platform_uuid,
      ...PLATFORM_PREFS,
      trade_margin: 100,
      trade_take_profit_percent: 20,
    });
    // The server has it: the panel says so.
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });

  test('a pending edit is sent at once when the page is hidden or closed, and only once (issue 53)', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_margin');
    vi.useFakeTimers();
    api.setPlatformPreferences.mockResolvedValue(undefined);
    typeInto(field('Stop loss, %'), '7');
    expect(api.setPlatformPreferences).not.toHaveBeenCalled();
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(api.setPlatformPreferences).toHaveBeenCalledExactlyOnceWith({
      platform_uuid: PLATFORM.platform_uuid,
      ...PLATFORM_PREFS,
      trade_stop_loss_percent: 7,
    });
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    });
    cleanup();
    expect(api.setPlatformPreferences).toHaveBeenCalledTimes(1);
  });

  test('a text that is not a number is not saved and says why', async () => {
    render(<PlatformPreferencesPanel platform={PLATFORM} feeRate={DEFAULT_TAKER_RATE} />);
    await screen.findByTestId('preference-trade_margin');
    vi.useFakeTimers();
    const stopLoss = field('Stop loss, %');
    typeInto(stopLoss, 'ten');
    expect(stopLoss).toHaveValue('5.0');
    expect(stopLoss).toHaveAttribute('aria-invalid', 'true');
    expect(within('preference-trade_stop_loss_percent')).toHaveTextContent(
      'Not a number: Stop loss, % needs a number from 5.0 to 100.0, so it keeps its last value',
    );
    await act(async () => {
      vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS * 2);
    });
    expect(api.setPlatformPreferences).not.toHaveBeenCalled();
  });
});
