// kill -9 of the Signaldesk process with server-mode trades open, and in the middle of an open (issue 9,
// "Faults"; docs/server.md "Faults"). `tsx server/src/server.ts` (what `npm start` runs) on a DATA_DIR kept on
// disk (PGlite and the embedded paper exchange's journal), a trader in Chromium whose page stays open across the
// kills (its PIN lives only in that page's memory, as in real use), real stored signals re-sent through the
// proxied socket (trading-helpers). While the process is dead, the paper exchange is started alone on the
// process's data folder and closes positions the way an exchange does when nobody is looking: a stop fires, the
// trader closes one on the exchange's own site. Then the process starts again on the same DATA_DIR and ports.
// Waits are for conditions, with generous limits (reconciliation runs on the page's 30 s balance read); nothing
// is asserted about how long anything took.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Trade } from '../../contracts';
import { startPaperExchange } from '../../paper-exchange/src/index';
import { launchBrowser, screenshot, startApp, type RunningApp } from '../e2e/harness';
import { findMasterKey, paperExchangeSealKey, SecretBox } from '../../server/src/services/secret-box';
import {
  Decimal,
  addTradeToken,
  closingFill,
  dismissNotifications,
  enterPin,
  expectNotification,
  historyOfToday,
  notification,
  openFromSignal,
  openTraderSession,
  openTrades,
  priceAtRoe,
  realizedPnl,
  pinnedPrices,
  reportFailures,
  signalCard,
  stopAndBackstop,
  tradeRow,
  type TraderSession,
} from '../e2e/trading-helpers';

/** Reconciliation needs a balance read of the page (every 30 s) and, for a dead open, 60 s of age. */
const RECONCILED_MS = 240_000;

let app: RunningApp;
let browser: Browser;
let s: TraderSession;
let dataDir: string | undefined;

reportFailures('faults-kill', () => s);

beforeAll(async () => {
  app = await startApp({}, { keepDataDir: true });
  dataDir = app.dataDir;
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

// Registered after the afterAll above, so its prices are released before the app stops.
const { holdPrice, expectRowPnlAt } = pinnedPrices(() => s);

const amountOf = async (pair: string) =>
  new Decimal((await s.exchange.positionRisk(s.account, pair)).positionAmt);

/**
 * kill -9 of the server process (the paper exchange inside it dies with it). The page notices: 'Websocket
 * closed' (SPEC.md §8).
 */
async function killServer() {
  await dismissNotifications(s.page);
  await app.kill();
  await expectNotification(s.page, 'Websocket closed', 60_000);
}

/** The paper exchange alone on the dead process's data folder and port, for `work`, then stopped again. */
async function whileServerIsDown(work: () => Promise<void>) {
  const exchange = await startPaperExchange({
    port: app.paperPort,
    host: '127.0.0.1',
    dataDir: path.join(app.dataDir, 'paper-exchange'),
    // Its accounts' secrets are sealed under a key derived from the server's master key (DATA_DIR/master.key).
    sealKey: paperExchangeSealKey(new SecretBox(findMasterKey({ env: {}, dataDir: app.dataDir }).key)),
  });
  try {
    await work();
  } finally {
    await exchange.close();
  }
}

/** The process again on the same DATA_DIR and ports; the page reconnects by itself ('Websocket connected'). */
async function restartServer() {
  await dismissNotifications(s.page);
  app = await startApp({}, { restartOf: app, keepDataDir: true });
  await expectNotification(s.page, 'Websocket connected', 120_000);
}

async function recorded(tradeUuid: string, status: string): Promise<Trade> {
  let found: Trade | undefined;
  await expect
    .poll(
      async () => {
        found = (await historyOfToday(s.page)).find((item) => item.trade_uuid === tradeUuid);
        return found?.trade_status;
      },
      { timeout: RECONCILED_MS, interval: 2000 },
    )
    .toBe(status);
  return found!;
}

test('setup: a trader in Server mode with a PIN and a trade token kept by the server', async () => {
  s = await openTraderSession(app, browser, {
    name: 'kill-trader',
    signalCount: 4,
    autoCloseDelayS: 0,
    serverSide: true,
    signalOptions: { distinctPairs: true },
  });
  const { page, account } = s;
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(page, '97531');
  await addTradeToken(page, account);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
}, 240_000);

test('kill -9 with three trades open; meanwhile a stop fires and one is closed on the exchange; restart: nothing lost, reconciled, PNL live again', async () => {
  const { page, exchange, account } = s;
  const [a, b, c] = [s.signals[0]!, s.signals[1]!, s.signals[2]!];
  for (const signal of [a, b, c]) await holdPrice(signal);
  const tradeA = await openFromSignal(page, s.socket, a);
  const tradeB = await openFromSignal(page, s.socket, b);
  const tradeC = await openFromSignal(page, s.socket, c);
  for (const trade of [tradeA, tradeB, tradeC]) {
    expect(trade).toMatchObject({ trade_in_server_side: 1, trade_error: null });
  }

  await killServer();
  await whileServerIsDown(async () => {
    // B: the price goes through its stop, which fires on the exchange.
    const pairB = b.symbol.symbol_pair;
    await exchange.setPrice(
      pairB,
      priceAtRoe(tradeB, -(tradeB.trade_stop_loss_percent + 4), b.symbol.symbol_price_precision),
    );
    expect((await amountOf(pairB)).isZero()).toBe(true);
    // C: the trader closes it on the exchange's own site; its stop stays behind there.
    const pairC = c.symbol.symbol_pair;
    await exchange.signed(account, 'POST', '/fapi/v1/order', {
      symbol: pairC,
      side: tradeC.trade_direction === 'BUY' ? 'SELL' : 'BUY',
      type: 'MARKET',
      quantity: tradeC.trade_quantity,
      reduceOnly: 'true',
    });
    expect((await amountOf(pairC)).isZero()).toBe(true);
    // Its stop and the stop's market backstop (issue 54).
    expect(await exchange.waitingIds(account, pairC)).toEqual(stopAndBackstop(tradeC.signal_uuid));
  });
  await restartServer();

  // Every trade is still there.
  const history = await historyOfToday(page);
  for (const trade of [tradeA, tradeB, tradeC]) {
    expect(history.map((item) => item.trade_uuid)).toContain(trade.trade_uuid);
  }
  expect((await openTrades(page)).map((trade) => trade.trade_uuid)).toContain(tradeA.trade_uuid);

  // The page's next balance read reconciles: B closed by its stop at the stop's fill, C closed by hand.
  const closedB = await recorded(tradeB.trade_uuid, 'stop_loss');
  const fillB = await closingFill(exchange, account, b.symbol.symbol_pair, b.signal_uuid, 'stop');
  expect(new Decimal(closedB.trade_close_price!).eq(fillB.price)).toBe(true);
  expect(new Decimal(closedB.trade_pnl_current).eq(realizedPnl(tradeB, fillB.price))).toBe(true);
  const closedC = await recorded(tradeC.trade_uuid, 'manual_close');
  // The price of a close made outside Signaldesk is not known to it: the mark price when it found out.
  expect(new Decimal(closedC.trade_close_price!).eq(await exchange.mark(c.symbol.symbol_pair))).toBe(true);
  // C's stop, left waiting, was cancelled: it would act on the next position of that symbol.
  expect(await exchange.openOrderCount(account, c.symbol.symbol_pair)).toBe(0);
  await tradeRow(page, tradeB.trade_uuid).waitFor({ state: 'detached', timeout: 30_000 });
  await tradeRow(page, tradeC.trade_uuid).waitFor({ state: 'detached', timeout: 30_000 });

  // A: the monitor follows it again; its row's PNL is the exchange's at a new price.
  const pairA = a.symbol.symbol_pair;
  const up = priceAtRoe({ ...tradeA, trade_direction: 'BUY' }, 2, a.symbol.symbol_price_precision);
  const rowA = await expectRowPnlAt(page, tradeA, up, 60_000);
  expect(await exchange.waitingIds(account, pairA)).toEqual(stopAndBackstop(tradeA.signal_uuid));
  await page.mouse.move(5, 5);
  await screenshot(page, 'faults-kill-after-restart-dark-en');

  await dismissNotifications(page);
  await rowA.getByTestId('trade-close').click();
  await expectNotification(page, 'Trade closed');
  await rowA.waitFor({ state: 'detached', timeout: 15_000 });
  expect((await amountOf(pairA)).isZero()).toBe(true);
  expect(await exchange.openOrderCount(account, pairA)).toBe(0);
  expect(s.errors).toEqual([]);
}, 600_000);

test('kill -9 between the market order and its stop: the trader is told, the position shows without a stop, Repair protects it', async () => {
  const { page, exchange, account } = s;
  const d = s.signals[3]!;
  const pair = d.symbol.symbol_pair;
  await holdPrice(d);
  // The stop request waits in the exchange (it goes to the Algo Order API); the process dies meanwhile.
  await exchange.setFaults({ account: account.api_key, latencyMs: 4500, paths: ['/fapi/v1/algoOrder'] });
  await dismissNotifications(page);
  s.socket.deliver(d);
  await signalCard(page, d.signal_uuid).getByTestId('signal-trade').click();
  await expect
    // Four reads a second (weight 5 each) catch the 4.5 s window without spending the exchange's budget.
    .poll(async () => !(await amountOf(pair)).isZero(), { timeout: 60_000, interval: 250 })
    .toBe(true);
  await app.kill();
  // The page's request died with the process: it says the outcome is not known, not that nothing opened.
  await expectNotification(page, /connection to the server was lost while it was opening the trade/, 30_000);
  expect(await notification(page, 'The trade was not opened').count()).toBe(0);
  await signalCard(page, d.signal_uuid).waitFor();

  let quantity = new Decimal(0);
  await whileServerIsDown(async () => {
    // The position is open and unprotected, and nothing in Signaldesk lists it.
    quantity = (await amountOf(pair)).abs();
    expect(quantity.isZero()).toBe(false);
    expect(await exchange.openOrderCount(account, pair)).toBe(0);
  });
  await restartServer();
  // The exchange refuses stops for now, so completing the open cannot protect it.
  await exchange.setFaults({ account: account.api_key, rejectCount: 1000, paths: ['/fapi/v1/algoOrder'] });
  expect((await openTrades(page)).some((trade) => trade.signal_uuid === d.signal_uuid)).toBe(false);

  // Reconciliation (the page's balance read, once the dead open is 60 s old) finds the position: the trade
  // shows, marked, with a warning that stays until the trader closes it.
  let trade: Trade | undefined;
  await expect
    .poll(
      async () => {
        trade = (await openTrades(page)).find((item) => item.signal_uuid === d.signal_uuid);
        return trade?.trade_error;
      },
      { timeout: RECONCILED_MS, interval: 2000 },
    )
    .toBe('stop_missing');
  expect(new Decimal(trade!.trade_quantity).eq(quantity)).toBe(true);
  const row = tradeRow(page, trade!.trade_uuid);
  await row.getByTestId('trade-error').waitFor({ timeout: 30_000 });
  const warning = notification(page, /An open trade needs your attention/).filter({ hasText: pair });
  await expect.poll(() => warning.count(), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(await warning.first().innerText()).toContain('This position has no stop loss on the exchange');
  await signalCard(page, d.signal_uuid).waitFor({ state: 'detached', timeout: 15_000 });
  await page.waitForTimeout(11_000);
  expect(await warning.first().isVisible()).toBe(true);
  await page.mouse.move(5, 5);
  await screenshot(page, 'faults-kill-mid-open-stop-missing-dark-en');
  expect(await exchange.openOrderCount(account, pair)).toBe(0);

  // The exchange takes stops again; the trader closes the warning and presses Repair as it says: the stop is
  // placed, the mark goes.
  await exchange.clearFaults();
  await dismissNotifications(page);
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await page.getByTestId('repair-button').click();
  await page.getByTestId('repair-confirm').click();
  await expect
    .poll(() => page.getByTestId('repair-result').innerText(), { timeout: 60_000 })
    .toBe('Was successfully repair trades: 1');
  expect(await exchange.waitingIds(account, pair)).toEqual(stopAndBackstop(d.signal_uuid));
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await row.waitFor({ timeout: 15_000 });
  await expect.poll(() => row.getByTestId('trade-error').count(), { timeout: 15_000 }).toBe(0);
  const repaired = (await openTrades(page)).find((item) => item.trade_uuid === trade!.trade_uuid)!;
  expect(repaired).toMatchObject({
    trade_error: null,
    trade_stop_order_id: `sds${d.signal_uuid.replace(/-/g, '')}`,
  });

  await dismissNotifications(page);
  await row.getByTestId('trade-close').click();
  await expectNotification(page, 'Trade closed');
  await row.waitFor({ state: 'detached', timeout: 15_000 });
  expect((await amountOf(pair)).isZero()).toBe(true);
  expect(await exchange.openOrderCount(account, pair)).toBe(0);
  expect(s.errors).toEqual([]);
  await page.close();
}, 600_000);
