// Issue 35 in a real browser, client mode: the page places the take profit and the trailing stop through our
// relay (signed in the page, as the stop) right after the fill, and the exchange holds them. The row says who
// closes the trade (Exchange / Signaldesk); the take profit is closed by the exchange, not by the page's
// countdown, and the page records it with the exchange's fill as soon as the monitor flags it; the preference
// "Exits held by the exchange", switched off and on in Trade Preferences, decides the next open. With the page
// away, the exchange alone closes at the take profit, the trailing stop and the stop, and the server, following
// the account on its user data stream (issue 37), records each close with the exchange's fill and status; back
// with the PIN, the page cancels the orders those closes left waiting.
import { expect, test } from 'vitest';
import type { Signal, Trade } from '../../contracts';
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
  fixed,
  historyOfToday,
  openFromSignal,
  openTrades,
  openTraderSession,
  pinnedPrices,
  priceAtRoe,
  realizedPnl,
  reportFailures,
  stopAndBackstop,
  tradeRow,
  type TraderSession,
} from './trading-helpers';

const e2e = setupE2e();
let s: TraderSession;
reportFailures('exits-on-exchange', () => s);
const { pin, holdPrice, expectFlat } = pinnedPrices(() => s);

/** The client ids of the orders waiting on the symbol (stops and exits). */
const waitingAlgos = (pair: string): Promise<string[]> => s.exchange.waitingIds(s.account, pair);

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
    signalCount: 6,
    autoCloseDelayS: 2,
    exitsOnExchange: true,
    followWhenAway: true,
    // Each trade on a symbol of its own: positions that must not merge in one-way mode.
    signalOptions: { distinctPairs: true },
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
  expect(await waitingAlgos(pair)).toEqual([ids.stop, ids.backstop, ids.takeProfit, ids.trailing].sort());
  // Signed in the page and forwarded by the relay: the stop, its market backstop and both exits.
  expect(relayed.sort()).toEqual([
    'POST STOP',
    'POST STOP_MARKET',
    'POST TAKE_PROFIT_MARKET',
    'POST TRAILING_STOP_MARKET',
  ]);
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
  expect(await waitingAlgos(off.symbol.symbol_pair)).toEqual(stopAndBackstop(off.signal_uuid));
  expect(await badgeOf(withoutExits).getAttribute('data-state')).toBe('signaldesk');
  expect(await badgeOf(withoutExits).innerText()).toBe('Signaldesk');
  await closeByHand(withoutExits);

  await setExitsOnExchange(true);
  const on = s.signals[2]!;
  await holdPrice(on);
  const withExits = await openFromSignal(page, s.socket, on);
  expect(await badgeOf(withExits).getAttribute('data-state')).toBe('exchange');
  expect(await waitingAlgos(on.symbol.symbol_pair)).toHaveLength(4);
  // A close by hand cancels the stop and both exits: nothing is left to act on a later position.
  await closeByHand(withExits);
}, 120_000);

test('with no page open the exchange closes at the take profit, the trailing stop and the stop; the server, following the account, records each at once; back with the PIN, the page cancels what they left waiting', async () => {
  const { page } = s;
  const [tp, trailing, stop] = [s.signals[3]!, s.signals[4]!, s.signals[5]!];
  const trades = new Map<Signal, Trade>();
  for (const signal of [tp, trailing, stop]) {
    await holdPrice(signal);
    trades.set(signal, await openFromSignal(page, s.socket, signal));
  }
  const at = (signal: Signal, roe: number) =>
    priceAtRoe(trades.get(signal)!, roe, signal.symbol.symbol_price_precision);
  // "Follow my account while I'm away" is on by default: the page handed over the API key (never the secret).
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  const follow = page.getByTestId('preference-trade_follow_when_away');
  expect(await follow.innerText()).toContain('ON');
  await screenshot(page, 'follow-when-away-en-dark');
  await setLook(page, 'ua', 'light');
  expect(await follow.innerText()).toContain('Стежити за моїм рахунком');
  await screenshot(page, 'follow-when-away-ua-light');
  await setLook(page, 'en', 'dark');
  const authorization = await page.evaluate(() => localStorage.getItem('access_token') ?? '');

  // The trader walks away: no page runs, no key is at hand.
  await page.goto('about:blank');
  const tpTrade = trades.get(tp)!;
  await pin(tp.symbol.symbol_pair, at(tp, tpTrade.trade_take_profit_percent + 1));
  // One ROE point past the trailing stop's activation (the defaults' 8 %: ROE 9 %), short of the take profit
  // (30 %); then ROE 0.5 %, a fall of 0.85 % of the price from its best, past the 0.8 % callback (8 % at 10×).
  const trailingTrade = trades.get(trailing)!;
  await pin(trailing.symbol.symbol_pair, at(trailing, trailingTrade.trade_treiling_stop_percent + 1));
  await pin(trailing.symbol.symbol_pair, at(trailing, 0.5));
  // ROE −15 %: through the stop (−10 %), within its limit.
  await pin(stop.symbol.symbol_pair, at(stop, -(trades.get(stop)!.trade_stop_loss_percent + 5)));

  // Recorded with no page open: the server's stream of the account saw each fill.
  const history = async (): Promise<Trade[]> => {
    const now = new Date();
    const range = new URLSearchParams({
      start_date: new Date(now.getTime() - 86_400_000).toISOString(),
      end_date: new Date(now.getTime() + 86_400_000).toISOString(),
    });
    const answer = await fetch(`${e2e.app.baseUrl}/api/trade/get_trades_history/?${range.toString()}`, {
      headers: { authorization },
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { result: { trade_list: Trade[] } }).result.trade_list;
  };
  const cases = [
    [tp, 'take_profit', 'takeProfit'],
    [trailing, 'treiling_stop', 'trailing'],
    [stop, 'stop_loss', 'stop'],
  ] as const;
  const recordedCloses: Trade[] = [];
  for (const [signal, status, by] of cases) {
    const trade = trades.get(signal)!;
    let recorded: Trade | undefined;
    await expect
      .poll(
        async () => {
          recorded = (await history()).find((item) => item.trade_uuid === trade.trade_uuid);
          return recorded?.trade_status;
        },
        { timeout: 20_000 },
      )
      .toBe(status);
    const fill = await closingFill(s.exchange, s.account, signal.symbol.symbol_pair, signal.signal_uuid, by);
    expect(new Decimal(recorded!.trade_close_price!).eq(fill.price), status).toBe(true);
    expect(new Decimal(recorded!.trade_pnl_current).eq(realizedPnl(trade, fill.price)), status).toBe(true);
    recordedCloses.push(recorded!);
  }
  // What each close left on the exchange still waits there: only the key can cancel it.
  expect(await waitingAlgos(tp.symbol.symbol_pair)).toHaveLength(3);

  // Back: none of the three is listed open; the PIN's balance read cancels what they left waiting.
  await page.goto(e2e.app.baseUrl);
  await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
  // Issue 53: each close made while away is told on the visit, once, with its status and net PNL, and stays
  // in the bell's history.
  await page.getByTestId('notification-toggle').click();
  const bellHistory = page.getByTestId('notification-history');
  const statusNames = { take_profit: 'Take profit', treiling_stop: 'Trailing stop', stop_loss: 'Stop loss' };
  for (const closed of recordedCloses) {
    const net = `Net PNL ${fixed(closed.trade_pnl_net!, 2)} $`;
    const item = bellHistory
      .locator('.notification-history-item')
      .filter({ hasText: 'While you were away: trade closed' })
      .filter({ hasText: closed.symbol.symbol_pair })
      .filter({ hasText: statusNames[closed.trade_status as keyof typeof statusNames] })
      .filter({ hasText: net });
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(1);
  }
  expect(
    await bellHistory
      .locator('.notification-history-item')
      .filter({ hasText: 'While you were away' })
      .count(),
  ).toBe(recordedCloses.length);
  await screenshot(page, 'away-closes-en-dark');
  await page.getByTestId('notification-toggle').click();
  const stillOpen = (await openTrades(page)).map((item) => item.trade_uuid);
  for (const trade of trades.values()) expect(stillOpen).not.toContain(trade.trade_uuid);
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(page, '24680');
  for (const signal of [tp, trailing, stop]) await expectFlat(signal.symbol.symbol_pair);
}, 150_000);
