// Issue 36 in a real browser: money first. One trade per symbol and exchange account when a BUY and a SELL
// signal on one symbol auto-open in the same second (each mode); a paper account's secret shown once; the fee
// flag beside a take profit the round trip's fees eat; a Close after a reload asking for the PIN and closing;
// logout with an open client-mode trade saying what follows and closing it first.
import { expect, test } from 'vitest';
import type { Signal } from '../../contracts';
import { screenshot, setupE2e } from './harness';
import { setLook } from './walk-support';
import {
  Decimal,
  addTradeToken,
  apiPost,
  dismissNotifications,
  enterPin,
  expectNotification,
  openFromSignal,
  openTraderSession,
  openTrades,
  pinnedPrices,
  reportFailures,
  tradeRow,
  type PaperAccount,
  type TraderSession,
} from './trading-helpers';

const e2e = setupE2e();
const PIN = '24680';
let s: TraderSession;
reportFailures('money-first', () => s);
const { holdPrice } = pinnedPrices(() => s);

async function toTrading(session: TraderSession): Promise<void> {
  await session.page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await session.page.getByTestId('signals-panel').waitFor();
}

for (const serverSide of [false, true]) {
  const mode = serverSide ? 'server' : 'client';
  test(`${mode} mode: two signals on one symbol (a BUY and a SELL where the engine has them) auto-opening in the same second open one trade, as on the exchange`, async () => {
    s = await openTraderSession(e2e.app, e2e.browser, {
      name: `one-per-symbol-${mode}`,
      // Two real stored signals of one symbol (storedSignals takes them on one symbol when it can): the rule is
      // one trade per symbol whatever the directions, and a trending market may have only one direction.
      signalCount: 2,
      autoCloseDelayS: 0,
      serverSide,
    });
    await s.page.getByRole('link', { name: 'Trade Preferences' }).click();
    await enterPin(s.page, PIN);
    await addTradeToken(s.page, s.account);
    const [buy, sell] = s.signals as [Signal, Signal];
    expect(sell.symbol.symbol_pair).toBe(buy.symbol.symbol_pair);
    const accuracy = Math.floor(Math.min(buy.signal_accuracy, sell.signal_accuracy) * 1000) / 10;
    await apiPost(s.page, 'trade_preferences/set_preferences/', {
      trade_auto_open_delay: 1,
      trade_auto_close_delay: 0,
      minimal_accuracy: accuracy,
      trade_in_server_side: serverSide ? 1 : 0,
    });
    s.socket.muteEngineSignals(true);
    await s.page.reload();
    await s.page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
    await s.page.getByRole('link', { name: 'Trade Preferences' }).click();
    await enterPin(s.page, PIN);
    await toTrading(s);
    await holdPrice(buy);
    // Both 4 s old: due at once, on the same tick of the cards' clock.
    s.socket.deliver(buy, { ageMs: 4_000 });
    s.socket.deliver(sell, { ageMs: 4_000 });
    const pair = buy.symbol.symbol_pair;
    await expect
      .poll(
        async () => (await openTrades(s.page)).filter((trade) => trade.symbol.symbol_pair === pair).length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);
    await expectNotification(s.page, /A trade is already open or opening on this symbol/, 20_000);
    // A few seconds more: still one, and the exchange's position is that trade's.
    await s.page.waitForTimeout(3_000);
    const trades = (await openTrades(s.page)).filter((trade) => trade.symbol.symbol_pair === pair);
    expect(trades).toHaveLength(1);
    const trade = trades[0]!;
    const position = new Decimal((await s.exchange.positionRisk(s.account, pair)).positionAmt);
    const signed = new Decimal(trade.trade_quantity).times(trade.trade_direction === 'SELL' ? -1 : 1);
    expect(position.eq(signed)).toBe(true);
    const row = tradeRow(s.page, trade.trade_uuid);
    await dismissNotifications(s.page);
    await row.getByTestId('trade-close').click();
    await row.waitFor({ state: 'detached', timeout: 20_000 });
    s.socket.muteEngineSignals(false);
    await s.page.close();
  }, 150_000);
}

test('a paper account’s secret is shown once; the fee flag; Close after a reload asks for the PIN; logout with an open client trade warns and closes it first', async () => {
  s = await openTraderSession(e2e.app, e2e.browser, {
    name: 'money-first',
    signalCount: 2,
    autoCloseDelayS: 0,
  });
  const { page } = s;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(page, PIN);
  const card = page.locator('[data-testid="platform-card"][data-platform-name="Paper Futures"]');

  // The secret of a new paper account: shown once, with a copy button, and said so.
  await card.getByRole('button', { name: 'Create paper account' }).click();
  const once = card.getByTestId('secret-once');
  await once.waitFor({ timeout: 15_000 });
  expect(await once.innerText()).toContain('shown only now');
  await card.scrollIntoViewIfNeeded();
  await screenshot(page, 'money-first-secret-once-en-dark');
  const secret = await card.getByTestId('secret-once-value').innerText();
  expect(secret).toBe(await card.getByTestId('api-secret-input').inputValue());
  await card.getByTestId('secret-once-copy').click();
  await expect.poll(() => card.getByTestId('secret-once-copy').innerText()).toBe('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const account: PaperAccount = {
    api_key: await card.getByTestId('api-key-input').inputValue(),
    api_secret: secret,
  } as PaperAccount;
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('trade-token-details').waitFor({ timeout: 15_000 });
  expect(await card.getByTestId('secret-once').count()).toBe(0);
  s = { ...s, account };

  // The fee flag: 2 % take profit at ×20 is what 0.05 % a side takes (2.00 % ROE).
  const step = (field: string, direction: 'Increase' | 'Decrease', times: number) => async () => {
    const item = card.getByTestId(`preference-${field}`);
    for (let i = 0; i < times; i += 1)
      await item.getByRole('button', { name: new RegExp(`^${direction}`) }).click();
  };
  // Typed, not stepped: the default take profit (30 %) is far from 2 %.
  const takeProfit = card.getByRole('spinbutton', { name: 'Take profit, %' });
  const before = await takeProfit.inputValue();
  await takeProfit.fill('2');
  await takeProfit.press('Enter');
  expect(await takeProfit.inputValue()).toBe('2.0');
  expect(await card.getByTestId('fee-flag').count()).toBe(0);
  await step('trade_leverage', 'Increase', 10)();
  const flag = card.getByTestId('fee-flag');
  await flag.scrollIntoViewIfNeeded();
  await screenshot(page, 'money-first-fee-flag-en-dark');
  expect(await flag.innerText()).toBe(
    "At ×20 the round trip's fees (0.050 % a side) take 2.00 % ROE: this take profit would close at a loss",
  );
  await step('trade_leverage', 'Decrease', 10)();
  await takeProfit.fill(before);
  await takeProfit.press('Enter');
  expect(await flag.count()).toBe(0);

  // Close after a reload: the PIN is gone with the page; Close asks for it, then closes.
  await toTrading(s);
  const first = s.signals[0]!;
  await holdPrice(first);
  const trade = await openFromSignal(page, s.socket, first);
  await page.reload();
  await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
  const row = tradeRow(page, trade.trade_uuid);
  await row.waitFor({ timeout: 20_000 });
  const close = row.getByTestId('trade-close');
  await expect
    .poll(() => close.getAttribute('title'), { timeout: 15_000 })
    .toContain('enter the PIN Code first');
  expect(await close.isEnabled()).toBe(true);
  await close.click();
  const dialog = page.getByTestId('pin-request');
  await dialog.waitFor();
  await dialog.getByTestId('pin-request-input').fill('11111');
  await dialog.getByRole('button', { name: 'Unlock and close' }).click();
  await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('WRONG PIN CODE');
  await screenshot(page, 'money-first-pin-dialog-en-dark');
  await dialog.getByTestId('pin-request-input').fill(PIN);
  await dialog.getByRole('button', { name: 'Unlock and close' }).click();
  await row.waitFor({ state: 'detached', timeout: 20_000 });
  expect(
    new Decimal((await s.exchange.positionRisk(account, first.symbol.symbol_pair)).positionAmt).isZero(),
  ).toBe(true);

  // Logout with an open client-mode trade: told what follows, offered to close it first.
  const second = s.signals[1]!;
  await holdPrice(second);
  const open = await openFromSignal(page, s.socket, second);
  const warning = page.getByTestId('logout-dialog');
  // In Ukrainian and light first (the look is set outside the dialog), then as the test goes on.
  await setLook(page, 'ua', 'light');
  await page.getByTestId('logout').click();
  await warning.waitFor();
  expect(await warning.innerText()).toContain('Відкриті угоди клієнтського режиму: 1');
  await screenshot(page, 'money-first-logout-dialog-ua-light');
  await page.keyboard.press('Escape');
  await warning.waitFor({ state: 'detached' });
  await setLook(page, 'en', 'dark');
  await page.getByTestId('logout').click();
  await warning.waitFor();
  expect(await warning.innerText()).toContain('Open client-mode trades: 1');
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await warning.waitFor({ state: 'detached' });
  expect(await page.getByTestId('profile-block').count()).toBe(1);
  await page.getByTestId('logout').click();
  await page.getByTestId('logout-close-first').click();
  await page.getByTestId('profile-block').waitFor({ state: 'detached', timeout: 30_000 });
  expect(
    new Decimal((await s.exchange.positionRisk(account, second.symbol.symbol_pair)).positionAmt).isZero(),
  ).toBe(true);
  expect(open.trade_in_server_side).toBe(0);
}, 180_000);
