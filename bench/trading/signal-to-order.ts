// Signal to order, at the distance a trader trades from (issue 16 item 5): from the trade click on a signal
// card to the exchange's acknowledgement of the MARKET order, in client mode (the page signs; its requests go
// through our relay, or straight to the exchange where a platform allows browsers) and in server mode (the
// server signs), with the paper exchange's latency fault adding --exchange-latency-ms to every request of the
// trader's account: one round trip to an exchange 100–250 ms away.
//
// A real server process (`tsx server/src/server.ts`, fresh DATA_DIR, its embedded paper exchange and 30-day
// backfill) serving the built SPA (a copy of dist/, built first when missing); headless Chromium. For each
// mode a trader signs up in a page, picks the mode, sets the PIN and adds a trade token with the keys of a
// paper account of its own (made through the exchange's loopback admin API), then on /trading, ROUNDS times:
// a real stored signal of the running engine (a different one each time: one trade per signal per trader;
// BTCUSDT left out, its minimum notional is above the default order) is delivered as a signal_from_core frame
// through the proxied websocket (page.routeWebSocket, the real socket behind it), its card's trade button is
// clicked, and the script waits for 'Trade opened', then closes the trade with the row's close button (so the
// account stays flat and the next open starts alike).
// Measured, per round:
// - click → MARKET acknowledged. The click is the event's timeStamp in the page (a capturing listener). The
//   acknowledgement is, in client mode, the end of the page's response to the MARKET order (page.on
//   'requestfinished', its newClientOrderId is the signal's sdo… id); in server mode, when the exchange's
//   answer left for the server (the paper exchange's request log; the server is on the same host). Both
//   clocks are this machine's.
// - exchange round trips before it: from the paper exchange's request log, the requests of the open (settings,
//   the order look-up, positionRisk of the symbol), each one level deeper than the deepest request answered
//   before it arrived; the MARKET order's level is the number of round trips it waited on.
// - click → 'Trade opened' in the DOM (a MutationObserver), and the long tasks (≥ 50 ms) on the page's main
//   thread and the CORS preflights between click and acknowledgement.
//   npx tsx bench/trading/signal-to-order.ts [rounds=30] [--exchange-latency-ms N] [--mode client|server|both] [--profile]
import type { Page, Request, WebSocketRoute } from 'playwright-core';
import type { Signal, Trade } from '../../contracts';
import type { LoggedRequest } from '../../paper-exchange/src/request-log';
import {
  api,
  launchBrowser,
  loadAverage,
  median,
  ms,
  percentile,
  prepareSpa,
  printTable,
  signUp,
  signUpApi,
  startServerProcess,
  type ServerProcess,
} from '../spa/harness';
import { profileSummary, type CpuProfile } from '../spa/profile';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const PROFILE = args.includes('--profile');
const LATENCY_MS = Number(flag('--exchange-latency-ms') ?? 0);
const MODE_ARG = flag('--mode') ?? 'both';
const MODES = (MODE_ARG === 'both' ? ['client', 'server'] : [MODE_ARG]) as Mode[];
const ROUNDS = Number(
  args.find(
    (arg, index) => /^\d+$/.test(arg) && !['--exchange-latency-ms', '--mode'].includes(args[index - 1]!),
  ) ?? 30,
);
const PIN = '24680';
const UNTRADABLE_WITH_DEFAULTS = new Set(['BTCUSDT']);
/** The requests of an open before its MARKET order (shared-core/trade-flow.ts openPosition). */
const OPEN_CALLS = new Set([
  'POST /fapi/v1/leverage',
  'POST /fapi/v1/marginType',
  'POST /fapi/v1/positionSide/dual',
  'GET /fapi/v1/order',
  'GET /fapi/v2/positionRisk',
]);

type Mode = 'client' | 'server';

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
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** On /trade_preferences: the PIN and a trade token with the paper account's keys (as the e2e helpers). */
async function setUpToken(page: Page, account: { api_key: string; api_secret: string }) {
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

/** The MARKET order's round-trip level: requests of the open, each one deeper than what was answered before. */
function roundTripsBefore(requests: readonly LoggedRequest[], market: LoggedRequest): number {
  const depth = new Map<LoggedRequest, number>();
  for (const request of [...requests, market].sort((a, b) => a.receivedAt - b.receivedAt)) {
    const before = [...depth.keys()].filter(
      (other) => other.answeredAt !== undefined && other.answeredAt <= request.receivedAt,
    );
    depth.set(request, before.length ? Math.max(...before.map((other) => depth.get(other)! + 1)) : 0);
  }
  return depth.get(market)!;
}

interface ModeResult {
  mode: Mode;
  toAck: number[];
  toOpened: number[];
  roundTrips: number[];
  longTaskMs: number[];
  preflights: number[];
  pairs: Map<string, number>;
  cpuProfile?: CpuProfile;
  pageErrors: string[];
}

async function runMode(
  mode: Mode,
  server: ServerProcess,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  signals: Signal[],
): Promise<ModeResult> {
  // State-changing admin calls carry the exchange's admin token (paper-exchange/src/admin-guard.ts).
  const admin = { 'content-type': 'application/json', 'x-admin-token': server.paperAdminToken };
  const created = await fetch(`${server.paperUrl}/admin/accounts`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ balance: '10000' }),
  });
  const account = (await created.json()) as { api_key: string; api_secret: string };
  const exchangeLog = async (since: number) => {
    const url = `${server.paperUrl}/admin/requests?account=${account.api_key}&since=${Math.floor(since) - 5}`;
    return ((await (await fetch(url)).json()) as { requests: LoggedRequest[] }).requests;
  };

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const responses: { clientId?: string; isMarket: boolean; endAt?: number }[] = [];
  page.on('requestfinished', (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.endsWith('/fapi/v1/order') || request.method() !== 'POST') return;
    const timing = request.timing();
    responses.push({
      clientId: url.searchParams.get('newClientOrderId') ?? undefined,
      isMarket: url.searchParams.get('type') === 'MARKET',
      endAt: timing.responseEnd >= 0 ? timing.startTime + timing.responseEnd : undefined,
    });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const preflightAt: number[] = [];
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.type === 'Preflight' || event.request.method === 'OPTIONS')
      preflightAt.push(event.wallTime * 1000);
  });
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  }
  const deliver = await proxySocket(page);
  await page.goto(server.baseUrl);
  await signUp(page, `order-bench-${mode}-${Date.now()}@example.com`, `bench-${mode}`);
  // minimal_accuracy 100 keeps the engine's own cards away; the mode is the trader's choice.
  await apiInPage(page, 'POST', 'trade_preferences/set_preferences/', {
    trade_auto_open_delay: 0,
    trade_auto_close_delay: 0,
    minimal_accuracy: 100,
    trade_in_server_side: mode === 'server' ? 1 : 0,
  });
  await page.reload();
  await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
  await setUpToken(page, account);
  // Every request of this trader's exchange account from now on waits LATENCY_MS at the exchange.
  if (LATENCY_MS > 0) {
    await fetch(`${server.paperUrl}/admin/faults`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ account: account.api_key, latencyMs: LATENCY_MS }),
    });
  }
  await page.getByTestId('sidebar').getByRole('link', { name: 'Trading' }).click();
  await page.getByTestId('signals-panel').waitFor();
  await page.evaluate(instrument);
  if (PROFILE) await cdp.send('Profiler.start');

  const result: ModeResult = {
    mode,
    toAck: [],
    toOpened: [],
    roundTrips: [],
    longTaskMs: [],
    preflights: [],
    pairs: new Map(),
    pageErrors,
  };
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
    const logged = await exchangeLog(click.at);
    const market = logged.find((entry) => entry.type === 'MARKET' && entry.clientId === clientId);
    if (!market?.answeredAt) throw new Error(`the exchange has no answered MARKET order ${clientId}`);
    const openCalls = logged.filter(
      (entry) =>
        entry.receivedAt < market.receivedAt &&
        OPEN_CALLS.has(`${entry.method} ${entry.path}`) &&
        (entry.symbol === undefined || entry.symbol === signal.symbol.symbol_pair),
    );
    result.roundTrips.push(roundTripsBefore(openCalls, market));
    let ackAt = market.answeredAt;
    if (mode === 'client') {
      const seen = await until('the MARKET answer in the page', async () =>
        responses.find((item) => item.isMarket && item.clientId === clientId && item.endAt),
      );
      ackAt = seen.endAt!;
    }
    result.toAck.push(ackAt - click.at);
    result.toOpened.push(marks.opened[before.opened.length]! - click.at);
    const blocked = marks.longTasks.filter((task) => task.at >= click.at - 1 && task.at <= ackAt);
    result.longTaskMs.push(blocked.reduce((sum, task) => sum + task.duration, 0));
    result.preflights.push(preflightAt.filter((at) => at >= click.at && at <= ackAt).length);
    result.pairs.set(signal.symbol.symbol_pair, (result.pairs.get(signal.symbol.symbol_pair) ?? 0) + 1);

    // Closed by hand, so the next round starts flat.
    const trade = await until('the trade in the open list', async () =>
      (await apiInPage<{ trade_list: Trade[] }>(page, 'GET', 'trade/get_trades/open/')).trade_list.find(
        (item) => item.signal_uuid === signal.signal_uuid,
      ),
    );
    const row = page.locator(`[data-testid="trade-row"][data-trade-uuid="${trade.trade_uuid}"]`);
    await row.getByTestId('trade-close').click({ timeout: 15_000 });
    await until(
      'Trade closed',
      async () => ((await marksOf(page)).closed.length > before.closed.length ? true : undefined),
      60_000,
    );
    await row.waitFor({ state: 'detached', timeout: 15_000 });
  }
  if (PROFILE) result.cpuProfile = (await cdp.send('Profiler.stop')).profile as CpuProfile;
  await context.close();
  return result;
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
    const reader = await signUpApi(server.baseUrl, 'signal-reader');
    const { signal_list } = await api<{ signal_list: Signal[] }>(
      server.baseUrl,
      'GET',
      'signal/get_recent_signal_list/?limit=100',
      reader.authorization,
    );
    const signals = signal_list.filter((signal) => !UNTRADABLE_WITH_DEFAULTS.has(signal.symbol.symbol_pair));
    if (signals.length < ROUNDS) throw new Error(`only ${signals.length} usable stored signals`);

    const results: ModeResult[] = [];
    for (const mode of MODES) results.push(await runMode(mode, server, browser, signals));
    console.log(`load average at end: ${loadAverage()}`);
    console.log(
      `\n${ROUNDS} trades per mode from stored signals, headless Chromium, the embedded paper exchange with ` +
        `${LATENCY_MS} ms added to every request of the trader's account`,
    );
    const row = (label: string, values: number[], unit = ms) => [
      label,
      String(values.length),
      unit(median(values)),
      unit(percentile(values, 95)),
      unit(Math.min(...values)),
      unit(Math.max(...values)),
    ];
    const count = (value: number) => String(value);
    for (const result of results) {
      console.log(
        `\n${result.mode} mode (${[...result.pairs].map(([pair, n]) => `${pair} ${n}`).join(', ')})`,
      );
      printTable([
        ['from the trade click to', 'n', 'median', 'p95', 'min', 'max'],
        row('MARKET order acknowledged', result.toAck),
        row("'Trade opened' shown", result.toOpened),
        row('exchange round trips before the MARKET order', result.roundTrips, count),
        row('long tasks before the acknowledgement (sum, ≥ 50 ms each)', result.longTaskMs),
        row('CORS preflights before the acknowledgement', result.preflights, count),
      ]);
      if (result.cpuProfile) await profileSummary(result.cpuProfile, spa.dir, server.baseUrl);
      if (result.pageErrors.length > 0)
        console.log(`page errors: ${result.pageErrors.slice(0, 5).join(' | ')}`);
    }
    console.log('');
    for (const result of results) {
      console.log(
        `signal-to-order ${result.mode}: click → MARKET acknowledged median ${ms(median(result.toAck))}, ` +
          `p95 ${ms(percentile(result.toAck, 95))}; exchange round trips before it: ${median(result.roundTrips)}`,
      );
    }
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
