// A trade with a trade_error is announced once per page session, with a warning that stays (docs/spa.md
// "Faults"); the end-to-end view is tests/faults/process-kill.e2e.test.ts.
import { beforeEach, expect, test } from 'vitest';
import {
  NotificationType,
  notificationsStore,
  resetNotificationsStore,
} from '../../stores/notifications-store';
import { makeTrade } from '../../testing/trade-fixtures';
import { announceTradeErrors, markTradeErrorAnnounced, resetTradeErrorNotices } from './trade-error-notices';

beforeEach(() => {
  resetNotificationsStore();
  resetTradeErrorNotices();
});

const shown = () =>
  notificationsStore.notification_list.map(({ type, description, isOnlyManualClose }) => ({
    type,
    description,
    isOnlyManualClose,
  }));

test('warns once per trade and error, and stays until closed; sound trades say nothing', () => {
  const sound = makeTrade();
  const unprotected = makeTrade({ trade_error: 'stop_missing' });
  announceTradeErrors([sound, unprotected]);
  announceTradeErrors([sound, unprotected]);
  expect(shown()).toEqual([
    {
      type: NotificationType.WARNING,
      description: ['trades.notify.needs_attention', 'BTCUSDT', 'trades.trade_error.stop_missing'],
      isOnlyManualClose: true,
    },
  ]);
  // Another error of the same trade is news.
  announceTradeErrors([{ ...unprotected, trade_error: 'position_missing' }]);
  expect(shown().map((item) => item.description[2])).toEqual([
    'trades.trade_error.stop_missing',
    'trades.trade_error.position_missing',
  ]);
});

test('an error the open itself announced is not repeated when the list is read', () => {
  const trade = makeTrade({ trade_error: 'stop_missing' });
  markTradeErrorAnnounced(trade.signal_uuid, 'stop_missing');
  announceTradeErrors([trade]);
  expect(shown()).toEqual([]);
});

test('an exit the exchange could not hold is announced once, with its reason (issue 35); exits it holds say nothing', () => {
  const held = makeTrade({
    trade_exits: {
      take_profit: { held_by: 'exchange', price: '97485.00' },
      trailing: { held_by: 'exchange', price: '97291.00' },
    },
  });
  const reason = "The trailing stop's callback rate 0.0 % is outside the exchange's 0.1–10 %";
  const partly = makeTrade({
    trade_exits: {
      take_profit: { held_by: 'exchange', price: '97485.00' },
      trailing: { held_by: 'signaldesk', reason },
    },
  });
  announceTradeErrors([held, partly]);
  announceTradeErrors([held, partly]);
  expect(shown()).toEqual([
    {
      type: NotificationType.WARNING,
      description: ['trades.notify.exit_on_signaldesk', 'BTCUSDT', 'trades.exits.trailing', reason],
      isOnlyManualClose: true,
    },
  ]);
});
