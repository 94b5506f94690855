// Helpers of the trading end-to-end tests (issue 7): the paper exchange's loopback admin API and its signed
// Binance API (so a test reads positionRisk, orders and fills with the same keys the trader uses), a real
// stored signal re-sent through the proxied websocket, the Signaldesk API as the page calls it, and exact
// decimal arithmetic (decimal.js) for the money checks.
import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, afterEach, expect } from 'vitest';
import type { Signal, Trade } from '../../contracts';
import { screenshot, signUp } from './harness';

export { Decimal };

/** How long to wait for a stored signal before giving up (the start-up history usually has dozens). */
export const SIGNAL_WAIT_MS = Number(process.env.STORED_SIGNAL_WAIT_MS ?? 150_000);

/** The money checks are exact: half away from zero, as the SPA's formatFixed. */
export const fixed = (value: Decimal.Value, decimals: number): string =>
  new Decimal(value).toFixed(decimals, Decimal.ROUND_HALF_UP);

// ------------------------------------------------------------------------------------------- paper exchange

export interface PaperAccount {
  api_key: string;
  api_secret: string;
}

export interface PositionRiskLine {
  symbol: string;
  positionAmt: string;
  entryPrice: string;
  markPrice: string;
  unRealizedProfit: string;
}

export interface FillLine {
  orderId: number;
  price: string;
  qty: string;
  realizedPnl: string;
  side: string;
}

/**
 * How often a poll that reads the exchange's signed API reads it. The exchange's request budget is per IP (2400
 * weight a minute, binance-fapi.md), and the test's reads come from the same loopback address as the server's:
 * at Vitest's default 50 ms, a poll of positionRisk (weight 5) spends the whole budget in 24 s, and from then on
 * the server's own calls and the poll itself get 429 (-1003), so the poll can never succeed.
 */
export const EXCHANGE_POLL_MS = 1000;

/** The embedded paper exchange: admin endpoints (loopback, admin token) and the signed API of one account. */
export class PaperExchange {
  constructor(
    readonly url: string,
    private readonly adminToken: string,
  ) {}

  async admin<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.url}/admin${path}`, {
      method,
      headers: {
        'x-admin-token': this.adminToken,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  createAccount(balance = '10000'): Promise<PaperAccount> {
    return this.admin<PaperAccount>('POST', '/accounts', { balance });
  }

  /** Pins the mark price (null releases it); the exchange runs its triggers at once. */
  async setPrice(symbol: string, price: string | null): Promise<void> {
    await this.admin('POST', '/price', { symbol, price });
  }

  async mark(symbol: string): Promise<string> {
    const market = await this.admin<{ marks: Record<string, string> }>('GET', '/market');
    const mark = market.marks[symbol];
    if (!mark) throw new Error(`no mark for ${symbol}`);
    return mark;
  }

  async setFaults(faults: object): Promise<void> {
    await this.admin('POST', '/faults', faults);
  }

  async clearFaults(): Promise<void> {
    await this.admin('DELETE', '/faults');
  }

  /** A signed request (HMAC-SHA256 over the query, as binance-fapi.md §2) with the account's keys. */
  async signed<T = unknown>(
    account: PaperAccount,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string | number> = {},
  ): Promise<T> {
    const query = new URLSearchParams({
      ...Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])),
      timestamp: String(Date.now()),
      recvWindow: '10000',
    }).toString();
    const signature = crypto.createHmac('sha256', account.api_secret).update(query).digest('hex');
    const response = await fetch(`${this.url}${path}?${query}&signature=${signature}`, {
      method,
      headers: { 'X-MBX-APIKEY': account.api_key },
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async positionRisk(account: PaperAccount, symbol: string): Promise<PositionRiskLine> {
    const lines = await this.signed<PositionRiskLine[]>(account, 'GET', '/fapi/v2/positionRisk', { symbol });
    const line = lines.find((item) => item.symbol === symbol);
    if (!line) throw new Error(`no positionRisk line for ${symbol}`);
    return line;
  }

  /** Open orders on both routes: /fapi/v1/openOrders and the Algo Order API's openAlgoOrders. */
  async openOrderCount(account: PaperAccount, symbol: string): Promise<number> {
    return (await this.openOrders(account, symbol)).length;
  }

  /** The client ids of the symbol's waiting orders, plain and algo, sorted. */
  async waitingIds(account: PaperAccount, symbol: string): Promise<string[]> {
    const orders = await this.openOrders(account, symbol);
    return orders.map((order) => String(order.clientAlgoId ?? order.clientOrderId)).sort();
  }

  /** The symbol's waiting orders, plain and algo (conditional), as the exchange lists them. */
  async openOrders(account: PaperAccount, symbol: string): Promise<Record<string, unknown>[]> {
    const [orders, algos] = await Promise.all([
      this.signed<Record<string, unknown>[]>(account, 'GET', '/fapi/v1/openOrders', { symbol }),
      this.signed<Record<string, unknown>[]>(account, 'GET', '/fapi/v1/openAlgoOrders', { symbol }),
    ]);
    return [...orders, ...algos];
  }

  async order(account: PaperAccount, symbol: string, clientId: string) {
    return this.signed<{ orderId: number; status: string; avgPrice: string; executedQty: string }>(
      account,
      'GET',
      '/fapi/v1/order',
      { symbol, origClientOrderId: clientId },
    );
  }

  /** The order an algo (conditional) order placed when it fired. */
  async algoOrder(account: PaperAccount, clientAlgoId: string) {
    return this.signed<{ algoStatus: string; actualOrderId: string | number }>(
      account,
      'GET',
      '/fapi/v1/algoOrder',
      { clientAlgoId },
    );
  }

  async fills(account: PaperAccount, symbol: string, orderId: number): Promise<FillLine[]> {
    return this.signed<FillLine[]>(account, 'GET', '/fapi/v1/userTrades', { symbol, orderId });
  }
}

/** The client order ids of a signal's trade (shared-core/trade-flow.ts clientOrderIds). */
export function clientOrderIds(signalUuid: string) {
  const key = signalUuid.replace(/-/g, '');
  return {
    open: `sdo${key}`,
    stop: `sds${key}`,
    close: `sdc${key}`,
    takeProfit: `sdt${key}`,
    trailing: `sdr${key}`,
    backstop: `sdb${key}`,
  };
}

/** What protects an open trade on the exchange: its stop-limit and the stop's market backstop (issue 54), sorted. */
export function stopAndBackstop(signalUuid: string): string[] {
  const ids = clientOrderIds(signalUuid);
  return [ids.stop, ids.backstop].sort();
}

/**
 * The fill that ended a trade on the exchange: its closing market order (`sdc…`), or the order its stop (or an
 * exit the exchange held, issue 35) placed when it fired. Answers the average price and the realized PNL the exchange booked.
 */
export async function closingFill(
  exchange: PaperExchange,
  account: PaperAccount,
  symbol: string,
  signalUuid: string,
  by: 'close_order' | 'stop' | 'takeProfit' | 'trailing',
): Promise<{ price: Decimal; realizedPnl: Decimal; qty: Decimal }> {
  const ids = clientOrderIds(signalUuid);
  const orderId =
    by === 'close_order'
      ? (await exchange.order(account, symbol, ids.close)).orderId
      : Number((await exchange.algoOrder(account, ids[by])).actualOrderId);
  const fills = await exchange.fills(account, symbol, orderId);
  expect(fills.length).toBeGreaterThan(0);
  const qty = Decimal.sum(...fills.map((fill) => fill.qty));
  const notional = Decimal.sum(...fills.map((fill) => new Decimal(fill.price).times(fill.qty)));
  return {
    price: notional.div(qty),
    realizedPnl: Decimal.sum(...fills.map((fill) => fill.realizedPnl)),
    qty,
  };
}

// ------------------------------------------------------------------------------------------- Signaldesk API

/** A GET of the Signaldesk API from the page, with the access token the SPA keeps. */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, {
      headers: { Authorization: localStorage.getItem('access_token') ?? '' },
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return (await response.json()).result;
  }, `/api/${path}`) as Promise<T>;
}

export async function apiPost<T>(page: Page, path: string, body: object): Promise<T> {
  return page.evaluate(
    async ([url, payload]) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          Authorization: localStorage.getItem('access_token') ?? '',
          'content-type': 'application/json',
        },
        body: JSON.stringify(payload),
      });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return (await response.json()).result;
    },
    [`/api/${path}`, body] as const,
  ) as Promise<T>;
}

export const openTrades = async (page: Page) =>
  (await apiGet<{ trade_list: Trade[] }>(page, 'trade/get_trades/open/')).trade_list;

/** Today's trades (the local day of the browser), as /trade_history reads them. */
export async function historyOfToday(page: Page): Promise<Trade[]> {
  const range = await page.evaluate(() => {
    const now = new Date();
    const start = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 0, 0, 0, 0);
    const end = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59, 99);
    return `start_date=${encodeURIComponent(start.toISOString())}&end_date=${encodeURIComponent(end.toISOString())}`;
  });
  return (await apiGet<{ trade_list: Trade[] }>(page, `trade/get_trades_history/?${range}`)).trade_list;
}

// ------------------------------------------------------------------------------------------- signals

/**
 * With the default platform preferences (10 USDT × 10) an order is about 100 USDT, rounded down to the symbol's
 * quantity step: below BTCUSDT's minimum notional (100 USDT on the paper exchange, as on Binance), so the
 * exchange refuses it (-4164). The tests trade other symbols; ETHUSDT (minimum 20 USDT) first.
 */
export const UNTRADABLE_WITH_DEFAULTS = ['BTCUSDT'];

/**
 * Real stored signals of the running engine for this trader (GET /signal/get_recent_signal_list/), `count`
 * distinct ones, all on one symbol when one has enough (`prefer` first, never `exclude`), or each on a symbol of
 * its own with `distinctPairs` (positions that must not merge in one-way mode). On a fresh start the engine
 * stores the signals of the history it loads (and the backfill, 30 days), so they are usually there at once;
 * otherwise this polls, and also takes live signals the proxied socket saw (`live`).
 */
export async function storedSignals(
  page: Page,
  count: number,
  live: () => readonly Signal[],
  {
    prefer = ['ETHUSDT'],
    exclude = UNTRADABLE_WITH_DEFAULTS,
    distinctPairs = false,
  }: { prefer?: string[]; exclude?: string[]; distinctPairs?: boolean } = {},
): Promise<Signal[]> {
  const deadline = Date.now() + SIGNAL_WAIT_MS;
  const rank = (pair: string) => (prefer.includes(pair) ? prefer.indexOf(pair) : prefer.length);
  for (;;) {
    const { signal_list } = await apiGet<{ signal_list: Signal[] }>(
      page,
      'signal/get_recent_signal_list/?limit=100',
    );
    const pool = new Map([...signal_list, ...live()].map((signal) => [signal.signal_uuid, signal]));
    const byPair = new Map<string, Signal[]>();
    for (const signal of pool.values()) {
      if (exclude.includes(signal.symbol.symbol_pair)) continue;
      const list = byPair.get(signal.symbol.symbol_pair) ?? [];
      list.push(signal);
      byPair.set(signal.symbol.symbol_pair, list);
    }
    const pairs = [...byPair.keys()].sort(
      (a, b) => rank(a) - rank(b) || (byPair.get(b)?.length ?? 0) - (byPair.get(a)?.length ?? 0),
    );
    if (distinctPairs) {
      const onePerPair = pairs.map((pair) => byPair.get(pair)![0]!);
      if (onePerPair.length >= count) return onePerPair.slice(0, count);
      if (Date.now() > deadline) {
        throw new Error(
          `stored signals on ${onePerPair.length} symbol(s) after ${SIGNAL_WAIT_MS} ms; ${count} needed`,
        );
      }
      await page.waitForTimeout(2000);
      continue;
    }
    const onePair = pairs.map((pair) => byPair.get(pair) ?? []).find((list) => list.length >= count);
    if (onePair) return onePair.slice(0, count);
    const mixed = pairs.flatMap((pair) => byPair.get(pair) ?? []);
    if (mixed.length >= count) return mixed.slice(0, count);
    if (Date.now() > deadline) {
      throw new Error(
        `only ${mixed.length} usable stored signal(s) after ${SIGNAL_WAIT_MS} ms; ${count} needed`,
      );
    }
    await page.waitForTimeout(2000);
  }
}

/**
 * Proxies the page's real websocket (Playwright routeWebSocket + connectToServer), so a test can add a frame
 * and see the engine's signals. Call before the page loads the app.
 */
export async function proxySocket(page: Page) {
  const state: { route?: WebSocketRoute; live: Signal[]; muted: boolean; connections: number } = {
    live: [],
    muted: false,
    connections: 0,
  };
  await page.routeWebSocket(/\/api\/ws_core\//, (route) => {
    const server = route.connectToServer();
    state.route = route;
    state.connections += 1;
    server.onMessage((message) => {
      const text = String(message);
      if (text.includes('"signal_from_core"')) {
        const event = JSON.parse(text) as { message: { signal_by_uuid: Record<string, Signal> } };
        state.live.push(...Object.values(event.message.signal_by_uuid));
        if (state.muted) return;
      }
      route.send(message);
    });
    route.onMessage((message) => server.send(message));
  });
  return {
    live: () => state.live,
    /** How many sockets the page has opened so far (each reconnect opens one). */
    connections: () => state.connections,
    /** While muted, the engine's own signal_from_core frames are kept from the page (deliver still works). */
    muteEngineSignals: (muted: boolean) => {
      state.muted = muted;
    },
    /** Sends any frame to the page as the server would (a test that must choose a value the server sends). */
    send: (frame: object) => {
      if (!state.route) throw new Error('the page has no websocket yet');
      state.route.send(JSON.stringify(frame));
    },
    /** Drops the page's socket as a network failure would (code 1006 is not sendable; 4000 stands for it). */
    drop: async () => {
      if (!state.route) throw new Error('the page has no websocket yet');
      await state.route.close({ code: 4000, reason: 'dropped by the test' });
    },
    /**
     * Delivers a stored signal of the running engine to the page as a signal_from_core frame, with
     * signal_created_at set to now (or `ageMs` before now, with sent_at now, so its countdown starts lower): re-sent, so the test need not wait minutes for the engine's next one.
     * Everything else is the stored signal as the API answered it (the server trades the stored signal).
     */
    deliver: (signal: Signal, { ageMs = 0 }: { ageMs?: number } = {}) => {
      if (!state.route) throw new Error('the page has no websocket yet');
      const now = Date.now();
      const fresh = { ...signal, signal_created_at: new Date(now - ageMs).toISOString() };
      state.route.send(
        JSON.stringify({
          event: 'signal_from_core',
          message: {
            signal_by_uuid: { [fresh.signal_uuid]: fresh },
            trend_moment: fresh.trend_moment,
            // The server's clock when it sent the frame: the page counts the card's age on it.
            ...(ageMs > 0 ? { sent_at: now } : {}),
          },
        }),
      );
    },
  };
}

// ------------------------------------------------------------------------------------------- SPA steps

export const notification = (page: Page, text: string | RegExp) =>
  page.getByTestId('notification').filter({ hasText: text });

/**
 * Closes every notification shown (they stay in the history), so that a notification expected after the next
 * step cannot be confused with an earlier one (shown ones also go by themselves after 6 s or 10 s).
 */
export async function dismissNotifications(page: Page): Promise<void> {
  const close = page.locator('[data-testid="notification"] .notification-close');
  for (let i = 0; i < 100 && (await close.count()) > 0; i += 1) {
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
  }
}

/** Waits until a notification with `text` shows (call dismissNotifications before the step). */
export async function expectNotification(page: Page, text: string | RegExp, timeout = 30_000) {
  await expect.poll(() => notification(page, text).count(), { timeout }).toBeGreaterThan(0);
}

export const paperCard = (page: Page) =>
  page.locator('[data-testid="platform-card"][data-platform-name="Paper Futures"]');

/** On /trade_preferences: sets the PIN of the Paper Futures card. */
export async function enterPin(page: Page, pinCode: string): Promise<void> {
  const card = paperCard(page);
  await card.waitFor({ timeout: 20_000 });
  const change = card.getByRole('button', { name: 'Change PIN Code' });
  await ((await change.isVisible()) ? change : card.getByRole('button', { name: 'Enter PIN Code' })).click();
  await card.getByPlaceholder('Pin Code').fill(pinCode);
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('pin-mask').waitFor();
}

/** On /trade_preferences: adds a trade token with the keys of a paper account the test created. */
export async function addTradeToken(page: Page, account: PaperAccount): Promise<void> {
  const card = paperCard(page);
  await card.getByRole('button', { name: 'Add new Trade Token' }).click();
  await card.getByTestId('api-key-input').fill(account.api_key);
  await card.getByTestId('api-secret-input').fill(account.api_secret);
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByTestId('trade-token-details').waitFor({ timeout: 20_000 });
  await expect
    .poll(() => card.getByTestId('trade-token-status').innerText(), { timeout: 20_000 })
    .toBe('AVAILABLE');
}

/** The price `percent` % away from `price` (up for a positive percent), at the symbol's precision. */
export function moved(price: Decimal.Value, percent: number, precision: number): string {
  return new Decimal(price)
    .times(new Decimal(100).plus(percent).div(100))
    .toFixed(precision, Decimal.ROUND_HALF_UP);
}

/**
 * The price at which a position's ROE is `roe` % (leverage `leverage`): entry moved by roe ÷ leverage %, up for
 * a BUY and down for a SELL, at the symbol's precision.
 */
export function priceAtRoe(
  trade: Pick<Trade, 'trade_direction' | 'trade_open_price' | 'trade_leverage'>,
  roe: number,
  precision: number,
): string {
  const sign = trade.trade_direction === 'BUY' ? 1 : -1;
  return moved(trade.trade_open_price, (sign * roe) / trade.trade_leverage, precision);
}

/** Realized PNL of a closed position, exactly: (close − open) × quantity, negated for a SELL. */
export function realizedPnl(
  trade: Pick<Trade, 'trade_direction' | 'trade_open_price' | 'trade_quantity'>,
  close: Decimal.Value,
): Decimal {
  const move = new Decimal(close).minus(trade.trade_open_price).times(trade.trade_quantity);
  return trade.trade_direction === 'BUY' ? move : move.negated();
}

export const tradeRow = (page: Page, tradeUuid: string) =>
  page.locator(`[data-testid="trade-row"][data-trade-uuid="${tradeUuid}"]`);

export const signalCard = (page: Page, signalUuid: string) =>
  page.locator(`[data-testid="signal-card"][data-signal-uuid="${signalUuid}"]`);

/**
 * On /trading: delivers the signal, clicks its card's trade button, waits for 'Trade opened', the card to go
 * and the row to show; answers the trade as the server lists it.
 */
export async function openFromSignal(
  page: Page,
  socket: { deliver: (signal: Signal) => void },
  signal: Signal,
): Promise<Trade> {
  await dismissNotifications(page);
  socket.deliver(signal);
  const card = signalCard(page, signal.signal_uuid);
  await card.getByTestId('signal-trade').click({ timeout: 15_000 });
  await expectNotification(page, 'Trade opened', 60_000);
  await card.waitFor({ state: 'detached', timeout: 15_000 });
  const trade = await openTradeOf(page, signal.signal_uuid);
  await tradeRow(page, trade.trade_uuid).waitFor({ timeout: 15_000 });
  return trade;
}

/** A trader's page as both trading files start it (see openTraderSession). */
export interface TraderSession {
  page: Page;
  errors: string[];
  /** The page's console errors and warnings, printed when a test fails. */
  consoleLines: string[];
  socket: Awaited<ReturnType<typeof proxySocket>>;
  exchange: PaperExchange;
  account: PaperAccount;
  signals: Signal[];
}

/**
 * Signs a new trader up on a fresh paper account, takes `signalCount` real stored signals, and saves the global
 * preferences: minimal_accuracy 100 unless told, so no live signal of the engine reaches this trader and flags a
 * trade under test DIRECTION_SIGNAL / REVERSE_SIGNAL (the test delivers the cards itself), `autoCloseDelayS`,
 * `autoOpenDelayS` and the mode. The page is reloaded so it reads them.
 */
export async function openTraderSession(
  app: { baseUrl: string; paperUrl: string; paperAdminToken: string },
  browser: Browser,
  {
    name,
    signalCount,
    autoCloseDelayS,
    autoOpenDelayS = 0,
    serverSide = false,
    minimalAccuracy = 100,
    exitsOnExchange = false,
    followWhenAway = false,
    oneClickClose = true,
    signalOptions,
  }: {
    name: string;
    signalCount: number;
    autoCloseDelayS: number;
    /** trade_auto_open_delay (0 = OFF). */
    autoOpenDelayS?: number;
    /** trade_in_server_side 1 (Server) instead of 0. */
    serverSide?: boolean;
    /** minimal_accuracy; 100 (the default here) keeps every live signal of the engine from this trader. */
    minimalAccuracy?: number;
    /**
     * trade_exits_on_exchange (issue 35): off here unless asked, so the files about the monitor's flags and the
     * page's countdown test that path (the preference off keeps it); exits-on-exchange.test.ts turns it on.
     */
    exitsOnExchange?: boolean;
    /**
     * trade_follow_when_away (issue 37): off here unless asked, so the client-mode files about the page's own
     * reconciliation and the monitor's flags test that path (a followed account's closes are recorded by the
     * server's stream before the page can see them); exits-on-exchange.test.ts turns it on. Server mode is
     * followed whatever it says.
     */
    followWhenAway?: boolean;
    /**
     * trade_one_click_close (issue 39): on here unless asked, so the files that close by hand click Close once;
     * screens.test.ts keeps the product's default (off: Close asks first).
     */
    oneClickClose?: boolean;
    signalOptions?: Parameters<typeof storedSignals>[3];
  },
): Promise<TraderSession> {
  const exchange = new PaperExchange(app.paperUrl, app.paperAdminToken);
  const account = await exchange.createAccount('10000');
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  const consoleLines: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleLines.push(message.text());
  });
  const socket = await proxySocket(page);
  await page.goto(app.baseUrl);
  await signUp(page, `${name}-${Date.now()}@example.com`, name);
  const signals = await storedSignals(page, signalCount, socket.live, signalOptions);
  console.info(
    `${name}: stored signals ${signals
      .map((item) => `${item.symbol.symbol_pair} ${item.signal_direction_created} ${item.signal_created_at}`)
      .join(', ')}`,
  );
  await apiPost(page, 'trade_preferences/set_preferences/', {
    trade_auto_open_delay: autoOpenDelayS,
    trade_auto_close_delay: autoCloseDelayS,
    minimal_accuracy: minimalAccuracy,
    trade_in_server_side: serverSide ? 1 : 0,
    trade_exits_on_exchange: exitsOnExchange ? 1 : 0,
    trade_follow_when_away: followWhenAway ? 1 : 0,
    trade_one_click_close: oneClickClose ? 1 : 0,
  });
  await page.reload();
  await page.getByTestId('profile-block').waitFor({ timeout: 20_000 });
  return { page, errors, consoleLines, socket, exchange, account, signals };
}

/** After a failed test: the notifications, the last console lines and a screenshot of the trader's page. */
export function reportFailures(label: string, session: () => TraderSession | undefined): void {
  afterEach(async (context) => {
    const s = session();
    if (context.task.result?.state !== 'fail' || !s?.page || s.page.isClosed()) return;
    const texts = await s.page.getByTestId('notification').allInnerTexts();
    console.info(`${label}: notifications at the failure:\n${texts.join('\n---\n')}`);
    console.info(`${label}: console:\n${s.consoleLines.slice(-30).join('\n')}`);
    await screenshot(s.page, `${label}-failure-${context.task.name.slice(0, 20).replace(/\W+/g, '-')}`);
  });
}

/**
 * Mark prices a test file pins on the paper exchange (its triggers then run at once), released after the
 * file's tests with any fault left on. `session` is read at each call: the session starts inside a test.
 */
export function pinnedPrices(session: () => Pick<TraderSession, 'exchange' | 'account'> | undefined) {
  const pinned = new Map<string, PaperExchange>();
  afterAll(async () => {
    for (const [pair, exchange] of pinned) await exchange.setPrice(pair, null).catch(() => undefined);
    for (const exchange of new Set(pinned.values())) await exchange.clearFaults().catch(() => undefined);
  });
  const current = () => {
    const s = session();
    if (!s) throw new Error('no trader session yet');
    return s;
  };
  /** Pins the symbol's mark price. */
  const pin = async (pair: string, price: string) => {
    const { exchange } = current();
    pinned.set(pair, exchange);
    await exchange.setPrice(pair, price);
  };
  return {
    pin,
    /** Pins the symbol where its mark is now, so a trade opens at a known price and nothing drifts. */
    holdPrice: async (signal: Signal) => {
      const mark = await current().exchange.mark(signal.symbol.symbol_pair);
      await pin(signal.symbol.symbol_pair, fixed(mark, signal.symbol.symbol_price_precision));
    },
    /** The exchange is flat on the symbol and has no order left there (no stop waiting for a later position). */
    expectFlat: async (pair: string) => {
      const { exchange, account } = current();
      await expect
        .poll(async () => new Decimal((await exchange.positionRisk(account, pair)).positionAmt).isZero(), {
          timeout: 15_000,
          interval: EXCHANGE_POLL_MS,
        })
        .toBe(true);
      // Nothing left waiting either. A close the server recorded from the account's stream (issue 37) leaves its
      // orders for the page to cancel moments later, so this waits as the position does; the orders themselves in
      // the message, so a failure says which one was left.
      let left: unknown[] = [];
      await expect
        .poll(
          async () => {
            left = await exchange.openOrders(account, pair);
            return left.length;
          },
          { timeout: 15_000, interval: EXCHANGE_POLL_MS },
        )
        .toBe(0)
        .catch(() => expect(left, JSON.stringify(left)).toEqual([]));
    },
    /** Pins `price` and waits until the trade's row shows the exchange's unrealized PNL there, to the cent. */
    expectRowPnlAt: async (page: Page, trade: Trade, price: string, timeout = 20_000) => {
      const { exchange, account } = current();
      const pair = trade.symbol.symbol_pair;
      await pin(pair, price);
      const row = tradeRow(page, trade.trade_uuid);
      await expect
        .poll(
          async () => {
            const line = await exchange.positionRisk(account, pair);
            // On screen, as a trader sees it: an off-screen row's numbers wait until it is scrolled back to.
            await row.scrollIntoViewIfNeeded();
            const shown = await row.getByTestId('trade-pnl').innerText();
            return new Decimal(line.markPrice).eq(price) && shown === fixed(line.unRealizedProfit, 2);
          },
          { timeout, interval: EXCHANGE_POLL_MS },
        )
        .toBe(true);
      return row;
    },
  };
}

/** The open trade of a signal, once the page's read of the open trades lists it. */
export async function openTradeOf(page: Page, signalUuid: string, timeout = 15_000): Promise<Trade> {
  let trade: Trade | undefined;
  await expect
    .poll(
      async () => {
        trade = (await openTrades(page)).find((item) => item.signal_uuid === signalUuid);
        return trade !== undefined;
      },
      { timeout },
    )
    .toBe(true);
  return trade!;
}
