// /trading with more open trades than VIRTUAL_ROWS_FROM in a real browser against `npm start`: the table holds
// only the rows near the screen, says how many rows it has (aria-rowcount), keeps its full height with spacer
// rows, and a row scrolled to at the bottom is drawn with its live numbers and opens its details; the next page
// opened from the sidebar starts at its top. The trades are
// client-mode records on real stored signals (POST /api/trade_client/create_trade/, as the SPA records an open),
// so no position is opened: the page has no PIN and reconciles nothing.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { Signal, Trade } from '../../contracts';
import { VIRTUAL_ROWS_FROM } from '../../src/config/constants';
import { screenshot, setupE2e, signUp } from './harness';
import { clientTradeBodyOf } from './trade-records';
import { apiGet, apiPost, openTrades } from './trading-helpers';

const TRADES = VIRTUAL_ROWS_FROM + 30;

const e2e = setupE2e();

/** Records `count` client-mode trades on the newest stored signals the trader has not traded yet. */
async function recordTrades(page: Page, count: number): Promise<void> {
  let made = 0;
  while (made < count) {
    const { signal_list } = await apiGet<{ signal_list: Signal[] }>(
      page,
      `signal/get_recent_signal_list/?limit=${Math.min(100, count - made)}`,
    );
    if (signal_list.length === 0) throw new Error(`only ${made} stored signals to trade; ${count} needed`);
    for (const signal of signal_list) {
      await apiPost(page, 'trade_client/create_trade/', clientTradeBodyOf(signal));
      made += 1;
    }
  }
}

/** The table's order: newest first (a stable sort of the list as the API gives it, as the table sorts it). */
const newestFirst = (trades: Trade[]) =>
  [...trades].sort((a, b) => b.trade_create_timestamp.localeCompare(a.trade_create_timestamp));

test(`${TRADES} open trades: only the rows near the screen are drawn, and scrolling reaches the last one`, async () => {
  const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(e2e.app.baseUrl);
  await signUp(page, `many-${Date.now()}@example.com`, 'many-trades');
  await recordTrades(page, TRADES);
  const order = newestFirst(await openTrades(page)).map((trade) => trade.trade_uuid);
  expect(order).toHaveLength(TRADES);

  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  const table = page.getByTestId('open-trades-table');
  await expect
    .poll(() => page.getByTestId('open-trades-count').textContent(), { timeout: 30_000 })
    .toBe(String(TRADES));
  await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(TRADES + 1));
  const rows = table.getByTestId('trade-row');
  // The screen holds about 17 rows of 51 px; with the overscan well under the 130.
  const drawn = await rows.count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);
  expect(await rows.first().getAttribute('data-trade-uuid')).toBe(order[0]);
  expect(await rows.first().getAttribute('aria-rowindex')).toBe('2');
  // The rows not drawn still take their place: the table is about as tall as all its rows.
  const tableHeight = (await table.boundingBox())?.height ?? 0;
  const rowHeight = (await rows.first().boundingBox())?.height ?? 0;
  expect(rowHeight).toBeGreaterThan(20);
  console.info(`many-trades: a row is ${rowHeight} px; the table ${tableHeight} px for ${TRADES} rows`);
  expect(tableHeight).toBeGreaterThan(rowHeight * TRADES * 0.9);
  await screenshot(page, 'many-trades/top');

  // Scrolled to the end: the oldest trade is drawn, the first rows are not, a spacer stands for them.
  await page.locator('main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  const oldest = order[TRADES - 1]!;
  const last = table.locator(`[data-trade-uuid="${oldest}"]`);
  await last.waitFor({ timeout: 10_000 });
  expect(await last.getAttribute('aria-rowindex')).toBe(String(TRADES + 1));
  expect(await table.locator(`[data-trade-uuid="${order[0]}"]`).count()).toBe(0);
  await expect.poll(() => table.getByTestId('trade-rows-above').count()).toBe(1);
  expect(await rows.count()).toBeLessThan(60);
  // Its numbers are the live cells, and its details open.
  await expect
    .poll(async () => (await last.getByTestId('trade-pnl').textContent())?.trim())
    .toMatch(/^-?\d+\.\d{2}$/);
  await last.getByTestId('trade-detail').click();
  await expect.poll(() => new URL(page.url()).searchParams.get('trade_detail_uuid')).toBe(oldest);
  await page.getByRole('dialog').waitFor();
  await screenshot(page, 'many-trades/bottom-detail');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  // Another page starts at its top (the pages scroll inside <main>, which stays across routes): from the
  // dashboard scrolled down to the about page, both taller than the screen (the about page visited first, so
  // its lazy chunk is there and it is drawn at once, without a short loader in between).
  const main = page.locator('main');
  const room = () => main.evaluate((element) => element.scrollHeight - element.clientHeight);
  const nav = page.getByTestId('sidebar');
  await nav.getByRole('link', { name: 'About' }).click();
  await expect.poll(room, { timeout: 15_000 }).toBeGreaterThan(300);
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  // The URL changes before the router's transition draws the (lazy) dashboard, and the reset to the top lands
  // when it does: scroll only once the dashboard has replaced the about page, and check the scroll held.
  await page.getByTestId('dashboard-page').waitFor();
  await main.locator('[data-testid^="about-"]').first().waitFor({ state: 'detached' });
  await expect.poll(room, { timeout: 30_000 }).toBeGreaterThan(300);
  await main.evaluate((element) => element.scrollTo(0, 300));
  await expect.poll(() => main.evaluate((element) => element.scrollTop)).toBe(300);
  await nav.getByRole('link', { name: 'About' }).click();
  await main.locator('[data-testid^="about-"]').first().waitFor();
  await page.getByTestId('dashboard-page').waitFor({ state: 'detached' });
  expect(await room()).toBeGreaterThan(300);
  await expect.poll(() => main.evaluate((element) => element.scrollTop)).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
}, 300_000);
