// Trading in server mode (issue 7) in a real browser against `npm start` and its embedded paper exchange: the
// trader switches to Server, stores the trade token on the server (unlocked by the PIN), and the server opens
// and closes the positions. From real stored signals of the running engine (re-sent through the proxied
// socket, see trading-helpers): open, live PNL equal to the exchange's, close by hand, close by take profit,
// /trade_history; and the faults of the exchange's admin API: the stop refused after the market order, and
// the exchange not answering.
import fs from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Trade } from '../../contracts';
import { screenshot, setupE2e } from './harness';
import { riskLimitCase } from './risk-limit-case';
import {
  Decimal,
  addTradeToken,
  closingFill,
  dismissNotifications,
  enterPin,
  expectNotification,
  fixed,
  historyOfToday,
  notification,
  openFromSignal,
  openTradeOf,
  openTrades,
  paperCard,
  priceAtRoe,
  realizedPnl,
  signalCard,
  tradeRow,
  openTraderSession,
  pinnedPrices,
  reportFailures,
  stopAndBackstop,
  type TraderSession,
} from './trading-helpers';
import { expectCockpitCells, expectNetRealized } from './cockpit-helpers';

const e2e = setupE2e();

interface Session extends TraderSession {
  closed: Trade[];
}
let s: Session;

reportFailures('trading-server', () => s);
const { pin, holdPrice, expectFlat, expectRowPnlAt } = pinnedPrices(() => s);

async function expectRecordedClose(trade: Trade, status: string) {
  let recorded: Trade | undefined;
  await expect
    .poll(
      async () => {
        recorded = (await historyOfToday(s.page)).find((item) => item.trade_uuid === trade.trade_uuid);
        return recorded?.trade_status;
      },
      { timeout: 20_000 },
    )
    .toBe(status);
  const fill = await closingFill(
    s.exchange,
    s.account,
    trade.symbol.symbol_pair,
    trade.signal_uuid,
    'close_order',
  );
  expect(new Decimal(recorded!.trade_close_price!).eq(fill.price)).toBe(true);
  const expected = realizedPnl(trade, fill.price);
  expect(new Decimal(recorded!.trade_pnl_current).eq(expected)).toBe(true);
  expect(fill.realizedPnl.eq(expected)).toBe(true);
  // Issue 18: net of the commissions the exchange charged for the opening and the closing fill.
  await expectNetRealized(s.exchange, s.account, recorded!, recorded!.trade_pnl_current);
  s.closed.push(recorded!);
}

/**
 * The trading chart (issue 18) once the trade's row is hovered: its symbol's candles, the entry and the
 * exchange's stop as lines at the trade's exact prices, a marker where it opened; in the light and the dark
 * theme and at 375 px, where the page does not scroll sideways.
 */
async function expectChartOfTrade(page: Page, trade: Trade) {
  await tradeRow(page, trade.trade_uuid).hover();
  const chart = page.getByTestId('trading-chart');
  await expect.poll(() => chart.getAttribute('data-symbol-pair')).toBe(trade.symbol.symbol_pair);
  const drawn = chart.getByTestId('candle-chart');
  const expectDrawn = async (name: string) => {
    await expect
      .poll(async () => Number(await drawn.getAttribute('data-candle-count')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await drawn.locator('canvas').count()).toBeGreaterThan(0);
    const line = (id: string) => chart.locator(`[data-testid="chart-line"][data-line="${id}"]`);
    expect(await line('entry').getAttribute('data-price')).toBe(trade.trade_open_price);
    expect(await line('stop').getAttribute('data-price')).toBe(trade.trade_stop_price);
    await expect.poll(() => line('take_profit').count()).toBe(1);
    // Issue 53: before it trails, the trailing stop is drawn where it starts (its label says so), not on the
    // stop line: beyond the entry, on the side of the gain.
    const activation = line('trailing_activation');
    await expect.poll(() => activation.count()).toBe(1);
    const gainSide = new Decimal((await activation.getAttribute('data-price'))!).minus(
      trade.trade_open_price,
    );
    expect(trade.trade_direction === 'BUY' ? gainSide.gt(0) : gainSide.lt(0)).toBe(true);
    expect(await line('trailing').count()).toBe(0);
    const opened = chart.locator('[data-testid="chart-marker"][data-marker="open"]');
    expect(await opened.count()).toBe(1);
    expect(Number(await opened.getAttribute('data-time'))).toBe(Date.parse(trade.trade_create_timestamp));
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, `trading-chart-${name}`);
  };
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const first = await theme();
  await expectDrawn(first ?? 'theme');
  await page.getByTestId('theme-toggle').click();
  await expect.poll(theme).not.toBe(first);
  await expectDrawn((await theme()) ?? 'other-theme');
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  // The sidebar is an overlay there: closed for the picture.
  if (await page.getByTestId('sidebar').isVisible()) await page.getByTestId('hamburger').click();
  await expectDrawn('375');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect((await drawn.boundingBox())!.width).toBeLessThanOrEqual(375);
  if (viewport) await page.setViewportSize(viewport);
  if (!(await page.getByTestId('sidebar').isVisible())) await page.getByTestId('hamburger').click();
  await page.getByTestId('theme-toggle').click();
  await expect.poll(theme).toBe(first);

  // 'Trade Trend Data' draws the same lines and marker over the trade's candles.
  await tradeRow(page, trade.trade_uuid).getByTestId('trade-detail').click();
  const dialog = page.getByRole('dialog', { name: 'Trade Trend Data' });
  const modalChart = dialog.getByTestId('candle-chart');
  await modalChart.locator('canvas').first().waitFor({ timeout: 15_000 });
  const modalLine = (id: string) => modalChart.locator(`[data-testid="chart-line"][data-line="${id}"]`);
  expect(await modalLine('entry').getAttribute('data-price')).toBe(trade.trade_open_price);
  expect(await modalLine('stop').getAttribute('data-price')).toBe(trade.trade_stop_price);
  expect(await modalChart.locator('[data-testid="chart-marker"][data-marker="open"]').count()).toBe(1);
  await screenshot(page, 'trading-chart-trade-modal');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

test('setup: sign up, Server side, PIN, a trade token kept by the server, auto close 2 s', async () => {
  const session = await openTraderSession(e2e.app, e2e.browser, {
    name: 'server-trader',
    signalCount: 7,
    autoCloseDelayS: 2,
  });
  s = { ...session, closed: [] };
  const { page, account } = session;
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await paperCard(page).waitFor({ timeout: 20_000 });
  await dismissNotifications(page);
  await page.getByRole('button', { name: 'Increase Trade side' }).click();
  await expectNotification(page, 'Update Trade Preferences Success', 15_000);
  await enterPin(page, '13579');
  await addTradeToken(page, account);
  // Nothing of the token is kept in this browser in server mode.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('v1$argon2id$');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
});

test('the server opens a trade from a signal; PNL equals positionRisk; the chart draws it; closed by hand, flat', async () => {
  const { page, exchange, account } = s;
  const signal = s.signals[0]!;
  const pair = signal.symbol.symbol_pair;
  const precision = signal.symbol.symbol_price_precision;
  await holdPrice(signal);
  const trade = await openFromSignal(page, s.socket, signal);
  expect(trade).toMatchObject({ trade_in_server_side: 1, trade_error: null });
  expect(await exchange.waitingIds(account, pair)).toEqual(stopAndBackstop(trade.signal_uuid));
  const risk = await exchange.positionRisk(account, pair);
  expect(new Decimal(risk.entryPrice).eq(trade.trade_open_price)).toBe(true);
  expect(new Decimal(risk.positionAmt).abs().eq(trade.trade_quantity)).toBe(true);

  const up = priceAtRoe({ ...trade, trade_direction: 'BUY' }, 2, precision);
  const row = await expectRowPnlAt(page, trade, up);
  // Issue 18: Liq. $ and Net $ equal trade-core's figures for the exchange's fill, its bracket and its fee.
  await expectCockpitCells(exchange, account, row, trade, up);
  expect(await row.getByTestId('trade-open-price').innerText()).toBe(fixed(risk.entryPrice, precision));
  const live = (await openTrades(page)).find((item) => item.trade_uuid === trade.trade_uuid)!;
  expect(
    new Decimal(live.trade_pnl_current).eq((await exchange.positionRisk(account, pair)).unRealizedProfit),
  ).toBe(true);

  await expectChartOfTrade(page, live);

  await dismissNotifications(page);
  await row.getByTestId('trade-close').click();
  await expectNotification(page, 'Trade closed');
  await row.waitFor({ state: 'detached', timeout: 15_000 });
  await expectFlat(pair);
  await expectRecordedClose(trade, 'manual_close');
});

test('take profit: the server closes it after the 2 s countdown', async () => {
  const { page } = s;
  const signal = s.signals[1]!;
  const pair = signal.symbol.symbol_pair;
  await holdPrice(signal);
  const trade = await openFromSignal(page, s.socket, signal);
  const row = tradeRow(page, trade.trade_uuid);
  await pin(
    pair,
    priceAtRoe(trade, trade.trade_take_profit_percent + 1, signal.symbol.symbol_price_precision),
  );
  await expect
    .poll(() => row.getByTestId('trade-ui-status').getAttribute('data-ui-status'), {
      timeout: 20_000,
      interval: 100,
    })
    .toBe('TAKE_PROFIT');
  await row.waitFor({ state: 'detached', timeout: 30_000 });
  await expectFlat(pair);
  await expectRecordedClose(trade, 'take_profit');
});

test('the exchange refuses the stop after the market order: told, closed again, nothing left open', async () => {
  const { page, exchange, account } = s;
  const signal = s.signals[2]!;
  const pair = signal.symbol.symbol_pair;
  await holdPrice(signal);
  // The stop goes to the Algo Order API (the exchange answers -4120 on /fapi/v1/order, like Binance), with its
  // market backstop in the same round trip: both are refused, whichever arrives first.
  await exchange.setFaults({ account: account.api_key, rejectCount: 2, paths: ['/fapi/v1/algoOrder'] });
  await dismissNotifications(page);
  s.socket.deliver(signal);
  const card = signalCard(page, signal.signal_uuid);
  await card.getByTestId('signal-trade').click();
  await expectNotification(page, /refused the stop loss/, 60_000);
  // The newest notification is the first.
  const text = await notification(page, /refused the stop loss/)
    .first()
    .innerText();
  expect(text).toContain('The trade was not opened');
  expect(text).toMatch(/position was closed again/);
  await exchange.clearFaults();
  await expectFlat(pair);
  expect((await openTrades(page)).some((item) => item.signal_uuid === signal.signal_uuid)).toBe(false);
  expect((await historyOfToday(page)).some((item) => item.signal_uuid === signal.signal_uuid)).toBe(false);
  await page.waitForTimeout(300);
  await screenshot(page, 'trading-server-stop-refused-dark-en');

  // The card stays (server mode cannot tell this refusal from others); trading it again is the known bug below.
  await card.waitFor();
}, 120_000);

test('the exchange is slow: the page stops waiting and says the trade may still open; it shows up with its stop', async () => {
  const { page, exchange, account } = s;
  const signal = s.signals[3]!;
  const pair = signal.symbol.symbol_pair;
  await holdPrice(signal);
  // 3 s more on the server's first calls (leverage, sent with the others) and on every order call (the MARKET
  // order comes after them): each call is within the server's 5 s, the open takes longer than the page's 5 s.
  await exchange.setFaults({
    account: account.api_key,
    latencyMs: 3000,
    paths: ['/fapi/v1/leverage', '/fapi/v1/order'],
  });
  await dismissNotifications(page);
  s.socket.deliver(signal);
  const card = signalCard(page, signal.signal_uuid);
  await card.getByTestId('signal-trade').click();
  await expectNotification(page, /did not answer in time/, 30_000);
  // The server finishes the open and tells the page, which reads the list: the trade shows, protected.
  const trade = await openTradeOf(page, signal.signal_uuid, 30_000);
  await exchange.clearFaults();
  const row = tradeRow(page, trade.trade_uuid);
  await row.waitFor({ timeout: 15_000 });
  expect(
    new Decimal((await exchange.positionRisk(account, pair)).positionAmt).abs().eq(trade.trade_quantity),
  ).toBe(true);
  expect(await exchange.waitingIds(account, pair)).toEqual(stopAndBackstop(trade.signal_uuid));
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300);
  await screenshot(page, 'trading-server-slow-exchange-dark-en');
  await dismissNotifications(page);
  await row.getByTestId('trade-close').click();
  await expectNotification(page, 'Trade closed');
  await row.waitFor({ state: 'detached', timeout: 15_000 });
  await expectFlat(pair);
  await expectRecordedClose(trade, 'manual_close');
}, 120_000);

test('the exchange does not answer: told, nothing left open or recorded; the card is traded later', async () => {
  const { page, exchange, account } = s;
  const signal = s.signals[4]!;
  const pair = signal.symbol.symbol_pair;
  await holdPrice(signal);
  // The server's first order call (the look-up of an earlier attempt) gets no answer: the server's 5 s
  // time-out ends the open (502 'Timeout'), or the page stops waiting first (its own 5 s): either is said.
  await exchange.setFaults({
    account: account.api_key,
    timeoutCount: 1,
    timeoutMs: 8000,
    paths: ['/fapi/v1/order'],
  });
  const told = /did not answer in time|The trade was not opened[\s\S]*Timeout/;
  await dismissNotifications(page);
  s.socket.deliver(signal);
  const card = signalCard(page, signal.signal_uuid);
  const clickedAt = Date.now();
  await card.getByTestId('signal-trade').click();
  await expectNotification(page, told, 30_000);
  // By now the server has given up: nothing on the exchange, nothing recorded.
  await page.waitForTimeout(Math.max(0, clickedAt + 10_000 - Date.now()));
  await exchange.clearFaults();
  await expectFlat(pair);
  expect((await openTrades(page)).some((item) => item.signal_uuid === signal.signal_uuid)).toBe(false);
  expect((await historyOfToday(page)).some((item) => item.signal_uuid === signal.signal_uuid)).toBe(false);
  // The exchange answers again: the same card opens the trade.
  const trade = await openFromSignal(page, { deliver: () => undefined }, signal);
  expect(
    new Decimal((await exchange.positionRisk(account, pair)).positionAmt).abs().eq(trade.trade_quantity),
  ).toBe(true);
  const row = tradeRow(page, trade.trade_uuid);
  await dismissNotifications(page);
  await row.getByTestId('trade-close').click();
  await expectNotification(page, 'Trade closed');
  await row.waitFor({ state: 'detached', timeout: 15_000 });
  await expectFlat(pair);
  await expectRecordedClose(trade, 'manual_close');
}, 120_000);

test('a risk limit stops an auto-open and refuses a manual one with its message (server mode)', async () => {
  await riskLimitCase(s, {
    serverSide: true,
    pinCode: '13579',
    autoCloseDelayS: 2,
    held: s.signals[5]!,
    limited: s.signals[6]!,
    holdPrice,
    closeByHand: async (trade, { flat }) => {
      const row = tradeRow(s.page, trade.trade_uuid);
      await row.waitFor({ timeout: 15_000 });
      await dismissNotifications(s.page);
      await row.getByTestId('trade-close').click();
      await expectNotification(s.page, 'Trade closed');
      await row.waitFor({ state: 'detached', timeout: 15_000 });
      if (flat) await expectFlat(trade.symbol.symbol_pair);
      await expectRecordedClose(trade, 'manual_close');
    },
  });
}, 180_000);

test('/trade_history lists the closed trades with their badges and the exact realized PNL', async () => {
  const { page } = s;
  await page.getByRole('link', { name: 'Trade History' }).click();
  await page.getByTestId('history-table').waitFor({ timeout: 20_000 });
  const history = await historyOfToday(page);
  const listed = history.map((trade) => trade.trade_uuid).sort();
  const closed = s.closed.map((trade) => trade.trade_uuid);
  // Every closed trade is listed; a trade the refused card opened again (if any) is listed too.
  for (const uuid of closed) expect(listed).toContain(uuid);
  const badges = await page
    .getByTestId('history-status')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-status')));
  expect(badges).toEqual(history.map((trade) => trade.trade_status));
  // Net of the commissions the exchange charged (issue 18), every row and the badge.
  const nets = await page.getByTestId('history-pnl-net').allInnerTexts();
  history.forEach((trade, index) => {
    expect(trade.trade_pnl_net).toEqual(expect.any(String));
    expect(nets[index]).toContain(fixed(trade.trade_pnl_net!, 2));
  });
  const sum = Decimal.sum(...history.map((trade) => trade.trade_pnl_net!));
  expect((await page.getByTestId('realized-pnl').innerText()).replace(/\s+/g, ' ')).toContain(
    `${fixed(sum, 2)} $`,
  );
  await dismissNotifications(page);
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300);
  await screenshot(page, 'trading-server-history-dark-en');

  // The export of yesterday and today as CSV, from the page's button: every trade, values exactly the API's.
  const yesterday = await page.evaluate(() => {
    const day = new Date();
    day.setDate(day.getDate() - 1);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  });
  await page.getByTestId('history-export-from').fill(yesterday);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('history-export').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^signaldesk-trades-${yesterday}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const records = parseCsv(fs.readFileSync(await download.path()), { columns: true }) as Record<
    string,
    string
  >[];
  expect(records.map((row) => row.trade_uuid).sort()).toEqual(listed);
  for (const trade of history) {
    const row = records.find((record) => record.trade_uuid === trade.trade_uuid)!;
    expect(row).toMatchObject({
      symbol_pair: trade.symbol.symbol_pair,
      trade_direction: trade.trade_direction,
      trade_mode: 'server',
      trade_open_price: trade.trade_open_price,
      trade_close_price: trade.trade_close_price ?? '',
      trade_margin: trade.trade_margin,
      trade_quantity: trade.trade_quantity,
      trade_pnl_current: trade.trade_pnl_current,
      trade_roe_current: trade.trade_roe_current,
      trade_create_timestamp: trade.trade_create_timestamp,
      trade_close_timestamp: trade.trade_close_timestamp ?? '',
      trade_status: trade.trade_status,
      trade_order_id: trade.trade_order_id ?? '',
      trade_stop_order_id: trade.trade_stop_order_id ?? '',
      trade_open_commission: trade.trade_open_commission ?? '',
      trade_close_commission: trade.trade_close_commission ?? '',
      trade_pnl_net: trade.trade_pnl_net ?? '',
    });
  }
  const gross = Decimal.sum(...history.map((trade) => trade.trade_pnl_current!));
  expect(Decimal.sum(...records.map((row) => row.trade_pnl_current!)).eq(gross)).toBe(true);
  expect(Decimal.sum(...records.map((row) => row.trade_pnl_net!)).eq(sum)).toBe(true);
  expect(s.errors).toEqual([]);
});

// Found by this suite: after the stop was refused and the position closed again, trading the same signal again
// made openPosition continue from the FILLED opening order (`sdo…`) while the exchange was flat. openPosition now
// refuses when the signal's closing order (`sdc…`) has filled: a signal is traded once.
test('trading a refused card again records no position that does not exist', async () => {
  const { page, exchange, account } = s;
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  const signal = s.signals[2]!;
  const pair = signal.symbol.symbol_pair;
  s.socket.deliver(signal);
  const card = signalCard(page, signal.signal_uuid);
  await dismissNotifications(page);
  await card.getByTestId('signal-trade').click();
  await expect
    .poll(
      async () =>
        (await notification(page, 'Trade opened').count()) > 0 ||
        (await notification(page, 'The trade was not opened').count()) > 0,
      { timeout: 60_000 },
    )
    .toBe(true);
  const again = (await openTrades(page)).find((item) => item.signal_uuid === signal.signal_uuid);
  const amount = new Decimal((await exchange.positionRisk(account, pair)).positionAmt);
  console.info(
    `trading-server: refused card traded again → recorded: ${!!again}; exchange position ${amount}`,
  );
  try {
    if (again) expect(amount.abs().eq(again.trade_quantity)).toBe(true);
    else expect(amount.isZero()).toBe(true);
  } finally {
    // Leave nothing behind: the recorded trade is closed by hand (its stop is cancelled).
    if (again) {
      const row = tradeRow(page, again.trade_uuid);
      await row.getByTestId('trade-close').click();
      await row.waitFor({ state: 'detached', timeout: 15_000 });
    }
    await page.close();
  }
}, 120_000);
