// Server-mode trades against the real paper exchange (SPEC.md §4 "Opening a trade", "Closing a trade"): the
// server opens the token with the PIN and runs trade-flow; a refused order leaves no trade, a close records the
// exchange's fill, the balance call reconciles a stop that fired, and Repair reconciles error trades.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import { TradeTokenMessage, tradeAnswer, tradeTrendAnswer } from '../../../../contracts';
import { ExchangeClient } from '../../../../shared-core/exchange-client';
import { bracketOf, clientOrderIds } from '../../../../shared-core/trade-flow';
import { trades } from '../../db/schema-trades';
import {
  addDecimals,
  compareDecimals,
  initialMargin,
  liquidationPrice,
  mulDecimals,
  roundDecimal,
  subDecimals,
  unrealizedPnl,
} from '../../../../shared-core/trade-core-node';
import { PAPER_PLATFORM_UUID } from '../../services/platforms';
import {
  TEST_TRADE_SETTINGS,
  createTestApp,
  insertTestSignal,
  signUpAndLogIn,
  type TestApp,
} from '../../../test/test-app';

const PIN = '13579';
const BTC = 'BTCUSDT';
let exchange: PaperExchangeHandle;
let t: TestApp;
let trader: Awaited<ReturnType<typeof signUpAndLogIn>>;
let exchangeClient: ExchangeClient;
let apiKey: string;

beforeAll(async () => {
  exchange = await startPaperExchange({ port: 0, seed: 21 });
  t = await createTestApp({ exchange });
  trader = await signUpAndLogIn(t.app, 'server');
  const account = await call('POST', '/api/paper_exchange/create_account/', { balance: 10000 });
  const credentials = account.json().result;
  apiKey = credentials.api_key;
  const stored = await call('POST', '/api/trade_token/create_trade_token/', {
    ...credentials,
    platform_uuid: PAPER_PLATFORM_UUID,
    pin_code: PIN,
  });
  expect(stored.statusCode).toBe(200);
  exchangeClient = new ExchangeClient({ baseUrl: exchange.url, credentials });
});
afterAll(async () => {
  exchange?.admin.setPrice(BTC, null);
  await t?.close();
  await exchange?.close();
});

function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: trader.headers, ...(payload ? { payload } : {}) });
}

async function openTrade(overrides: Record<string, unknown> = {}) {
  const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: BTC });
  const response = await call('POST', '/api/trade_server/create_trade/', {
    signal_uuid: signal.signal_uuid,
    ...TEST_TRADE_SETTINGS,
    pin_code: PIN,
    ...overrides,
  });
  return { signal, response };
}

const positionAmount = async () => Number((await exchangeClient.getPositionRisk(BTC)).positionAmt);

describe('POST /api/trade_server/create_trade/', () => {
  it('opens the position with its stop and stores the trade', async () => {
    exchange.admin.setPrice(BTC, '97000');
    const sent: { user: string; event: string; trade_uuid?: string }[] = [];
    const original = t.hub.sendToUser.bind(t.hub);
    t.hub.sendToUser = (user, event) => {
      const message = event.message as { trade_uuid?: string };
      sent.push({ user, event: event.event, trade_uuid: message.trade_uuid });
      original(user, event);
    };
    let opened: Awaited<ReturnType<typeof openTrade>>;
    try {
      opened = await openTrade();
    } finally {
      t.hub.sendToUser = original;
    }
    const { signal, response } = opened;
    expect(response.statusCode, response.body).toBe(201);
    const trade = tradeAnswer.parse(response.json()).result;
    // The owner's sockets learn of it (a page whose request timed out meanwhile reads the list again).
    expect(sent).toEqual([
      { user: trader.user_uuid, event: 'trade_updated_response_from_core', trade_uuid: trade.trade_uuid },
    ]);
    const ids = clientOrderIds(signal.signal_uuid);
    expect(trade).toMatchObject({
      trade_in_server_side: 1,
      trade_direction: 'BUY',
      trade_quantity: '0.002', // 19.5 × 10 ÷ 97000, toward zero at 3 decimals
      trade_order_id: ids.open,
      trade_stop_order_id: ids.stop,
      trade_error: null,
      trade_status: 'open',
    });
    expect(Number(trade.trade_open_price)).toBeCloseTo(97000, -1);
    expect(await positionAmount()).toBe(0.002);
    expect(t.monitor.calculated(trade.trade_uuid)).toBeDefined();

    const again = await call('POST', '/api/trade_server/create_trade/', {
      signal_uuid: signal.signal_uuid,
      ...TEST_TRADE_SETTINGS,
      pin_code: PIN,
    });
    expect(again.statusCode).toBe(409);
    expect(await positionAmount()).toBe(0.002);

    // Close it again for the next tests.
    const closed = await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: trade.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('answers 403 for a wrong PIN and stores nothing', async () => {
    const { signal, response } = await openTrade({ pin_code: '00000' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: TradeTokenMessage.WRONG_PIN_CODE });
    const rows = await t.db.select().from(trades).where(eq(trades.signal_uuid, signal.signal_uuid));
    expect(rows).toEqual([]);
  });

  it('answers 400 with the catalogue text when the exchange refuses the order, and keeps no trade', async () => {
    const poor = await signUpAndLogIn(t.app, 'poor');
    const as = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: poor.headers, payload });
    const account = await as('/api/paper_exchange/create_account/', { balance: 5 });
    await as('/api/trade_token/create_trade_token/', {
      ...account.json().result,
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: BTC });
    const body = { signal_uuid: signal.signal_uuid, ...TEST_TRADE_SETTINGS, pin_code: PIN };
    const response = await as('/api/trade_server/create_trade/', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ detail: 'placeMarketOrder: Margin is insufficient' });
    const rows = await t.db.select().from(trades).where(eq(trades.signal_uuid, signal.signal_uuid));
    expect(rows).toEqual([]);
    // Nothing was kept, so the same signal may be tried again.
    expect((await as('/api/trade_server/create_trade/', body)).statusCode).toBe(400);
  });
});

describe('POST /api/trade_server/create_trade/ when the stop is refused', () => {
  it('answers 400 saying the position was closed again, and keeps no trade', async () => {
    exchange.admin.setPrice(BTC, '97000');
    exchange.admin.setFaults({
      account: apiKey,
      paths: ['/fapi/v1/algoOrder'],
      rejectCount: 1,
      rejectCode: -2019,
      rejectMsg: 'Margin is insufficient.',
    });
    try {
      const { signal, response } = await openTrade();
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toBe(
        'The exchange refused the stop loss order (placeStopOrder: Margin is insufficient), so the position ' +
          'was closed again at once: no trade is open',
      );
      const rows = await t.db.select().from(trades).where(eq(trades.signal_uuid, signal.signal_uuid));
      expect(rows).toEqual([]);
      expect(await positionAmount()).toBe(0);
    } finally {
      exchange.admin.clearFaults(apiKey);
    }
  });
});

describe('POST /api/trade_server/close_trade/', () => {
  it('closes the position and records the fill with the exact realized PNL', async () => {
    exchange.admin.setPrice(BTC, '97000');
    const opened = tradeAnswer.parse((await openTrade()).response.json()).result;
    exchange.admin.setPrice(BTC, '97200');
    const response = await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'take_profit',
      pin_code: PIN,
    });
    expect(response.statusCode, response.body).toBe(200);
    const closed = tradeAnswer.parse(response.json()).result;
    expect(closed.trade_status).toBe('take_profit');
    expect(Number(closed.trade_close_price)).toBeCloseTo(97200, -1);
    expect(closed.trade_pnl_current).toBe(
      unrealizedPnl({
        direction: 'BUY',
        quantity: closed.trade_quantity,
        entryPrice: closed.trade_open_price,
        currentPrice: closed.trade_close_price!,
      }),
    );
    expect(await positionAmount()).toBe(0);

    // Issue 18: both fills' commissions as the exchange charged them (0.05 % taker, 8 decimals), the net
    // realized PNL, and the isolated liquidation price of the open (binance-fapi.md §12) with its bracket.
    const fee = (price: string) =>
      roundDecimal(mulDecimals(mulDecimals(closed.trade_quantity, price), '0.0005'), 8);
    expect(compareDecimals(opened.trade_open_commission!, fee(opened.trade_open_price))).toBe(0);
    expect(compareDecimals(closed.trade_close_commission!, fee(closed.trade_close_price!))).toBe(0);
    const commissions = addDecimals(fee(opened.trade_open_price), fee(closed.trade_close_price!));
    expect(compareDecimals(closed.trade_pnl_net!, subDecimals(closed.trade_pnl_current, commissions))).toBe(
      0,
    );
    const notional = mulDecimals(opened.trade_quantity, opened.trade_open_price);
    const bracket = bracketOf(await exchangeClient.getLeverageBrackets(BTC), notional)!;
    expect(opened.trade_liquidation_price).toBe(
      liquidationPrice({
        direction: 'BUY',
        quantity: opened.trade_quantity,
        entryPrice: opened.trade_open_price,
        walletBalance: initialMargin(opened.trade_quantity, opened.trade_open_price, 10),
        maintMarginRate: bracket.maintMarginRatio,
        maintAmount: bracket.cum,
        pricePrecision: opened.symbol.symbol_price_precision,
      }),
    );
    expect(compareDecimals(opened.trade_liquidation_price!, '0')).toBe(1);

    const again = await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a client-mode trade and another trader’s trade', async () => {
    const other = await signUpAndLogIn(t.app, 'stranger');
    exchange.admin.setPrice(BTC, '97000');
    const opened = tradeAnswer.parse((await openTrade()).response.json()).result;
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/trade_server/close_trade/',
      headers: other.headers,
      payload: { trade_uuid: opened.trade_uuid, trade_status: 'manual_close', pin_code: PIN },
    });
    expect(foreign.statusCode).toBe(404);
    const asClient = await call('POST', '/api/trade_client/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'manual_close',
    });
    expect(asClient.statusCode).toBe(400);
    await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
  });
});

describe('trade trend of a server-mode trade', () => {
  it('answers the candles around the trade with its take-profit and trailing-stop prices', async () => {
    exchange.admin.setPrice(BTC, '97000');
    const opened = tradeAnswer.parse((await openTrade()).response.json()).result;
    const response = await call('GET', `/api/trade/get_trade_trend_by_uuid/${opened.trade_uuid}/`);
    expect(response.statusCode, response.body).toBe(200);
    const trend = tradeTrendAnswer.parse(response.json()).result;
    expect(trend.trend_data_list.length).toBeGreaterThan(0);
    const entry = Number(opened.trade_open_price);
    // ROE 5 % at 10× is a 0.5 % move; the trailing level starts at −10 %: a 1 % move down.
    expect(Number(trend.trade_take_profit_price)).toBeCloseTo(entry * 1.005, 0);
    expect(Number(trend.trade_treiling_stop_price)).toBeCloseTo(entry * 0.99, 0);
    await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
  });
});

describe('reconciliation and repair', () => {
  it('closes a trade as stop_loss at the stop’s fill when the exchange-side stop fired (balance call)', async () => {
    exchange.admin.setPrice(BTC, '97000');
    const opened = tradeAnswer.parse((await openTrade()).response.json()).result;
    // Through the stop (about 96030), within its limit (1 % beyond the trigger).
    exchange.admin.setPrice(BTC, '95900');
    await expect.poll(positionAmount).toBe(0);
    const balance = await call('POST', '/api/account_balance/get_account_balance/', {
      platform_uuid: PAPER_PLATFORM_UUID,
      pin_code: PIN,
    });
    expect(balance.statusCode).toBe(200);
    await t.tradeDesk.idle();
    const [row] = await t.db.select().from(trades).where(eq(trades.trade_uuid, opened.trade_uuid));
    expect(row).toMatchObject({ trade_status: 'stop_loss', trade_close_timestamp: expect.any(Date) });
    expect(Number(row?.trade_close_price)).toBeLessThan(97000);
    expect(t.monitor.calculated(opened.trade_uuid)).toBeUndefined();
  });

  it('repairs error trades with the PIN: an open position loses its error, a never-filled open is deleted', async () => {
    exchange.admin.setPrice(BTC, '97000');
    const opened = tradeAnswer.parse((await openTrade()).response.json()).result;
    await t.db
      .update(trades)
      .set({ trade_error: 'open_incomplete' })
      .where(eq(trades.trade_uuid, opened.trade_uuid));
    // An open that died before its market order reached the exchange, with the id it would have used.
    const signal = await insertTestSignal(t.db, { platform_uuid: PAPER_PLATFORM_UUID, symbol_pair: BTC });
    await t.db.insert(trades).values({
      trade_uuid: crypto.randomUUID(),
      user_uuid: trader.user_uuid,
      platform_uuid: PAPER_PLATFORM_UUID,
      signal_uuid: signal.signal_uuid,
      symbol_uuid: signal.symbol_uuid,
      trade_direction: 'BUY',
      trade_in_server_side: 1,
      trade_phase: 'opening',
      trade_margin: '19.5',
      trade_leverage: 10,
      trade_stop_loss_percent: 10,
      trade_take_profit_percent: 5,
      trade_treiling_stop_percent: 3,
      trade_order_id: clientOrderIds(signal.signal_uuid).open,
      trade_treiling_stop_percent_current: '-10.00',
      trade_create_timestamp: new Date(Date.now() - 5 * 60_000),
    });
    const response = await call('DELETE', '/api/trade/delete_trade_errors/', {
      pin_code_by_platform_uuid: { [PAPER_PLATFORM_UUID]: PIN },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ result: { count: 2 } });
    const [repaired] = await t.db.select().from(trades).where(eq(trades.trade_uuid, opened.trade_uuid));
    expect(repaired).toMatchObject({ trade_status: 'open', trade_error: null });
    const dead = await t.db.select().from(trades).where(eq(trades.signal_uuid, signal.signal_uuid));
    expect(dead).toEqual([]);

    const wrong = await call('DELETE', '/api/trade/delete_trade_errors/', {
      pin_code_by_platform_uuid: { [PAPER_PLATFORM_UUID]: '00000' },
    });
    // No error trade left on the platform: the PIN is not even tried.
    expect(wrong.statusCode).toBe(200);
    await call('POST', '/api/trade_server/close_trade/', {
      trade_uuid: opened.trade_uuid,
      trade_status: 'manual_close',
      pin_code: PIN,
    });
  });
});
