// Issue 8 in a real browser right after a first start: the dashboard and the analysis render the data the
// backfill computed (30 days of the engine's signals and the house account's trades), in both themes, and a
// change of the analysis start day asks the server again and redraws the chart with the new answer.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { screenshot, setupE2e, signUp } from './harness';
import { setLook } from './walk-support';

const e2e = setupE2e();

interface AnalysisAnswer {
  result: { lag_price_list: { lag: number; corr_buy: number; corr_sell: number }[] };
}

/** The answers of POST /api/analysis/get_analysis/ the page receives, in order. */
function analysisAnswers(page: Page): AnalysisAnswer[] {
  const answers: AnalysisAnswer[] = [];
  page.on('response', async (response) => {
    if (!response.url().includes('/api/analysis/get_analysis/') || response.status() !== 200) return;
    answers.push((await response.json()) as AnalysisAnswer);
  });
  return answers;
}

test('dashboard and analysis show the backfilled track record; a date change redraws the chart', async () => {
  const page = await e2e.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const answers = analysisAnswers(page);
  await page.goto(e2e.app.baseUrl);
  await signUp(page, `insights-${Date.now()}@example.com`, 'insights');

  // The public statistics exist at once: a day of 5-minute points and 30 daily items.
  const byDay = await (await fetch(`${e2e.app.baseUrl}/api/public/get_statistic_trade_by_day/`)).json();
  const byMonth = await (await fetch(`${e2e.app.baseUrl}/api/public/get_statistic_trade_by_month/`)).json();
  expect(byDay.result.statistic_trade_by_day_list.length).toBeGreaterThan(250);
  expect(byMonth.result.statistic_trade_by_month_list.length).toBeGreaterThanOrEqual(29);

  await page.getByTestId('sidebar').getByRole('link', { name: 'Dashboard' }).click();
  for (const chart of ['last-day-chart', 'last-month-chart']) {
    await page.getByTestId(chart).locator('svg path, svg rect').first().waitFor({ timeout: 30_000 });
  }
  await expect.poll(() => page.getByTestId('statistics-now-summary').innerText()).toContain('Total ROE:');
  const yesterday = await page.getByTestId('statistics-yesterday').innerText();
  expect(yesterday).toMatch(/Total Count:\s*\d+/);
  // Issue 42: how the house trades. A first start's backfill trades every day with today's defaults and books
  // fees, so both days are the record's first, which the house's terms read from its own trades.
  const house = (await (await fetch(`${e2e.app.baseUrl}/api/public/get_house_record/`)).json()) as {
    result: { settings_since: string; fees_since: string; previous_settings: unknown };
  };
  expect(house.result.previous_settings).toBeNull();
  expect(house.result.fees_since).toBe(house.result.settings_since);
  const terms = page.getByTestId('house-terms');
  await expect
    .poll(() => terms.innerText(), { timeout: 30_000 })
    .toContain(
      'with the new-trader defaults: margin 10 $ at ×10, stop loss 10 %, take profit 30 %, trailing stop 8 % (of the margin)',
    );
  expect(await terms.innerText()).toContain(
    `Its trades carry these settings from the start of the record (${house.result.settings_since}, UTC).`,
  );
  expect(await terms.innerText()).toContain(
    `Its trades book the exchange's fees from ${house.result.fees_since} (UTC)`,
  );
  await terms.scrollIntoViewIfNeeded();
  await screenshot(page, 'insights-house-terms-dark-en');
  await setLook(page, 'ua', 'light');
  await expect.poll(() => terms.innerText()).toContain('з налаштуваннями нового трейдера за замовчуванням');
  await terms.scrollIntoViewIfNeeded();
  await screenshot(page, 'insights-house-terms-light-ua');
  await setLook(page, 'en', 'dark');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await screenshot(page, 'insights-dashboard-dark-en');
  await page.getByTestId('theme-toggle').click();
  await page.waitForTimeout(500);
  await screenshot(page, 'insights-dashboard-light-en');

  await page.getByTestId('sidebar').getByRole('link', { name: 'Analysis' }).click();
  const chart = page.getByTestId('correlation-chart');
  await chart.locator('svg path').first().waitFor({ timeout: 30_000 });
  await expect.poll(() => answers.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  const first = answers.at(-1)!;
  expect(first.result.lag_price_list.length).toBe(49);
  const maxBuy = await page.getByTestId('analysis-max-buy').innerText();
  expect(maxBuy).toMatch(/-?\d\.\d{3}/);
  // Issue 40: beside SPEC.md's maximum, the strongest relation (largest |r|) of each series, in words, as the
  // answer has it.
  for (const series of ['buy', 'sell'] as const) {
    const points = first.result.lag_price_list.map((point) => ({
      lag: point.lag,
      corr: series === 'buy' ? point.corr_buy : point.corr_sell,
    }));
    const strongest = points.reduce((best, point) =>
      Math.abs(point.corr) > Math.abs(best.corr) ? point : best,
    );
    const line = page.getByTestId(`analysis-max-${series}-strongest`);
    const text = await line.innerText();
    expect(text).toContain(
      `Strongest relation: ${strongest.corr.toFixed(3)} at lag ${strongest.lag > 0 ? '+' : ''}${strongest.lag}`,
    );
    const kind =
      Math.abs(strongest.corr) < 0.1
        ? 'none'
        : strongest.lag > 0
          ? 'lead'
          : strongest.lag < 0
            ? 'follow'
            : 'same';
    expect(await line.getAttribute('data-kind')).toBe(kind);
    expect(text).toMatch(
      { lead: /signals lead/, follow: /signals follow/, same: /same 5 minutes/, none: /No clear relation/ }[
        kind
      ],
    );
  }
  await page.waitForTimeout(500);
  await screenshot(page, 'insights-analysis-light-en');

  // One day earlier at the start: after the 800 ms debounce the page asks again and draws the new answer.
  const before = answers.length;
  await page.getByTestId('analysis-start-day').getByRole('button', { name: 'Previous day' }).click();
  await expect.poll(() => answers.length, { timeout: 30_000 }).toBe(before + 1);
  const second = answers.at(-1)!;
  expect(second.result.lag_price_list).not.toEqual(first.result.lag_price_list);
  const shown = ((await page.getByTestId('analysis-values').textContent()) ?? '').replace(/\s+/g, ' ');
  const lagZero = second.result.lag_price_list.find((item) => item.lag === 0)!;
  expect(shown).toContain(lagZero.corr_buy.toFixed(3));
  await page.getByTestId('theme-toggle').click();
  await page.waitForTimeout(500);
  await screenshot(page, 'insights-analysis-dark-en');
  expect(errors).toEqual([]);
}, 180_000);
