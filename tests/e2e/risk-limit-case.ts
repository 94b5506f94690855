// The risk-limit case (issue 18 item 3) both trading files run in their session, once per mode: the trader sets
// "Max open trades" to 1 with its stepper, opens one trade; the signal-info bar shows the limit reached, a click
// on the next card is refused with the translated sentence (English, then Ukrainian) and touches no exchange; with
// auto-open on, the card waits past its delay, and opens by itself once the open trade is closed.
import { expect } from 'vitest';
import type { Signal, Trade } from '../../contracts';
import { screenshot } from './harness';
import {
  apiPost,
  dismissNotifications,
  enterPin,
  expectNotification,
  openFromSignal,
  openTradeOf,
  openTrades,
  signalCard,
  tradeRow,
  type TraderSession,
} from './trading-helpers';

export async function riskLimitCase(
  s: TraderSession,
  {
    serverSide,
    pinCode,
    autoCloseDelayS,
    held,
    limited,
    holdPrice,
    closeByHand,
  }: {
    serverSide: boolean;
    /** The session's PIN: a reload forgets it, and without it nothing opens or closes. */
    pinCode: string;
    /** The session's trade_auto_close_delay, kept. */
    autoCloseDelayS: number;
    /** The signal of the trade that fills the limit, and the one the limit refuses. */
    held: Signal;
    limited: Signal;
    holdPrice: (signal: Signal) => Promise<void>;
    /**
     * Closes a trade by its row's button and checks the record against the exchange; with `flat`, also that the
     * exchange is flat on the symbol with no order left.
     */
    closeByHand: (trade: Trade, options: { flat: boolean }) => Promise<unknown>;
  },
): Promise<void> {
  const { page } = s;
  const mode = serverSide ? 'server' : 'client';
  /** Reloads /trading (the preferences are read again) and enters the PIN again. */
  const reloadWithPin = async () => {
    await page.reload();
    await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Trade Preferences' }).click();
    await enterPin(page, pinCode);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
    await page.getByTestId('signals-panel').waitFor({ timeout: 20_000 });
  };
  // The limit, set with its new stepper: at most one open trade.
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await dismissNotifications(page);
  await page.getByRole('button', { name: 'Increase Max open trades' }).click();
  await expectNotification(page, 'Update Trade Preferences Success', 15_000);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
  s.socket.muteEngineSignals(true);
  await holdPrice(held);
  const first = await openFromSignal(page, s.socket, held);
  const exchangeBefore = await s.exchange.openOrderCount(s.account, limited.symbol.symbol_pair);

  // One trade is open: the bar says the limit is reached, and a click is refused with the sentence.
  await dismissNotifications(page);
  s.socket.deliver(limited);
  const card = signalCard(page, limited.signal_uuid);
  await card.hover();
  const chip = page.getByTestId('signal-info-RL');
  await expect.poll(() => chip.getAttribute('data-reached'), { timeout: 15_000 }).toBe('true');
  expect(await chip.innerText()).toContain('open 1/1');
  await card.getByTestId('signal-trade').click();
  await expectNotification(
    page,
    'The maximum of open trades is reached (1 open, limit 1): no new trade is opened',
    15_000,
  );
  await page.mouse.move(5, 5);
  await screenshot(page, `trading-${mode}-risk-limit-dark-en`);
  await page.getByTestId('language-ua').click();
  await dismissNotifications(page);
  await card.getByTestId('signal-trade').click();
  await expectNotification(page, 'Досягнуто максимуму відкритих угод (1 відкрито, ліміт 1)', 15_000);
  await page.getByTestId('language-en').click();
  expect((await openTrades(page)).map((trade) => trade.signal_uuid)).toEqual([held.signal_uuid]);
  expect(await s.exchange.openOrderCount(s.account, limited.symbol.symbol_pair)).toBe(exchangeBefore);
  await card.waitFor();

  // Auto-open after 1 s with a filter this card passes: it waits while the limit is reached …
  const accuracy = Math.floor(limited.signal_accuracy * 1000) / 10;
  console.info(`trading-${mode}: auto-open under the limit at minimal_accuracy ${accuracy}`);
  await apiPost(page, 'trade_preferences/set_preferences/', {
    trade_auto_open_delay: 1,
    trade_auto_close_delay: autoCloseDelayS,
    minimal_accuracy: accuracy,
    trade_in_server_side: serverSide ? 1 : 0,
  });
  await reloadWithPin();
  // The platform can trade again (its close button is enabled): only the limit can hold the card back.
  const closeFirst = tradeRow(page, first.trade_uuid).getByTestId('trade-close');
  await expect.poll(() => closeFirst.isEnabled(), { timeout: 20_000 }).toBe(true);
  await dismissNotifications(page);
  // Delivered 4 s old (the server's clock says so, sent_at): its countdown starts at 95 s, three seconds past
  // the 1 s delay, without waiting for them. (Not Playwright's page.clock: a page clock moved ahead signs client
  // mode's requests with a timestamp the exchange refuses, -1021.)
  s.socket.deliver(limited, { ageMs: 4_000 });
  await card.waitFor({ timeout: 15_000 });
  // The card's timer has run once more since (the countdown moved on): the auto-open was due on that tick, and
  // still no trade.
  await expect
    .poll(async () => Number(await card.getByTestId('signal-seconds-left').innerText()), { timeout: 30_000 })
    .toBeLessThanOrEqual(94);
  expect((await openTrades(page)).some((trade) => trade.signal_uuid === limited.signal_uuid)).toBe(false);
  await card.waitFor();

  // … and opens by itself once the open trade is closed.
  // The card may open on the same symbol at once, so the exchange need not be flat between the two trades: the
  // first close is checked by its record, the second's by the exchange too.
  await closeByHand(first, { flat: false });
  const second = await openTradeOf(page, limited.signal_uuid, 30_000);
  expect(second.trade_in_server_side).toBe(serverSide ? 1 : 0);
  await closeByHand(second, { flat: true });

  // The session's preferences again for the tests after this one.
  await apiPost(page, 'trade_preferences/set_preferences/', {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: autoCloseDelayS,
    minimal_accuracy: 100,
    trade_in_server_side: serverSide ? 1 : 0,
    trade_max_open_trades: 0,
  });
  s.socket.muteEngineSignals(false);
  await reloadWithPin();
}
