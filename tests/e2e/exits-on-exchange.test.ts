// Issue 35 in a real browser, client mode: the page places the take profit and the trailing stop through our
// relay (signed in the page, as the stop) right after the fill, and the exchange holds them. The row says who
// closes the trade (Exchange / Signaldesk); the take profit is closed by the exchange, not by the page's
// countdown, and the page records it with the exchange's fill as soon as the monitor flags it; the preference
// "Exits held by the exchange", switched off and on in Trade Preferences, decides the next open.
import { expect, test } from 'vitest';
import type { Trade } from '../../contracts';
import { screenshot, setupE2e } from './harness';
import { setLook } from './walk-support';
import {
  Decimal,
  addTradeToken,
  closingFill,
  clientOrderIds,
  dismissNotifications,
  enterPin,
  expectNotification,
  historyOfToday,
  openFromSignal,
  openTraderSession,
  pinnedPrices,
  priceAtRoe,
  realizedPnl,
  reportFailures,
  tradeRow,
  type TraderSession,
} from './trading-helpers';

const e2e = setupE2e();
let s: TraderSession;
reportFailures('exits-on-exchange', () => s);
const { pin, holdPrice, expectFlat } = pinnedPrices(() => s);

/** The client ids of the algo orders waiting on the symbol (stops and exits). */
async function waitingAlgos(pair: string): Promise<string[]> {
  const orders = await s.exchange.openOrders(s.account, pair);
  return orders.map((order) => String(order.clientAlgoId ?? order.clientOrderId)).sort();
}

const badgeOf = (trade: Trade) => tradeRow(s.page, trade.trade_uuid).getByTestId('trade-exits');

async function closeByHand(trade: Trade): Promise<void> {
  const row = tradeRow(s.page, trade.trade_uuid);
  await dismissNotifications(s.page);
  await row.getByTestId('trade-close').click();
  await expectNotification(s.page, 'Trade closed');
  await row.waitFor({ state: 'detached', timeout: 15_000 });
  await expectFlat(trade.symbol.symbol_pair);
}

/** Saves "Exits held by the exchange" with its stepper in Trade Preferences, and goes back to Trading. */
async function setExitsOnExchange(on: boolean): Promise<void> {
  const { page } = s;
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await dismissNotifications(page);
  const field = page.getByTestId('preference-trade_exits_on_exchange');
  await field
    .getByRole('button', { name: `${on ? 'Increase' : 'Decrease'} Exits held by the exchange` })
    .click();
  await expect.poll(() => field.innerText()).toContain(on ? 'ON' : 'OFF');
  await expectNotification(page, 'Update Trade Preferences Success', 15_000);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
}

test('setup: a client-mode trader with the exits on the exchange and automatic closing after 2 s', async () => {
  s = await openTraderSession(e2e.app, e2e.browser, {
    name: 'walkaway-trader',
    signalCount: 4,
    autoCloseDelayS: 2,
    exitsOnExchange: true,
  });
  await s.page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(s.page, '24680');
  await addTradeToken(s.page, s.account);
  await s.page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await s.page.getByTestId('signals-panel').waitFor();
});

test('the page places both exits through the relay after the fill; the exchange closes at the take profit and the page records its fill', async () => {
  const { page } = s;
  const signal = s.signals[0]!;
  const pair = signal.symbol.symbol_pair;
  const relayed: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.includes('/api/exchange_relay/') && url.pathname.endsWith('/fapi/v1/algoOrder')) {
      relayed.push(`${request.method()} ${url.searchParams.get('type') ?? ''}`);
    }
  });
  await holdPrice(signal);
  const trade = await openFromSignal(page, s.socket, signal);
  const ids = clientOrderIds(signal.signal_uuid);
  expect(await waitingAlgos(pair)).toEqual([ids.stop, ids.takeProfit, ids.trailing].sort());
  // Signed in the page and forwarded by the relay: the stop and both exits.
  expect(relayed.sort()).toEqual(['POST STOP', 'POST TAKE_PROFIT_MARKET', 'POST TRAILING_STOP_MARKET']);
  expect(trade.trade_exits?.take_profit.held_by).toBe('exchange');
  expect(trade.trade_exits?.trailing.held_by).toBe('exchange');
  const badge = badgeOf(trade);
  expect(await badge.getAttribute('data-state')).toBe('exchange');
  expect(await badge.innerText()).toBe('Exchange');
  await screenshot(page, 'exits-on-exchange-row-en-dark');
  await setLook(page, 'ua', 'light');
  expect(await badge.innerText()).toBe('Біржа');
  await screenshot(page, 'exits-on-exchange-row-ua-light');
  await setLook(page, 'en', 'dark');

  // Past the take profit: the exchange closes the position at once; the monitor flags TP, and the page, instead
  // of its 2 s countdown's own close, reads the balance and records the exchange's close.
  await pin(
    pair,
    priceAtRoe(trade, trade.trade_take_profit_percent + 1, signal.symbol.symbol_price_precision),
  );
  await tradeRow(page, trade.trade_uuid).waitFor({ state: 'detached', timeout: 30_000 });
  await expectFlat(pair);
  const fill = await closingFill(s.exchange, s.account, pair, signal.signal_uuid, 'takeProfit');
  expect(fill.qty.eq(trade.trade_quantity)).toBe(true);
  // No closing market order of ours was ever sent.
  await expect(s.exchange.order(s.account, pair, ids.close)).rejects.toThrow(/-2013/);
  let recorded: Trade | undefined;
  await expect
    .poll(
      async () => {
        recorded = (await historyOfToday(page)).find((item) => item.trade_uuid === trade.trade_uuid);
        return recorded?.trade_status;
      },
      { timeout: 20_000 },
    )
    .toBe('take_profit');
  expect(new Decimal(recorded!.trade_close_price!).eq(fill.price)).toBe(true);
  expect(new Decimal(recorded!.trade_pnl_current).eq(realizedPnl(trade, fill.price))).toBe(true);
}, 120_000);

test('switched off, the next open leaves both exits to Signaldesk; switched on again, the exchange holds them', async () => {
  const { page } = s;
  await setExitsOnExchange(false);
  const off = s.signals[1]!;
  await holdPrice(off);
  const withoutExits = await openFromSignal(page, s.socket, off);
  expect(withoutExits.trade_exits).toBeNull();
  expect(await waitingAlgos(off.symbol.symbol_pair)).toEqual([clientOrderIds(off.signal_uuid).stop]);
  expect(await badgeOf(withoutExits).getAttribute('data-state')).toBe('signaldesk');
  expect(await badgeOf(withoutExits).innerText()).toBe('Signaldesk');
  await closeByHand(withoutExits);

  await setExitsOnExchange(true);
  const on = s.signals[2]!;
  await holdPrice(on);
  const withExits = await openFromSignal(page, s.socket, on);
  expect(await badgeOf(withExits).getAttribute('data-state')).toBe('exchange');
  expect(await waitingAlgos(on.symbol.symbol_pair)).toHaveLength(3);
  // A close by hand cancels the stop and both exits: nothing is left to act on a later position.
  await closeByHand(withExits);
}, 120_000);
