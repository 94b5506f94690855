// The README's picture of /trading (issue 40), made by this file so it stays current: a new trader on a real
// paper account with one trade open from a real stored signal, the chart with its lines, at 1440×900 in the
// dark theme. `npm run readme:screenshot` runs it alone and the image is committed; the browser suite runs it
// too, so a change that breaks the picture's path fails there.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO, setupE2e } from './harness';
import {
  addTradeToken,
  dismissNotifications,
  enterPin,
  openFromSignal,
  openTraderSession,
  reportFailures,
  type TraderSession,
} from './trading-helpers';

const e2e = setupE2e();
let s: TraderSession;
reportFailures('readme', () => s);

/** Where the README's image goes (README.md links it). */
export const README_IMAGE = path.join(REPO, 'docs/images/trading.png');

test('the README picture: /trading with a trade open from a signal, its chart lines and the open-trades row', async () => {
  s = await openTraderSession(e2e.app, e2e.browser, { name: 'readme', signalCount: 1, autoCloseDelayS: 0 });
  const { page, account } = s;
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(page, '24680');
  await addTradeToken(page, account);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
  const trade = await openFromSignal(page, s.socket, s.signals[0]!);
  await dismissNotifications(page);
  // The chart follows the row last hovered: the trade's symbol, with its entry, stop and exits.
  await page.locator(`[data-testid="trade-row"][data-trade-uuid="${trade.trade_uuid}"]`).hover();
  await expect.poll(() => page.getByTestId('chart-line').count(), { timeout: 15_000 }).toBeGreaterThan(2);
  await page.mouse.move(5, 5);
  // The chart and the open trade in view (the page scrolls inside <main>).
  await page.locator('main').evaluate((main) => main.scrollTo(0, main.scrollHeight));
  await page.waitForTimeout(800);
  fs.mkdirSync(path.dirname(README_IMAGE), { recursive: true });
  await page.screenshot({ path: README_IMAGE });
  expect(fs.statSync(README_IMAGE).size).toBeGreaterThan(20_000);
  expect(s.errors).toEqual([]);
}, 180_000);
