// Issue 40's spec audit in a real browser against `npm start`: the trend colours' four tiers (SPEC.md §9) and
// the UI-status button's elapsed counter (SPEC.md §4). The trend values are chosen by the test: it sends
// bitcoin_public_information_from_core frames through the proxied socket (trading-helpers proxySocket). The
// status is a real one: a trade opened from a stored signal, its price pinned beyond the take profit, so the
// server's monitor flags it TAKE_PROFIT; automatic closing is OFF, so the flag stays lit its default 50 s.
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO, screenshot, setupE2e } from './harness';
import {
  addTradeToken,
  dismissNotifications,
  enterPin,
  openFromSignal,
  openTraderSession,
  pinnedPrices,
  priceAtRoe,
  reportFailures,
  tradeRow,
  type TraderSession,
} from './trading-helpers';

const e2e = setupE2e();
let s: TraderSession;

reportFailures('spec-audit', () => s);

const { pin, holdPrice } = pinnedPrices(() => s);

test('setup: a trader with a PIN, a paper account’s trade token, automatic closing OFF', async () => {
  s = await openTraderSession(e2e.app, e2e.browser, {
    name: 'audit-trader',
    signalCount: 1,
    autoCloseDelayS: 0,
  });
  const { page, account } = s;
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  await enterPin(page, '13579');
  await addTradeToken(page, account);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
});

test('trend colours: above 0.2 % green, below −0.2 % red, above 0 yellow, below 0 orange (SPEC.md §9)', async () => {
  const { page } = s;
  const trend = page.getByTestId('bitcoin-trend');
  await trend.waitFor({ timeout: 20_000 });
  const cases = [
    { prediction: 0.35, palette: 'green', text: '0.35 %' },
    { prediction: 0.12, palette: 'yellow', text: '0.12 %' },
    { prediction: -0.12, palette: 'orange', text: '0.12 %' },
    { prediction: -0.35, palette: 'red', text: '0.35 %' },
  ];
  for (const { prediction, palette, text } of cases) {
    // The page also reads bitcoin's information itself: send the frame again until the chip shows this value.
    await expect
      .poll(
        async () => {
          s.socket.send({
            event: 'bitcoin_public_information_from_core',
            message: {
              // trend_moment 1 (bull) each time: the colour follows the prediction shown, not the trend's sign.
              bitcoin_public_information: {
                current_price: 97_000,
                trend_moment: 1,
                trend_prediction: prediction,
              },
            },
          });
          await page.waitForTimeout(100);
          return trend.evaluate((element, name) => {
            // The chip's colour against the palette's own colour, resolved by the browser the same way.
            const probe = document.createElement('span');
            probe.style.color = `var(--palette-${name}-fg)`;
            document.body.append(probe);
            const expected = getComputedStyle(probe).color;
            probe.remove();
            return {
              // The number (the chip also says "Forecast", issue 40).
              text: element.querySelector('.numeric')?.textContent?.trim(),
              palette: element.classList.contains(`palette-${name}`),
              colourMatches: getComputedStyle(element).color === expected,
            };
          }, palette);
        },
        { timeout: 15_000, interval: 200 },
      )
      .toEqual({ text, palette: true, colourMatches: true });
  }
  await page.mouse.move(5, 5);
  await trend.screenshot({ path: path.join(REPO, 'screenshots', 'spec-audit-trend-red-dark-en.png') });
});

test('the status button shows the seconds elapsed since the status was set, by turns with TP (SPEC.md §4)', async () => {
  const { page } = s;
  const signal = s.signals[0]!;
  await holdPrice(signal);
  const trade = await openFromSignal(page, s.socket, signal);
  const row = tradeRow(page, trade.trade_uuid);
  await pin(
    signal.symbol.symbol_pair,
    priceAtRoe(trade, trade.trade_take_profit_percent + 1, signal.symbol.symbol_price_precision),
  );
  const status = row.getByTestId('trade-ui-status');
  await expect
    .poll(() => status.getAttribute('data-ui-status'), { timeout: 20_000, interval: 100 })
    .toBe('TAKE_PROFIT');
  await dismissNotifications(page);

  // Five seconds of the button, sampled every 200 ms.
  const samples: { text: string; title: string; name: string }[] = [];
  for (let i = 0; i < 25; i++) {
    samples.push(
      await status.evaluate((element) => ({
        text: element.textContent?.trim() ?? '',
        title: element.getAttribute('title') ?? '',
        name: element.getAttribute('aria-label') ?? '',
      })),
    );
    await page.waitForTimeout(200);
  }
  const texts = samples.map((sample) => sample.text);
  const counters = texts.filter((text) => /^\d+$/.test(text)).map(Number);
  expect(
    texts.every((text) => text === 'TP' || /^\d+$/.test(text)),
    texts.join(' '),
  ).toBe(true);
  expect(texts.filter((text) => text === 'TP').length, texts.join(' ')).toBeGreaterThan(3);
  // An elapsed counter: it starts near 0 and goes up (a countdown of the default 50 s would start near 50 and
  // go down), in even seconds, because the odd ones show the label.
  expect(counters[0], texts.join(' ')).toBeLessThan(10);
  expect(counters, texts.join(' ')).toEqual([...counters].sort((a, b) => a - b));
  expect(new Set(counters).size, texts.join(' ')).toBeGreaterThanOrEqual(2);
  expect(
    counters.every((counter) => counter % 2 === 0),
    texts.join(' '),
  ).toBe(true);
  // The countdown stays in the tooltip, going down.
  const left = samples.map((sample) => Number(/the flag clears in (\d+) s/.exec(sample.title)?.[1]));
  expect(
    left.every((value) => value >= 0 && value <= 50),
    samples[0]!.title,
  ).toBe(true);
  expect(left.at(-1)!).toBeLessThan(left[0]!);
  // The accessible name does not change each second: it names the time of day the flag runs out.
  expect(new Set(samples.map((sample) => sample.name)).size).toBe(1);
  expect(samples[0]!.name).toMatch(
    /^Take profit: automatic closing is OFF, so the trade stays open; the flag clears at \d\d:\d\d:\d\d\. Click to clear it now\.$/,
  );
  expect(await status.getAttribute('class')).toContain('palette-green');

  // Pictures: the whole page (the footer's PNL badge with its net) and the row with its button.
  await page.mouse.move(5, 5);
  await page.waitForTimeout(300);
  await screenshot(page, 'spec-audit-status-footer-dark-en');
  await row.screenshot({ path: path.join(REPO, 'screenshots', 'spec-audit-status-row-dark-en.png') });
  await page
    .getByTestId('footer-current-pnl')
    .screenshot({ path: path.join(REPO, 'screenshots', 'spec-audit-footer-pnl-dark-en.png') });
  await expect
    .poll(() => page.getByTestId('footer-current-pnl-net').innerText())
    .toMatch(/^·\s*net\s*-?\d+\.\d\d \$$/);
});
