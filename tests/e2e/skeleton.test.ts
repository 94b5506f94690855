// Walking skeleton: the page served by `npm start` boots the SPA (trade-core from pkg/, translations) and
// shows the live bitcoin price that the server derives from the paper exchange's mark-price stream.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchBrowser, screenshot, startApp, type RunningApp } from './harness';

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

test('the header shows the bitcoin price the API reports', async () => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(app.baseUrl);

  const priceButton = page.getByTestId('bitcoin-price');
  await priceButton.waitFor({ state: 'visible', timeout: 30_000 });
  const shown = Number((await priceButton.innerText()).replace(/[^0-9]/g, ''));

  const answer = await fetch(`${app.baseUrl}/api/public/get_bitcoin_public_information/`);
  const { result } = (await answer.json()) as { result: { current_price: number } };
  // The widget rounds to 0 decimals and the price keeps moving between the two reads: within 2 %.
  expect(shown).toBeGreaterThan(0);
  expect(Math.abs(shown - result.current_price) / result.current_price).toBeLessThan(0.02);
  expect(await priceButton.getAttribute('title')).toBe(
    'Current Price of Bitcoin, click for open additional information',
  );
  expect(pageErrors).toEqual([]);
  await screenshot(page, 'skeleton-header');
});
