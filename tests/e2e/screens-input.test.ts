// The trader's screens (issue 39 items 2 and 5) in a real browser against `npm start`: on Trade Preferences the
// preferences are typed (margin "100" is saved as 100.00 and is there after a reload; an out-of-range number is
// clamped; a text that is not a number is refused with a message), and a live signal that comes while the
// trader is on Trade Preferences shows as a toast with its countdowns, in the notification area, with a way to
// the signal on Main. The signal is a real stored one of the running engine, re-sent through the real socket
// (trading-helpers.ts proxySocket), so its arrival does not wait for the engine.
import type { Platform, PlatformPreferences, SymbolDict, TradePreferences } from '../../contracts';
import { expect, test } from 'vitest';
import { screenshot, setupE2e } from './harness';
import {
  Decimal,
  addTradeToken,
  apiGet,
  dismissNotifications,
  enterPin,
  expectNotification,
  openTradeOf,
  openTraderSession,
  paperCard,
  pinnedPrices,
  reportFailures,
  signalCard,
  storedSignals,
  type TraderSession,
} from './trading-helpers';
import { setLook } from './walk-support';

const e2e = setupE2e();
let s: TraderSession;
reportFailures('screens-input', () => s);
const { holdPrice } = pinnedPrices(() => s);

async function paperPlatformUuid(): Promise<string> {
  const { platform_dict } = await apiGet<{ platform_dict: Record<string, Platform> }>(
    s.page,
    'platform/get_available_platforms_dict/',
  );
  const paper = Object.values(platform_dict).find((platform) => platform.platform_name === 'Paper Futures');
  if (!paper) throw new Error('no Paper Futures platform');
  return paper.platform_uuid;
}

const platformPreferences = async (platformUuid: string) =>
  apiGet<PlatformPreferences>(
    s.page,
    `platform_preferences/get_preferences_by_platform_uuid/${platformUuid}/`,
  );

async function toTradePreferences(): Promise<void> {
  await s.page.getByTestId('sidebar').getByRole('link', { name: 'Trade Preferences' }).click();
  await paperCard(s.page).getByRole('spinbutton', { name: 'Margin, $' }).waitFor({ timeout: 20_000 });
}

test('setup: a client-mode trader with a fresh paper account', async () => {
  s = await openTraderSession(e2e.app, e2e.browser, { name: 'screens', signalCount: 1, autoCloseDelayS: 0 });
  // Only the signal this file delivers reaches the page.
  s.socket.muteEngineSignals(true);
});

test('Trade Preferences: margin typed as 100 is saved as 100.00 and is there after a reload', async () => {
  const { page } = s;
  await toTradePreferences();
  const platformUuid = await paperPlatformUuid();
  expect((await platformPreferences(platformUuid)).trade_margin).toBe(10);
  const margin = paperCard(page).getByRole('spinbutton', { name: 'Margin, $' });
  expect(await margin.inputValue()).toBe('10.00');
  await dismissNotifications(page);
  await margin.fill('100');
  await margin.press('Enter');
  expect(await margin.inputValue()).toBe('100.00');
  await expectNotification(page, 'Update Platform Preferences Success', 15_000);
  expect((await platformPreferences(platformUuid)).trade_margin).toBe(100);

  await page.reload();
  await paperCard(page).getByRole('spinbutton', { name: 'Margin, $' }).waitFor({ timeout: 20_000 });
  await expect.poll(() => margin.inputValue(), { timeout: 15_000 }).toBe('100.00');
  expect(await margin.getAttribute('aria-valuenow')).toBe('100');
});

test('Trade Preferences: out of range is clamped, a text that is not a number is refused', async () => {
  const { page } = s;
  const card = paperCard(page);
  const platformUuid = await paperPlatformUuid();
  const margin = card.getByRole('spinbutton', { name: 'Margin, $' });
  const stopLoss = card.getByRole('spinbutton', { name: 'Stop loss, %' });
  await dismissNotifications(page);
  await margin.fill('5000');
  await margin.press('Tab');
  expect(await margin.inputValue()).toBe('1000.00');
  await stopLoss.fill('12.3');
  await stopLoss.press('Enter');
  // The stop loss goes in steps of 0.5: 12.3 is 12.5, as the buttons would make it.
  expect(await stopLoss.inputValue()).toBe('12.5');
  // Refused: the last value comes back, with a message that stays after the field is left.
  const stopLossItem = card.getByTestId('preference-trade_stop_loss_percent');
  await stopLoss.fill('abc');
  await stopLoss.press('Enter');
  expect(await stopLoss.inputValue()).toBe('12.5');
  expect(await stopLoss.getAttribute('aria-invalid')).toBe('true');
  const message = stopLossItem.getByRole('alert');
  expect(await message.innerText()).toBe(
    'Not a number: Stop loss, % needs a number from 5.0 to 100.0, so it keeps its last value',
  );
  await stopLoss.press('Tab');
  await message.scrollIntoViewIfNeeded();
  await screenshot(page, 'screens-input-preferences-en-dark');
  await setLook(page, 'en', 'light');
  await screenshot(page, 'screens-input-preferences-en-light');
  await setLook(page, 'ua', 'light');
  expect(await message.innerText()).toBe(
    'Не число: Стоп-лос, % — потрібне число від 5.0 до 100.0, тому залишено попереднє значення',
  );
  await screenshot(page, 'screens-input-preferences-ua-light');
  await setLook(page, 'en', 'dark');
  // Saved after the debounce: the clamped margin and the stepped stop loss, never the refused text.
  await expect
    .poll(
      async () => {
        const saved = await platformPreferences(platformUuid);
        return [saved.trade_margin, saved.trade_stop_loss_percent];
      },
      { timeout: 15_000 },
    )
    .toEqual([1000, 12.5]);
});

test('on Trade Preferences a live signal shows as a toast with its countdown to the automatic open', async () => {
  const { page } = s;
  await enterPin(page, '12345');
  await addTradeToken(page, s.account);
  // Typed, not clicked 60 times: auto-open after 60 s, for signals of 60 % accuracy or more.
  await dismissNotifications(page);
  const autoOpen = page.getByRole('spinbutton', { name: 'Auto open delay, s' });
  await autoOpen.fill('60');
  await autoOpen.press('Enter');
  const accuracy = page.getByRole('spinbutton', { name: 'Minimal accuracy, %' });
  await accuracy.fill('60');
  await accuracy.press('Enter');
  await expectNotification(page, 'Update Trade Preferences Success', 15_000);
  const saved = await apiGet<TradePreferences>(page, 'trade_preferences/get_preferences/');
  expect(saved.trade_auto_open_delay).toBe(60);
  expect(saved.minimal_accuracy).toBe(60);
  await dismissNotifications(page);

  const signal = s.signals[0]!;
  expect(signal.signal_accuracy).toBeGreaterThanOrEqual(0.6);
  s.socket.deliver(signal);
  const toast = page.locator(`[data-testid="signal-toast"][data-signal-uuid="${signal.signal_uuid}"]`);
  await toast.waitFor({ timeout: 10_000 });
  // In the notification area, whose place the notifications decide.
  expect(await page.locator('.notification-stack').locator('[data-testid="signal-toast"]').count()).toBe(1);
  const direction = signal.signal_direction_created === 'BUY' ? 'Buy' : 'Sell';
  expect(await toast.getAttribute('aria-label')).toBe(
    `New signal: ${direction} ${signal.symbol.symbol_name}`,
  );
  expect(await toast.getByTestId('signal-toast-direction').innerText()).toBe(direction);
  const secondsLeft = async () =>
    Number((await toast.getByTestId('signal-toast-seconds-left').innerText()).replace(/\D/g, ''));
  const autoOpenIn = async () =>
    Number((await toast.getByTestId('signal-toast-auto-open').innerText()).replace(/\D/g, ''));
  expect(await secondsLeft()).toBeGreaterThan(90);
  const first = await autoOpenIn();
  expect(first).toBeGreaterThan(50);
  expect(first).toBeLessThanOrEqual(60);
  // It counts down.
  await expect.poll(autoOpenIn, { timeout: 5000 }).toBeLessThan(first);
  await screenshot(page, 'screens-input-signal-toast-en-dark');

  // Another page without the cards: the toast is still there.
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trade History' }).click();
  await toast.waitFor();
  // The way to the signal: Main, where its card is, and the toast stands aside.
  await toast.getByRole('link', { name: 'Show signal' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  await page.locator(`[data-testid="signal-card"][data-signal-uuid="${signal.signal_uuid}"]`).waitFor();
  expect(await page.getByTestId('signal-toast').count()).toBe(0);
  expect(s.errors).toEqual([]);
});

// Issue 53: edits on a live card. The Paper card has a live token, a trade open on it and prices ticking (its
// balance and the trade re-render the card far faster than the 2 s debounce, which restarted on every render and
// never sent the edit). Four values typed are saved while the page stays open and are there after a reload; an
// edit 1 s before the page goes (shorter than the debounce) is sent as the page is hidden.
test('edits on a card with a live token, an open trade and ticking prices are saved and kept', async () => {
  const { page } = s;
  const signal = s.signals[0]!;
  // The card of the toast's signal, on Main: opened by hand before its automatic open is due.
  await dismissNotifications(page);
  await page
    .locator(`[data-testid="signal-card"][data-signal-uuid="${signal.signal_uuid}"]`)
    .getByTestId('signal-trade')
    .click({ timeout: 15_000 });
  await expectNotification(page, 'Trade opened', 60_000);
  await toTradePreferences();
  const platformUuid = await paperPlatformUuid();
  const card = paperCard(page);
  // The world moving: the card's balance is live and the exchange's mark price ticks under the open trade.
  await card.getByTestId('trade-token-status').waitFor();
  const mark = () => s.exchange.mark(signal.symbol.symbol_pair);
  const firstMark = await mark();
  await expect.poll(mark, { timeout: 15_000 }).not.toBe(firstMark);

  const typed: [string, string][] = [
    ['Margin, $', '100'],
    ['Take profit, %', '20'],
    ['Stop loss, %', '5'],
    ['Trailing stop, %', '4'],
  ];
  for (const [name, value] of typed) {
    const field = card.getByRole('spinbutton', { name });
    await field.fill(value);
    await field.press('Tab');
  }
  // Saved while the page stays open, and the panel says so once the server has them.
  await expect
    .poll(
      async () => {
        const saved = await platformPreferences(platformUuid);
        return [
          saved.trade_margin,
          saved.trade_take_profit_percent,
          saved.trade_stop_loss_percent,
          saved.trade_treiling_stop_percent,
        ];
      },
      { timeout: 15_000 },
    )
    .toEqual([100, 20, 5, 4]);
  await card.locator('.save-state.is-saved').waitFor({ timeout: 5000 });

  // An edit the page leaves 1 s after: flushed on pagehide, not lost with the tab.
  const margin = card.getByRole('spinbutton', { name: 'Margin, $' });
  await margin.fill('50');
  await margin.press('Tab');
  await page.waitForTimeout(1000);
  await page.reload();
  await margin.waitFor({ timeout: 20_000 });
  await expect.poll(() => margin.inputValue(), { timeout: 15_000 }).toBe('50.00');
  expect((await platformPreferences(platformUuid)).trade_take_profit_percent).toBe(20);
  expect(await card.getByRole('spinbutton', { name: 'Trailing stop, %' }).inputValue()).toBe('4.0');
  expect(s.errors).toEqual([]);
});

// Issue 53: each saved edit says so in a toast at the bottom left, where the card's fields are. The toast goes
// to the top while the field being typed in would be under it, and one toast says it however many edits saved.
test('the saved toast never sits on the field being typed in', async () => {
  const { page } = s;
  const card = paperCard(page);
  await toTradePreferences();
  await dismissNotifications(page);
  const platformUuid = await paperPlatformUuid();
  const stack = page.locator('.notification-stack');
  const column = await stack.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { left: rect.left, right: rect.right, bottom: rect.bottom };
  });
  let field = card.getByRole('spinbutton', { name: 'Margin, $' });
  for (const name of ['Margin, $', 'Take profit, %', 'Stop loss, %', 'Trailing stop, %']) {
    const box = await card.getByRole('spinbutton', { name }).boundingBox();
    if (box && box.x < column.right && box.x + box.width > column.left) {
      field = card.getByRole('spinbutton', { name });
      break;
    }
  }
  // The field 30 px above the toasts' bottom edge, where a toast comes.
  const underTheToasts = async () => {
    await field.evaluate((element, bottom) => {
      const main = element.closest('.app-main')!;
      main.scrollBy(0, element.getBoundingClientRect().bottom - (bottom - 30));
    }, column.bottom);
    const at = (await field.boundingBox())!;
    expect(at.x < column.right && at.x + at.width > column.left).toBe(true);
    expect(Math.abs(at.y + at.height - (column.bottom - 30))).toBeLessThan(2);
  };
  const savedValues = async () => String(Object.values(await platformPreferences(platformUuid)));
  const saved = page.getByTestId('notification').filter({ hasText: 'Update Platform Preferences Success' });
  let before = await savedValues();
  for (const value of ['60', '61']) {
    await underTheToasts();
    // Enter commits the typed value and leaves the focus in the field.
    await field.fill(value);
    await field.press('Enter');
    await expect.poll(savedValues, { timeout: 15_000 }).not.toBe(before);
    before = await savedValues();
    await saved.first().waitFor({ timeout: 10_000 });
  }
  await page.waitForTimeout(300);
  expect(await page.getByTestId('notification').count()).toBe(1);
  const toast = (await page.getByTestId('notification').boundingBox())!;
  const under = (await field.boundingBox())!;
  // Where it would have been, it covered the field; where it is, it does not.
  expect(under.y + under.height > column.bottom - toast.height).toBe(true);
  const covers =
    toast.x < under.x + under.width &&
    under.x < toast.x + toast.width &&
    toast.y < under.y + under.height &&
    under.y < toast.y + toast.height;
  expect(covers).toBe(false);
  expect(await stack.evaluate((element) => element.classList.contains('is-raised'))).toBe(true);
  await screenshot(page, 'screens-input-toast-clear-of-field');
  // Back on a field high on the screen, the toasts are back at the bottom.
  await field.evaluate((element) => element.closest('.app-main')!.scrollTo(0, 0));
  await card.getByRole('spinbutton', { name: 'Margin, $' }).focus();
  await expect
    .poll(() => stack.evaluate((element) => element.classList.contains('is-raised')), { timeout: 5000 })
    .toBe(false);
  expect(s.errors).toEqual([]);
});

/**
 * The smallest margin on the 0.25 $ step whose market order passes the symbol's filters at every price within
 * 1 % of `price` (an oracle apart from trade-core: Decimal.js): quantity = margin × leverage ÷ price, down to
 * the step, must reach minQty and MIN_NOTIONAL ÷ price, up to the step.
 */
function smallestMargin(price: Decimal, leverage: number, minQuantity: string, minNotional: string): string {
  let needed = new Decimal(0);
  for (const at of [price.times(0.99), price, price.times(1.01)]) {
    const quantity = Decimal.max(
      minQuantity,
      new Decimal(minNotional).div(at).toDecimalPlaces(3, Decimal.ROUND_UP),
    );
    needed = Decimal.max(needed, quantity.times(at).div(leverage));
  }
  return Decimal.max(1.5, needed.div(0.25).ceil().times(0.25)).toFixed(2);
}

// Issue 53: with the default 10 $ × 10 a BTCUSDT order is 0.001 BTC, below its MIN_NOTIONAL of 100 $. The card
// says what margin it needs instead of offering a trade that fails, and opens with that margin in one click.
test('with the default settings a BTC card says what it needs and opens with the smallest margin that passes', async () => {
  const { page } = s;
  const card = paperCard(page);
  const platformUuid = await paperPlatformUuid();
  await dismissNotifications(page);
  const margin = card.getByRole('spinbutton', { name: 'Margin, $' });
  await margin.fill('10');
  await margin.press('Tab');
  await expect
    .poll(async () => (await platformPreferences(platformUuid)).trade_margin, { timeout: 15_000 })
    .toBe(10);
  // The account's leverage brackets: read by the page once, for every symbol, after the PIN's balance read.
  const tableReads: number[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('/fapi/v1/leverageBracket') && !url.searchParams.has('symbol'))
      tableReads.push(response.status());
  });
  await enterPin(page, '12345');
  const [signal] = await storedSignals(page, 1, () => [], { prefer: ['BTCUSDT'], exclude: [] });
  expect(signal!.symbol.symbol_pair).toBe('BTCUSDT');
  const { symbol_dict } = await apiGet<{ symbol_dict: SymbolDict }>(
    page,
    'symbol/get_available_symbols_dict/',
  );
  const btc = symbol_dict[signal!.symbol.symbol_uuid]!;
  await holdPrice(signal!);
  const mark = new Decimal(await s.exchange.mark('BTCUSDT'));
  const leverage = (await platformPreferences(platformUuid)).trade_leverage;
  const needed = smallestMargin(mark, leverage, btc.symbol_min_quantity!, btc.symbol_min_notional!);

  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  s.socket.deliver(signal!);
  const signalBox = signalCard(page, signal!.signal_uuid);
  const direction = signal!.signal_direction_created === 'BUY' ? 'Buy' : 'Sell';
  const button = signalBox.getByTestId('signal-trade');
  // At the page's live price, which the pinned mark reaches within moments.
  await expect.poll(() => button.innerText(), { timeout: 20_000 }).toBe(`${direction} with ${needed} $`);
  expect(await signalBox.getByTestId('signal-placement').innerText()).toMatch(
    new RegExp(
      `^Needs ≥ ${needed.replace('.', '\\.')} \\$ margin at ×${leverage}: with less the order is below the exchange's smallest \\(${btc.symbol_min_notional} \\$\\)`,
    ),
  );
  await signalBox.scrollIntoViewIfNeeded();
  await expect.poll(() => tableReads, { timeout: 10_000 }).toEqual([200]);
  await screenshot(page, 'screens-input-btc-card-en-dark');
  await setLook(page, 'ua', 'light');
  expect(await button.innerText()).toBe(`${direction === 'Buy' ? 'Купити' : 'Продати'} з ${needed} $`);
  await screenshot(page, 'screens-input-btc-card-ua-light');
  await setLook(page, 'en', 'dark');

  await dismissNotifications(page);
  // Bought on a phone: the row lands far below the cards, and a button under the header points to it.
  await page.setViewportSize({ width: 375, height: 812 });
  // The sidebar is an overlay there: closed, as a trader on a phone has it.
  if (await page.getByTestId('sidebar').isVisible()) await page.getByTestId('hamburger').click();
  await button.click();
  await expectNotification(page, 'Trade opened', 60_000);
  const trade = await openTradeOf(page, signal!.signal_uuid);
  const pointer = page.getByTestId('new-trade-pointer');
  await pointer.waitFor({ timeout: 15_000 });
  expect(await pointer.innerText()).toBe('Trade opened: BTC — show it');
  await screenshot(page, 'screens-input-new-trade-pointer-375-en-dark');
  await page.setViewportSize({ width: 1440, height: 900 });
  if (!(await page.getByTestId('sidebar').isVisible())) await page.getByTestId('hamburger').click();
  await setLook(page, 'ua', 'light');
  expect(await pointer.innerText()).toBe('Угоду відкрито: BTC — показати');
  await screenshot(page, 'screens-input-new-trade-pointer-1440-ua-light');
  await setLook(page, 'en', 'dark');
  // One click: the row in view, the pointer gone.
  await pointer.click();
  const row = page.locator(`[data-testid="trade-row"][data-trade-uuid="${trade.trade_uuid}"]`);
  await expect.poll(() => row.isVisible()).toBe(true);
  await pointer.waitFor({ state: 'detached', timeout: 10_000 });
  const box = (await row.boundingBox())!;
  expect(box.y >= 0 && box.y + box.height <= 900).toBe(true);
  expect(new Decimal(trade.trade_margin).eq(needed)).toBe(true);
  // The exchange took it: its notional at the fill is at least the filter's.
  const risk = await s.exchange.positionRisk(s.account, 'BTCUSDT');
  expect(new Decimal(risk.positionAmt).abs().times(risk.entryPrice).gte(btc.symbol_min_notional!)).toBe(true);
  // Once a session, however many cards, ticks and opens.
  expect(tableReads).toEqual([200]);
  expect(s.errors).toEqual([]);
});
