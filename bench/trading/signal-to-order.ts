// Client mode, signal to order (issue 9 item 2): "from the trade click to the exchange's order
// acknowledgement, median and p95 against the paper exchange".
//
// A real server process (`tsx server/src/server.ts`, fresh DATA_DIR, its embedded paper exchange and 30-day
// backfill) serving the built SPA (a copy of dist/, built first when missing); headless Chromium. A trader
// signs up in the page, sets the PIN and adds a trade token with the keys of a paper account made through the
// exchange's loopback admin API (as tests/e2e/trading-client.test.ts does), then on /trading, ROUNDS times:
// a real stored signal of the running engine (GET /signal/get_recent_signal_list/, a different one each
// time: one trade per signal per trader; BTCUSDT left out, its minimum notional is above the default order)
// is delivered as a signal_from_core frame through the proxied websocket (page.routeWebSocket, the real
// socket behind it), its card's trade button is clicked, and the script waits for 'Trade opened', then closes
// the trade with the row's close button (so the account stays flat and the next open starts alike).
// Measured, per round:
// - click → MARKET order acknowledged: the click is the event's timeStamp in the page (a capturing listener);
//   the acknowledgement is the end of the response to the opening POST /fapi/v1/order type=MARKET (its
//   newClientOrderId is the signal's sdo… id), from page.on('response') with request.timing(); the same
//   interval from the page's own Resource Timing entry is printed beside it as a cross-check;
// - click → 'Trade opened' notification in the DOM (a MutationObserver);
// - the exchange requests the page made before the market order (leverage, margin type, position mode, order
//   look-up, positionRisk), and the time from the click to the first of them.
// - the long tasks (≥ 50 ms) on the page's main thread and the CORS preflights (the exchange is another origin
//   and every signed request has a new query, so the preflight cache never hits) between click and acknowledgement.
// With --profile the SPA is built with source maps and the page's CPU profile over all rounds is summed by
// function (slower; not for the figures).
//   npx tsx bench/trading/signal-to-order.ts [rounds=30] [--profile]
import type { Page, Request, WebSocketRoute } from 'playwright-core';
import type { Signal, Trade } from '../../contracts';
import {
  launchBrowser,
  loadAverage,
  median,
  ms,
  percentile,
  prepareSpa,
  printTable,
  signUp,
  startServerProcess,
  type ServerProcess,
} from '../spa/harness';
import { profileSummary, type CpuProfile } from '../spa/profile';

const PROFILE = process.argv.includes('--profile');
const ROUNDS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 30);
const PIN = '24680';
const UNTRADABLE_WITH_DEFAULTS = new Set(['BTCUSDT']);

async function apiInPage<T>(page: Page, method: 'GET' | 'POST', apiPath: string, body?: object): Promise<T> {
  return page.evaluate(
    async ([url, verb, payload]) => {
      const response = await fetch(url, {
        method: verb,
        headers: {
          Authorization: localStorage.getItem('access_token') ?? '',
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        body: payload ? JSON.stringify(payload) : undefined,
      });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return (await response.json()).result;
    },
    [`/api/${apiPath}`, method, body] as const,
  ) as Promise<T>;
}

/** The page's websocket through Playwright (the real server behind it), so a frame can be added. */
async function proxySocket(page: Page) {
  const state: { route?: WebSocketRoute } = {};
  await page.routeWebSocket(/\/api\/ws_core\//, (route) => {
    const server = route.connectToServer();
    state.route = route;
    server.onMessage((message) => route.send(message));
    route.onMessage((message) => server.send(message));
  });
  return (signal: Signal) => {
    if (!state.route) throw new Error('the page has no websocket yet');
    const fresh = { ...signal, signal_created_at: new Date().toISOString() };
    state.route.send(
      JSON.stringify({
        event: 'signal_from_core',
        message: { signal_by_uuid: { [fresh.signal_uuid]: fresh }, trend_moment: fresh.trend_moment },
      }),
    );
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** On /trade_preferences: the PIN and a trade token with the paper account's keys (as the e2e helpers). */
async function setUpClientMode(page: Page, account: { api_key: string; api_secret: string }) {
  await page.getByRole('link', { name: 'Trade Preferences' }).click();
  const card = page.getByTestId('platform-card').filter({ hasText: 'Paper Futures' });
  await card.waitFor({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Enter PIN Code' }).click();
  await card.getByPlaceholder('Pin Code').fill(PIN);
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('pin-mask').waitFor();
  await card.getByRole('button', { name: 'Add new Trade Token' }).click();
  await card.getByTestId('api-key-input').fill(account.api_key);
  await card.getByTestId('api-secret-input').fill(account.api_secret);
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('trade-token-details').waitFor({ timeout: 20_000 });
  await until('the trade token to be AVAILABLE', async () =>
    (await card.getByTestId('trade-token-status').innerText()) === 'AVAILABLE' ? true : undefined,
  );
}

/** Page-side clocks: trade-button clicks and 'Trade opened' / 'Trade closed' notifications, epoch ms. */
function instrument(): void {
  const marks = {
    clicks: [] as { uuid: string; at: number }[],
    opened: [] as number[],
    closed: [] as number[],
    longTasks: [] as { at: number; duration: number }[],
  };
  (window as unknown as { __marks: typeof marks }).__marks = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      marks.longTasks.push({ at: performance.timeOrigin + entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask' });
  // The default buffer keeps 250 entries: far fewer than ROUNDS opens and closes make.
  performance.setResourceTimingBufferSize(100_000);
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest('[data-testid="signal-trade"]');
      const card = button?.closest('[data-testid="signal-card"]');
      if (card) {
        marks.clicks.push({
          uuid: card.getAttribute('data-signal-uuid') ?? '',
          at: performance.timeOrigin + event.timeStamp,
        });
      }
    },
    true,
  );
  new MutationObserver((records) => {
    const now = performance.timeOrigin + performance.now();
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        const notes = node.matches('[data-testid="notification"]')
          ? [node]
          : [...node.querySelectorAll('[data-testid="notification"]')];
        for (const note of notes) {
          if (note.textContent?.includes('Trade opened')) marks.opened.push(now);
          if (note.textContent?.includes('Trade closed')) marks.closed.push(now);
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}

interface Marks {
  clicks: { uuid: string; at: number }[];
  opened: number[];
  closed: number[];
  longTasks: { at: number; duration: number }[];
}
const marksOf = (page: Page) => page.evaluate(() => (window as unknown as { __marks: Marks }).__marks);

/** Resource Timing of the opening market order in the page: its responseEnd, epoch ms. */
const resourceEnd = (page: Page, clientId: string) =>
  page.evaluate((id) => {
    const entry = performance
      .getEntriesByType('resource')
      .find((item) => item.name.includes('/fapi/v1/order') && item.name.includes(`newClientOrderId=${id}`));
    return entry ? performance.timeOrigin + (entry as PerformanceResourceTiming).responseEnd : undefined;
  }, clientId);

interface ExchangeCall {
  path: string;
  method: string;
  clientId?: string;
  isMarket: boolean;
  isReduceOnly: boolean;
  startAt: number;
  endAt?: number;
}

async function main() {
  console.log(`load average at start: ${loadAverage()} (a shared 2-core machine)`);
  const spa = prepareSpa({ sourcemap: PROFILE });
  let server: ServerProcess | undefined;
  const browser = await launchBrowser();
  try {
    server = await startServerProcess(spa.dir);
    console.log(
      `server pid ${server.pid} ready in ${(server.startMs / 1000).toFixed(1)} s (with its backfill)`,
    );
    const accountResponse = await fetch(`${server.paperUrl}/admin/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': server.paperAdminToken },
      body: JSON.stringify({ balance: '10000' }),
    });
    const account = (await accountResponse.json()) as { api_key: string; api_secret: string };

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Every request to the paper exchange, with Playwright's timing once its response has ended.
    const calls: ExchangeCall[] = [];
    const paperOrigin = new URL(server.paperUrl).origin;
    page.on('requestfinished', (request: Request) => {
      const url = new URL(request.url());
      if (url.origin !== paperOrigin || request.method() === 'OPTIONS') return;
      const timing = request.timing();
      calls.push({
        path: url.pathname,
        method: request.method(),
        clientId: url.searchParams.get('newClientOrderId') ?? undefined,
        isMarket: url.searchParams.get('type') === 'MARKET',
        isReduceOnly: url.searchParams.get('reduceOnly') === 'true',
        startAt: timing.startTime,
        endAt: timing.responseEnd >= 0 ? timing.startTime + timing.responseEnd : undefined,
      });
    });
    // CORS preflights (OPTIONS) are not Playwright requests: the DevTools protocol reports them.
    const preflights: { startAt: number; endAt: number }[] = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const pending = new Map<string, { wallMs: number; monotonic: number }>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.type === 'Preflight' || event.request.method === 'OPTIONS') {
        pending.set(event.requestId, { wallMs: event.wallTime * 1000, monotonic: event.timestamp });
      }
    });
    cdp.on('Network.loadingFinished', (event) => {
      const sent = pending.get(event.requestId);
      if (!sent) return;
      pending.delete(event.requestId);
      preflights.push({
        startAt: sent.wallMs,
        endAt: sent.wallMs + (event.timestamp - sent.monotonic) * 1000,
      });
    });
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    }
    const deliver = await proxySocket(page);
    await page.goto(server.baseUrl);
    await signUp(page, `order-bench-${Date.now()}@example.com`, 'order-bench');

    // Stored signals before minimal_accuracy goes to 100 (which keeps the engine's own cards away).
    const { signal_list } = await apiInPage<{ signal_list: Signal[] }>(
      page,
      'GET',
      'signal/get_recent_signal_list/?limit=100',
    );
    const signals = signal_list.filter((signal) => !UNTRADABLE_WITH_DEFAULTS.has(signal.symbol.symbol_pair));
    if (signals.length < ROUNDS) throw new Error(`only ${signals.length} usable stored signals`);
    await apiInPage(page, 'POST', 'trade_preferences/set_preferences/', {
      trade_auto_open_delay: 0,
      trade_auto_close_delay: 0,
      minimal_accuracy: 100,
      trade_in_server_side: 0,
    });
    await page.reload();
    await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
    await setUpClientMode(page, account);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
    await page.getByTestId('signals-panel').waitFor();
    await page.evaluate(instrument);
    if (PROFILE) await cdp.send('Profiler.start');

    const toAck: number[] = [];
    const toAckResource: number[] = [];
    const toOpened: number[] = [];
    const toFirstCall: number[] = [];
    const callsBefore: number[] = [];
    /** Per round: long tasks (≥ 50 ms) on the page's main thread between the click and the acknowledgement. */
    const longTaskMs: number[] = [];
    const preflightCount: number[] = [];
    const preflightMs: number[] = [];
    const pairs = new Map<string, number>();
    /** Durations of the exchange requests before (and of) the market order, by request. */
    const byRequest = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const signal = signals[round]!;
      const clientId = `sdo${signal.signal_uuid.replace(/-/g, '')}`;
      const before = await marksOf(page);
      deliver(signal);
      const card = page.locator(`[data-testid="signal-card"][data-signal-uuid="${signal.signal_uuid}"]`);
      await card.getByTestId('signal-trade').click({ timeout: 15_000 });
      const marks = await until('Trade opened', async () => {
        const now = await marksOf(page);
        return now.opened.length > before.opened.length ? now : undefined;
      });
      const click = marks.clicks.at(-1);
      if (!click || click.uuid !== signal.signal_uuid) throw new Error('the click was not recorded');
      const market = await until('the market order', async () =>
        calls.find((call) => call.isMarket && !call.isReduceOnly && call.clientId === clientId && call.endAt),
      );
      const roundCalls = calls.filter((call) => call.startAt >= click.at && call.startAt <= market.startAt);
      toAck.push(market.endAt! - click.at);
      const resource = await resourceEnd(page, clientId);
      if (resource !== undefined) toAckResource.push(resource - click.at);
      toOpened.push(marks.opened[before.opened.length]! - click.at);
      toFirstCall.push((roundCalls[0]?.startAt ?? market.startAt) - click.at);
      callsBefore.push(roundCalls.length - 1);
      const blocked = marks.longTasks.filter((task) => task.at >= click.at - 1 && task.at <= market.endAt!);
      longTaskMs.push(blocked.reduce((sum, task) => sum + task.duration, 0));
      const roundPreflights = preflights.filter(
        (item) => item.startAt >= click.at && item.startAt <= market.startAt,
      );
      preflightCount.push(roundPreflights.length);
      preflightMs.push(roundPreflights.reduce((sum, item) => sum + (item.endAt - item.startAt), 0));
      for (const call of roundCalls) {
        const name = `${call.method} ${call.path}${call.isMarket ? ' (MARKET)' : ''}`;
        if (call.endAt !== undefined)
          byRequest.set(name, [...(byRequest.get(name) ?? []), call.endAt - call.startAt]);
      }
      pairs.set(signal.symbol.symbol_pair, (pairs.get(signal.symbol.symbol_pair) ?? 0) + 1);

      // Closed by hand, so the next round starts flat.
      const trade = await until('the trade in the open list', async () =>
        (await apiInPage<{ trade_list: Trade[] }>(page, 'GET', 'trade/get_trades/open/')).trade_list.find(
          (item) => item.signal_uuid === signal.signal_uuid,
        ),
      );
      const row = page.locator(`[data-testid="trade-row"][data-trade-uuid="${trade.trade_uuid}"]`);
      await row.getByTestId('trade-close').click({ timeout: 15_000 });
      await until('Trade closed', async () =>
        (await marksOf(page)).closed.length > before.closed.length ? true : undefined,
      );
      await row.waitFor({ state: 'detached', timeout: 15_000 });
      await page.waitForTimeout(300);
    }
    const cpuProfile = PROFILE ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined;
    console.log(`load average at end: ${loadAverage()}`);
    console.log(
      `\nclient mode, ${ROUNDS} trades from stored signals (${[...pairs].map(([pair, n]) => `${pair} ${n}`).join(', ')}), ` +
        'headless Chromium against the embedded paper exchange',
    );
    const row = (label: string, values: number[]) => [
      label,
      String(values.length),
      ms(median(values)),
      ms(percentile(values, 95)),
      ms(Math.min(...values)),
      ms(Math.max(...values)),
    ];
    printTable([
      ['from the trade click to', 'n', 'median', 'p95', 'min', 'max'],
      row('MARKET order acknowledged (page.on response)', toAck),
      row('  same, Resource Timing in the page', toAckResource),
      row("'Trade opened' shown", toOpened),
      row('first exchange request sent', toFirstCall),
      row('  long tasks in between (sum, ≥ 50 ms each)', longTaskMs),
      row('  CORS preflights in between (sum of their times)', preflightMs),
    ]);
    console.log(`CORS preflights before the market order: ${median(preflightCount)} a trade (median)`);
    console.log(
      `\nexchange requests from the click to the market order (median ${median(callsBefore)} before it):`,
    );
    printTable([
      ['request', 'n', 'median', 'p95'],
      ...[...byRequest].map(([name, values]) => [
        name,
        String(values.length),
        ms(median(values)),
        ms(percentile(values, 95)),
      ]),
    ]);
    if (cpuProfile) await profileSummary(cpuProfile, spa.dir, server.baseUrl);
    if (pageErrors.length > 0) console.log(`page errors: ${pageErrors.slice(0, 5).join(' | ')}`);
    console.log(
      `\nsignal-to-order: click → MARKET acknowledged median ${ms(median(toAck))}, p95 ${ms(percentile(toAck, 95))}; ` +
        `click → 'Trade opened' median ${ms(median(toOpened))}, p95 ${ms(percentile(toOpened, 95))} (n=${ROUNDS})`,
    );
  } finally {
    await browser.close();
    await server?.stop();
    spa.remove();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
