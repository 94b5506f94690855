// What reconciliation (a server-mode balance read) and Repair (DELETE /api/trade/delete_trade_errors/) do with
// what a server killed in the middle of its work leaves behind (issue 9, "Faults"; docs/server.md "Faults"),
// in process against the real paper exchange and an in-memory PGlite. A kill leaves the 'opening' row the create
// route stores before its exchange calls (services/trades.ts insertTrade) and whatever of openPosition's orders
// reached the exchange under the signal's ids; each such state is set up here exactly as the route leaves it.
// The kill itself, of the real process, is tests/faults/process-kill.e2e.test.ts.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TradeError, TradeStatus, tradeListAnswer, type ServerEvent, type Trade } from '../../contracts';
import { startPaperExchange, type PaperExchangeHandle } from '../../paper-exchange/src/index';
import { ExchangeClient } from '../../shared-core/exchange-client';
import { clientOrderIds } from '../../shared-core/trade-flow';
import { mulDecimals, orderQuantity, roundDecimal, stopPrice } from '../../shared-core/trade-core-node';
import { trades } from '../../server/src/db/schema-trades';
import { PAPER_PLATFORM_UUID } from '../../server/src/services/platforms';
import { STALE_OPENING_MS } from '../../server/src/services/trade-reconciler';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../server/test/test-app';
import { insertTrade, tradeOrigin } from '../../server/src/services/trades';

const PIN = '24680';
const PAIRS = ['ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'LINKUSDT', 'ADAUSDT', 'BNBUSDT', 'DOGEUSDT'];
let exchange: PaperExchangeHandle;
let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let account: { api_key: string; api_secret: string };
let client: ExchangeClient;
/** Everything the hub sent to the trader's sockets. */
const pushed: ServerEvent[] = [];

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 33 });
  t = await createTestApp({ exchange });
  trader = await signUpAndLogIn(t.app, 'crash');
  const created = await call('POST', '/api/paper_exchange/create_account/', { balance: 10000 });
  account = created.json().result;
  const stored = await call('POST', '/api/trade_token/create_trade_token/', {
    ...account,
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: PIN,
  });
  expect(stored.statusCode, stored.body).toBe(200);
  client = new ExchangeClient({ baseUrl: exchange.url, credentials: account });
  const send = t.hub.sendToUser.bind(t.hub);
  t.hub.sendToUser = (user, event) => {
    if (user === trader.user_uuid) pushed.push(event);
    send(user, event);
  };
});

afterEach(() => exchange.admin.clearFaults());

afterAll(async () => {
  for (const pair of PAIRS) exchange?.admin.setPrice(pair, null);
  await t?.close();
  await exchange?.close();
});

function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: trader.headers, ...(payload ? { payload } : {}) });
}

/** A signed GET of the trader's exchange account (what the exchange holds, read directly). */
async function exchangeGet<T>(path: string, params: Record<string, string>): Promise<T> {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()), recvWindow: '10000' });
  const signature = crypto.createHmac('sha256', account.api_secret).update(query.toString()).digest('hex');
  const response = await fetch(`${exchange.url}${path}?${query}&signature=${signature}`, {
    headers: { 'X-MBX-APIKEY': account.api_key },
  });
  return (await response.json()) as T;
}

/** Every algo order waiting on the symbol: stops (`sds…`) and the exits the exchange holds (issue 35). */
const algosOn = (pair: string) =>
  exchangeGet<{ clientAlgoId: string; triggerPrice: string; quantity: string }[]>('/fapi/v1/openAlgoOrders', {
    symbol: pair,
  });
/** The stops waiting on the symbol. */
const stopsOn = async (pair: string) =>
  (await algosOn(pair)).filter((algo) => algo.clientAlgoId.startsWith('sds'));

const positionOf = async (pair: string) => Number((await client.getPositionRisk(pair)).positionAmt);

async function symbolOf(pair: string) {
  const answer = await call('GET', '/api/symbol/get_available_symbols_dict/');
  const dict = answer.json().result.symbol_dict as Record<
    string,
    { symbol_pair: string; symbol_price_precision: number; symbol_quantity_precision: number }
  >;
  const symbol = Object.values(dict).find((item) => item.symbol_pair === pair);
  if (!symbol) throw new Error(`no symbol ${pair}`);
  return symbol;
}

/**
 * The state a server killed mid-open leaves: the create route's 'opening' row, stored before the exchange calls
 * (`ageMs` ago: by default long enough that no open can still be running it), and, when `filled`, the market
 * order openPosition sent under the signal's `sdo…` id.
 */
async function interruptedOpen(
  pair: string,
  price: string,
  { filled = true, ageMs = STALE_OPENING_MS + 60_000 } = {},
) {
  exchange.admin.setPrice(pair, price);
  const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: pair });
  const origin = await tradeOrigin(t.db, signal.signal_uuid, TEST_TRADE_SETTINGS.trade_leverage);
  const ids = clientOrderIds(signal.signal_uuid);
  const row = await insertTrade(t.db, {
    user_uuid: trader.user_uuid,
    origin,
    settings: TEST_TRADE_SETTINGS,
    trade_in_server_side: 1,
    opening_order_id: ids.open,
    now: new Date(t.clock.now() - ageMs),
  });
  const symbol = await symbolOf(pair);
  const quantity = orderQuantity({
    margin: TEST_TRADE_SETTINGS.trade_margin,
    leverage: TEST_TRADE_SETTINGS.trade_leverage,
    entryPrice: price,
    quantityPrecision: symbol.symbol_quantity_precision,
  });
  if (filled) {
    await client.setLeverage(pair, TEST_TRADE_SETTINGS.trade_leverage);
    await client.setMarginTypeIsolated(pair);
    await client.setOneWayMode();
    await client.placeMarketOrder({ symbol: pair, side: 'BUY', quantity, newClientOrderId: ids.open });
  }
  /** The stop price of SPEC.md §5 for the position's entry, and its limit 1 % beyond (trade-flow's). */
  const stop = async () => {
    const entry = (await client.getPositionRisk(pair)).entryPrice;
    const trigger = stopPrice({
      direction: 'BUY',
      entryPrice: entry,
      stopLossPercent: TEST_TRADE_SETTINGS.trade_stop_loss_percent,
      leverage: TEST_TRADE_SETTINGS.trade_leverage,
      pricePrecision: symbol.symbol_price_precision,
    });
    return {
      entry,
      trigger,
      limit: roundDecimal(mulDecimals(trigger, '0.99'), symbol.symbol_price_precision),
    };
  };
  return { row, ids, quantity, stop };
}

/** A balance read with the PIN, as the SPA makes every 30 s; it starts the reconciliation, awaited here. */
async function balanceRead() {
  const answer = await call('POST', '/api/account_balance/get_account_balance/', {
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: PIN,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  await t.tradeDesk.idle();
}

async function repair(): Promise<number> {
  const answer = await call('DELETE', '/api/trade/delete_trade_errors/', {
    pin_code_by_platform_uuid: { [PAPER_PLATFORM_UUID]: PIN },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().result.count as number;
}

async function listed(tradeUuid: string): Promise<Trade | undefined> {
  const answer = tradeListAnswer.parse((await call('GET', '/api/trade/get_trades/open/')).json());
  return answer.result.trade_list.find((trade) => trade.trade_uuid === tradeUuid);
}

const pushedFor = (tradeUuid: string) =>
  pushed.filter(
    (event) => event.event === 'trade_updated_response_from_core' && event.message.trade_uuid === tradeUuid,
  );

describe('a server killed between the market order and the stop', () => {
  it('the next balance read completes the open: the stop placed, the trade listed, watched and pushed', async () => {
    const { row, ids, quantity, stop } = await interruptedOpen('ETHUSDT', '3000');
    // While it is 'opening' the trader is shown nothing, and the position has no stop.
    expect(await listed(row.trade_uuid)).toBeUndefined();
    expect(await stopsOn('ETHUSDT')).toEqual([]);

    await balanceRead();
    const trade = await listed(row.trade_uuid);
    const { entry, trigger } = await stop();
    expect(trade).toMatchObject({
      trade_status: TradeStatus.OPEN,
      trade_error: null,
      trade_quantity: quantity,
      trade_stop_order_id: ids.stop,
      trade_stop_price: trigger,
    });
    expect(Number(trade!.trade_open_price)).toBe(Number(entry));
    const stops = await stopsOn('ETHUSDT');
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ clientAlgoId: ids.stop });
    expect(Number(stops[0]!.triggerPrice)).toBe(Number(trigger));
    expect(Number(stops[0]!.quantity)).toBe(Number(quantity));
    // The trader's sockets are told at once: the SPA reads the list again for a trade it does not know.
    expect(pushedFor(row.trade_uuid).at(-1)).toMatchObject({
      message: { trade_update_calculated: { trade_status: TradeStatus.OPEN } },
    });
    expect(t.monitor.calculated(row.trade_uuid)).toBeDefined();
  });

  it('a stop the killed open had placed already is kept, not doubled', async () => {
    const { row, ids, quantity, stop } = await interruptedOpen('SOLUSDT', '150');
    // The process died after the stop, before it stored the trade as ready.
    const { trigger, limit } = await stop();
    await client.placeStopOrder({
      symbol: 'SOLUSDT',
      side: 'SELL',
      quantity,
      stopPrice: trigger,
      price: limit,
      clientId: ids.stop,
    });
    expect(await stopsOn('SOLUSDT')).toHaveLength(1);
    await balanceRead();
    expect(await listed(row.trade_uuid)).toMatchObject({ trade_error: null, trade_stop_order_id: ids.stop });
    expect(await stopsOn('SOLUSDT')).toHaveLength(1);
  });

  it('a stop the exchange refuses leaves it listed as stop_missing and pushed; Repair protects it later', async () => {
    const { row, ids } = await interruptedOpen('XRPUSDT', '2.5');
    await exchange.admin.setFaults({
      account: account.api_key,
      rejectCount: 5,
      paths: ['/fapi/v1/algoOrder'],
    });
    await balanceRead();
    const unprotected = await listed(row.trade_uuid);
    // Never closed by reconciliation: the position stays, and the trader is shown it has no stop.
    expect(unprotected).toMatchObject({ trade_error: TradeError.STOP_MISSING, trade_stop_order_id: null });
    expect(await positionOf('XRPUSDT')).toBeGreaterThan(0);
    expect(await stopsOn('XRPUSDT')).toEqual([]);
    expect(pushedFor(row.trade_uuid).length).toBeGreaterThan(0);

    // Later balance reads leave a refused stop to the trader (docs/server.md "Trading — server").
    await exchange.admin.clearFaults();
    await balanceRead();
    expect((await listed(row.trade_uuid))?.trade_error).toBe(TradeError.STOP_MISSING);
    // The trader presses Repair: the stop is placed and the mark goes.
    expect(await repair()).toBe(1);
    expect(await listed(row.trade_uuid)).toMatchObject({ trade_error: null, trade_stop_order_id: ids.stop });
    expect(await stopsOn('XRPUSDT')).toHaveLength(1);
  });

  it('an open killed before its market order reached the exchange leaves nothing behind', async () => {
    const { row } = await interruptedOpen('ADAUSDT', '0.9', { filled: false });
    await balanceRead();
    expect(await listed(row.trade_uuid)).toBeUndefined();
    expect(await repair()).toBe(0);
    const history = await call(
      'GET',
      `/api/trade/get_trades_history/?start_date=${new Date(Date.now() - 86_400_000).toISOString()}&end_date=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    expect(JSON.stringify(history.json())).not.toContain(row.trade_uuid);
    expect(await positionOf('ADAUSDT')).toBe(0);
  });
});

describe('a position closed by hand on the exchange while the server was down', () => {
  it('is recorded manual_close at the current price, and its stop, still waiting, is cancelled', async () => {
    exchange.admin.setPrice('LINKUSDT', '20');
    const signal = await insertTestSignal(t.db, {
      platform_uuid: PAPER_PLATFORM_UUID,
      symbol_pair: 'LINKUSDT',
    });
    const created = await call('POST', '/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      pin_code: PIN,
    });
    expect(created.statusCode, created.body).toBe(201);
    const trade = created.json().result as Trade;
    expect(await stopsOn('LINKUSDT')).toHaveLength(1);
    // The trader closes it on the exchange's own site; the stop stays behind there.
    await client.placeMarketOrder({
      symbol: 'LINKUSDT',
      side: 'SELL',
      quantity: trade.trade_quantity,
      newClientOrderId: 'by-hand-on-the-exchange',
      reduceOnly: true,
    });
    expect(await positionOf('LINKUSDT')).toBe(0);
    t.monitor.onPrice('LINKUSDT', '20.000');

    await balanceRead();
    expect(await listed(trade.trade_uuid)).toBeUndefined();
    expect(pushedFor(trade.trade_uuid).at(-1)).toMatchObject({
      message: { trade_update_calculated: { trade_status: TradeStatus.MANUAL_CLOSE } },
    });
    // Neither the stop nor the exits the exchange held are left to act on a later position.
    expect(await algosOn('LINKUSDT')).toEqual([]);
  });
});

describe('the signal card traded again after its open died', () => {
  const create = (signalUuid: string) =>
    call('POST', '/api/trade_server/create_trade/', {
      signal_uuid: signalUuid,
      ...TEST_TRADE_SETTINGS,
      pin_code: PIN,
    });

  it('a filled market order becomes the trade at once, with its stop; no second position', async () => {
    const { row, ids, quantity, stop } = await interruptedOpen('BNBUSDT', '600');
    const again = await create(row.signal_uuid);
    expect(again.statusCode, again.body).toBe(201);
    const { trigger } = await stop();
    expect(again.json().result).toMatchObject({
      trade_uuid: row.trade_uuid,
      trade_status: TradeStatus.OPEN,
      trade_quantity: quantity,
      trade_stop_order_id: ids.stop,
      trade_stop_price: trigger,
      trade_error: null,
    });
    expect(await positionOf('BNBUSDT')).toBe(Number(quantity));
    expect(await stopsOn('BNBUSDT')).toHaveLength(1);
    expect(await listed(row.trade_uuid)).toBeDefined();
    const twice = await create(row.signal_uuid);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ detail: 'A trade for this signal already exists' });
  });

  it('an open that never reached the exchange is made afresh; one stored moments ago is left alone', async () => {
    const unsent = await interruptedOpen('DOGEUSDT', '0.2', { filled: false });
    // The exchange failing while the dead open is looked up: a bad gateway, and the row is kept for later.
    await exchange.admin.setFaults({ account: account.api_key, errorCount: 10 });
    const failing = await create(unsent.row.signal_uuid);
    expect(failing.statusCode, failing.body).toBe(502);
    const kept = await t.db.select().from(trades).where(eq(trades.trade_uuid, unsent.row.trade_uuid));
    expect(kept).toHaveLength(1);
    await exchange.admin.clearFaults();
    const fresh = await create(unsent.row.signal_uuid);
    expect(fresh.statusCode, fresh.body).toBe(201);
    const trade = fresh.json().result as Trade;
    expect(trade.trade_uuid).not.toBe(unsent.row.trade_uuid);
    expect(await positionOf('DOGEUSDT')).toBe(Number(trade.trade_quantity));
    expect(await stopsOn('DOGEUSDT')).toHaveLength(1);

    // Stored 5 s ago: it may still be running (in this process or another instance), so it is not touched.
    const running = await interruptedOpen('DOGEUSDT', '0.2', { filled: false, ageMs: 5_000 });
    const refused = await create(running.row.signal_uuid);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/^An earlier open of this signal is still under way/);
    expect(await positionOf('DOGEUSDT')).toBe(Number(trade.trade_quantity));
  });
});
