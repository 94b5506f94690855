// Issue 41: Trade Preferences' Notifications panel as src/app composes it under the global preferences (one
// draft for both), in jsdom, which has no service worker: the device says so and offers no Turn on.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { PREFERENCE_SAVE_DEBOUNCE_MS } from '../config/constants';
import { initTestI18n } from '../testing/i18n-test';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { resetNotificationsStore } from '../stores/notifications-store';
import { resetPreferencesStore } from '../stores/preferences-store';
import { GlobalPreferencesPanel } from '../features/preferences/components/global-preferences-panel';
import { PushPreferencesPanel } from '../features/push/components/push-preferences-panel';

const api = vi.hoisted(() => ({ getTradePreferences: vi.fn(), setTradePreferences: vi.fn() }));
vi.mock('../stores/api/get-trade-preferences', () => ({ getTradePreferences: api.getTradePreferences }));
vi.mock('../stores/api/set-trade-preferences', () => ({ setTradePreferences: api.setTradePreferences }));

/** A server from before issue 41: no push_* in its answer. */
const GLOBAL = {
  trade_auto_open_delay: 1,
  trade_auto_close_delay: 0,
  minimal_accuracy: 60,
  trade_in_server_side: 0,
  trade_max_open_trades: 0,
  trade_daily_loss_limit: 25,
  trade_exits_on_exchange: 1,
};

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  api.getTradePreferences.mockReset().mockResolvedValue(GLOBAL);
  api.setTradePreferences.mockReset().mockResolvedValue(undefined);
  resetPreferencesStore();
  resetNotificationsStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderPanels() {
  render(
    <GlobalPreferencesPanel
      after={({ values, edit, saveState }) => (
        <PushPreferencesPanel values={values} edit={edit} saveState={saveState} />
      )}
    />,
  );
}

const decrease = (testId: string) =>
  Array.from(screen.getByTestId(testId).querySelectorAll('button')).find((b) =>
    /Decrease/.test(b.getAttribute('aria-label') ?? ''),
  )!;

test('the five kinds show ON when the server does not send them; this browser says it has no Web Push', async () => {
  renderPanels();
  await screen.findByTestId('preference-push_signals');
  for (const kind of [
    'push_signals',
    'push_trade_opened',
    'push_trade_closed',
    'push_unprotected',
    'push_refusals',
  ]) {
    expect(screen.getByTestId(`preference-${kind}`)).toHaveTextContent('ON');
  }
  expect(screen.getByTestId('preference-push_trade_closed')).toHaveTextContent(
    'A trade closed, with its exit and net PNL',
  );
  await vi.waitFor(() =>
    expect(screen.getByTestId('push-device-state')).toHaveTextContent('Not supported by this browser'),
  );
  expect(screen.queryByTestId('push-toggle')).toBeNull();
});

test('a kind and a global preference edited within one debounce are saved once, together', async () => {
  renderPanels();
  await screen.findByTestId('preference-push_refusals');
  vi.useFakeTimers();
  fireEvent.click(decrease('preference-push_refusals'));
  fireEvent.click(decrease('preference-trade_auto_open_delay'));
  expect(screen.getByTestId('preference-push_refusals')).toHaveTextContent('OFF');
  await act(async () => {
    vi.advanceTimersByTime(PREFERENCE_SAVE_DEBOUNCE_MS);
  });
  expect(api.setTradePreferences).toHaveBeenCalledExactlyOnceWith({
    ...GLOBAL,
    trade_auto_open_delay: 0,
    push_refusals: 0,
  });
});
