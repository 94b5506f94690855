// Walking skeleton: the page served by `npm start` boots the SPA (trade-core from pkg/, translations) and
// shows the live bitcoin price that the server derives from the paper exchange's mark-price stream.
import { expect, test } from 'vitest';
import { screenshot, setupE2e } from './harness';

const e2e = setupE2e();

test('the header shows the bitcoin price the API reports', async () => {
  const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(e2e.app.baseUrl);

  const priceButton = page.getByTestId('bitcoin-price');
  await priceButton.waitFor({ state: 'visible', timeout: 30_000 });
  const shown = Number((await priceButton.innerText()).replace(/[^0-9]/g, ''));

  const answer = await fetch(`${e2e.app.baseUrl}/api/public/get_bitcoin_public_information/`);
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

test('a lazy chunk that fails to load (as after a deploy) reloads the page instead of the error page', async () => {
  const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
  let loads = 0;
  page.on('load', () => (loads += 1));
  // The bitcoin modal's chunk cannot be fetched until the page has reloaded, as a chunk name of a replaced
  // dist/ would be missing until the page reads the new index.html.
  let refused = 0;
  await page.route(/\/assets\/bitcoin-information-content-[^/]+\.js$/, async (route) => {
    if (loads < 2) {
      refused += 1;
      await route.abort('failed');
    } else {
      await route.continue();
    }
  });
  await page.goto(e2e.app.baseUrl);
  const priceButton = page.getByTestId('bitcoin-price');
  await priceButton.waitFor({ state: 'visible', timeout: 30_000 });
  expect(loads).toBe(1);

  await priceButton.click();
  await expect.poll(() => loads, { timeout: 30_000 }).toBe(2);
  expect(refused).toBeGreaterThan(0);
  await priceButton.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await page.getByText('Error Page').count()).toBe(0);
  // After the reload the chunk loads and the modal opens.
  await priceButton.click();
  await page.getByTestId('bitcoin-information').waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot(page, 'skeleton-chunk-reloaded');
});
