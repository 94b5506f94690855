import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { byUuid, makeSignal, PLATFORM_UUID } from '../testing/live-fixtures';
import { initTestI18n } from '../testing/i18n-test';
import { loadTradeCoreForTests } from '../testing/load-trade-core';
import { preferencesStore, resetPreferencesStore } from '../stores/preferences-store';
import { TradeTokenLevel } from '../stores/token-level';
import { resetTradeTokensStore, tradeTokensStore } from '../stores/trade-tokens-store';
import { resetNotificationsStore } from '../stores/notifications-store';
import { NotificationList } from '../features/notifications/components/notification-list';
import { pushSignals, resetSignalsStore, signalsStore } from '../features/signals/signals-store';
import type { OpenTradeFromSignal } from '../features/signals/trade-from-signal';
import { useSignalTimers } from '../features/signals/use-signal-timers';
import { SignalToasts } from '../features/signals/components/signal-toasts';
import { SignalsPanel } from '../features/signals/components/signals-panel';

// The panel's signal feed reads the API; not what these tests are about.
vi.mock('../features/signals/api/get-signal-feed', () => ({
  getSignalFeed: () => new Promise(() => undefined),
}));

const openTrade = vi.fn<OpenTradeFromSignal>(async () => undefined);

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => {
  resetSignalsStore();
  resetPreferencesStore();
  resetTradeTokensStore();
  resetNotificationsStore();
  openTrade.mockClear();
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

// The layout's composition (layout.tsx): the live signals' toasts in the notification area, the signal cards on
// Main. Pages are stand-ins; the signals, the stores, the clock and the toasts are the real ones.

/** As the layout mounts them: the signal clock, the page, and the notification area holding the toasts. */
function Shell() {
  useSignalTimers(true, openTrade);
  return (
    <>
      <Routes>
        <Route path="/" element={<SignalsPanel onTrade={openTrade} />} />
        <Route path="*" element={<p>Trade Preferences</p>} />
      </Routes>
      <NotificationList>
        <SignalToasts />
      </NotificationList>
      <Location />
    </>
  );
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Shell />
    </MemoryRouter>,
  );
}

async function advance(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

/** A store change, and the redraw valtio schedules for it. */
async function update(change: () => void) {
  await act(async () => {
    change();
  });
}

function setAutoOpen(trade_auto_open_delay: number, minimal_accuracy = 60) {
  preferencesStore.trade_preferences = {
    trade_auto_open_delay,
    trade_auto_close_delay: 0,
    minimal_accuracy,
    trade_in_server_side: 0,
    trade_max_open_trades: 0,
    trade_daily_loss_limit: 0,
    trade_exits_on_exchange: 1,
  };
  tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.TRADE_AVAILABLE };
}

const toasts = () => screen.queryAllByTestId('signal-toast');

describe('signal toasts on a page without the signal cards (issue 39)', () => {
  test('a live signal shows in the notification area: symbol, direction and its countdown', async () => {
    renderAt('/trade_preferences');
    expect(toasts()).toHaveLength(0);
    await update(() => pushSignals(byUuid(makeSignal({ signal_direction_created: 'SELL' }))));
    const toast = screen.getByRole('group', { name: 'New signal: Sell BTC' });
    expect(toast.closest('.notification-stack')).not.toBeNull();
    expect(within(toast).getByTestId('signal-toast-direction')).toHaveTextContent('Sell');
    expect(toast).toHaveTextContent('BTC');
    expect(toast).toHaveTextContent('Paper Futures');
    expect(within(toast).getByTestId('signal-toast-seconds-left')).toHaveTextContent('99 s left');
    // Auto-open is OFF: no auto-open countdown.
    expect(within(toast).queryByTestId('signal-toast-auto-open')).toBeNull();
    await advance(3000);
    expect(within(toast).getByTestId('signal-toast-seconds-left')).toHaveTextContent('96 s left');
  });

  test('with auto-open on it counts down to the automatic open, which the session clock then runs', async () => {
    setAutoOpen(10);
    renderAt('/trade_history');
    await update(() => pushSignals(byUuid(makeSignal())));
    const autoOpen = () => screen.getByTestId('signal-toast-auto-open');
    expect(autoOpen()).toHaveTextContent('Opens automatically in 10 s');
    await advance(3000);
    expect(autoOpen()).toHaveTextContent('Opens automatically in 7 s');
    expect(openTrade).not.toHaveBeenCalled();
    await advance(7000);
    expect(openTrade).toHaveBeenCalledTimes(1);
  });

  test('no auto-open countdown for a signal below minimal_accuracy or without a trade token', async () => {
    setAutoOpen(10, 70);
    renderAt('/dashboard');
    await update(() => pushSignals(byUuid(makeSignal({ signal_accuracy: 0.65 }))));
    expect(toasts()).toHaveLength(1);
    expect(screen.queryByTestId('signal-toast-auto-open')).toBeNull();
    await update(() => {
      preferencesStore.trade_preferences!.minimal_accuracy = 60;
    });
    expect(screen.getByTestId('signal-toast-auto-open')).toBeInTheDocument();
    await update(() => {
      tradeTokensStore.token_by_platform_uuid[PLATFORM_UUID] = { level: TradeTokenLevel.NO_PIN_CODE };
    });
    expect(screen.queryByTestId('signal-toast-auto-open')).toBeNull();
  });

  test('"Show signal" goes to Main, where the card shows and the toast stands aside', async () => {
    renderAt('/trade_preferences');
    const signal = makeSignal();
    await update(() => pushSignals(byUuid(signal)));
    await update(() => fireEvent.click(screen.getByRole('link', { name: 'Show signal' })));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(toasts()).toHaveLength(0);
    expect(screen.getByTestId('signal-card')).toHaveAttribute('data-signal-uuid', signal.signal_uuid);
  });

  test('no toast on a page with the signal cards', async () => {
    renderAt('/');
    await update(() => pushSignals(byUuid(makeSignal())));
    expect(screen.getByTestId('signal-card')).toBeInTheDocument();
    expect(toasts()).toHaveLength(0);
  });

  test('a dismissed toast goes; its card stays; the toast goes with the card at the end of its countdown', async () => {
    renderAt('/trade_preferences');
    const first = makeSignal();
    const second = makeSignal();
    await update(() => pushSignals(byUuid(first)));
    await advance(1000);
    await update(() => pushSignals(byUuid(second)));
    expect(toasts()).toHaveLength(2);
    fireEvent.click(
      within(toasts()[0]!).getByRole('button', { name: 'Hide this toast (the signal stays on Main)' }),
    );
    expect(toasts().map((toast) => toast.dataset.signalUuid)).toEqual([first.signal_uuid]);
    expect(signalsStore.signal_list).toContain(second.signal_uuid);
    await advance(98_000);
    expect(toasts()).toHaveLength(0);
  });

  test('at most three toasts, newest first; the rest are counted', async () => {
    renderAt('/trade_preferences');
    const signals = [1, 2, 3, 4, 5].map(() => makeSignal());
    await update(() => pushSignals(byUuid(...signals)));
    expect(toasts()).toHaveLength(3);
    expect(screen.getByTestId('signal-toast-more')).toHaveTextContent('More live signals on Main: 2');
  });
});
