// Issue 53, "while you were away": how one close the server recorded on its own is told (the claim that answers
// each once is server/src/routes/trade/trade.test.ts; the walk-away in a browser, tests/e2e/exits-on-exchange).
import { beforeAll, beforeEach, expect, test } from 'vitest';
import i18n from 'i18next';
import {
  NotificationType,
  notificationsStore,
  resetNotificationsStore,
} from '../../stores/notifications-store';
import { initTestI18n } from '../../testing/i18n-test';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { makeTrade } from '../../testing/trade-fixtures';
import { CloseTelling, tellClose } from './away-closes';

beforeAll(async () => {
  await loadTradeCoreForTests();
  await initTestI18n();
});
beforeEach(() => resetNotificationsStore());

const told = () =>
  notificationsStore.notification_list.map(({ type, description }) => ({ type, description }));

test('a take profit told on the next visit: symbol, status and the net PNL (a gain is a success)', () => {
  tellClose(
    makeTrade({ trade_status: 'take_profit', trade_pnl_current: '1.2', trade_pnl_net: '1.0929' }),
    CloseTelling.AWAY,
  );
  expect(told()).toEqual([
    {
      type: NotificationType.SUCCESS,
      description: ['trades.notify.closed_away', 'BTCUSDT', 'trade_status.take_profit', 'Net PNL 1.09 $'],
    },
  ]);
});

test('a loss is a warning, with why the exchange closed it; without commissions it says the PNL is gross', async () => {
  tellClose(
    makeTrade({
      trade_status: 'manual_close',
      trade_close_cause: 'liquidation',
      trade_pnl_current: '-9.5',
      trade_pnl_net: null,
    }),
    CloseTelling.LIVE,
  );
  expect(told()).toEqual([
    {
      type: NotificationType.WARNING,
      description: [
        'notification.trade_closed',
        'BTCUSDT',
        'trade_status.manual_close',
        'trade_close_cause.liquidation',
        'PNL -9.50 $ (commissions not known)',
      ],
    },
  ]);
  await i18n.changeLanguage('ua');
  expect(i18n.t('trades.notify.closed_away')).toBe('Поки вас не було: угоду закрито');
  expect(i18n.t('trades.notify.closed_net', { pnl: '-1.25' })).toBe('Чистий PNL -1.25 $');
  await i18n.changeLanguage('en');
});
