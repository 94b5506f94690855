// shared-core/trade-flow.ts against the real paper exchange (SPEC.md §4 "Opening a trade", "Closing a trade"):
// quantities and stop prices from trade-core, the stop on the platform's route, retries that never open
// twice, a refused stop that closes the position again, lost answers of the market order, and the
// reconciliation of open trades. Faults are the exchange's own (admin.setFaults), injected just before the
// request they are meant for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperExchangeHandle } from '../../paper-exchange/src/index';
import { ExchangeError, ExchangeFailure, knownStopRoute } from '../../shared-core/exchange-client';
import { BRACKET_CAP_TEXT } from '../../shared-core/exchange-errors';
import {
  OpenFailure,
  STOP_LIMIT_OFFSET,
  TradeOpenError,
  checkPositions,
  clientOrderIds,
  closePosition,
  completeInterruptedOpen,
  openPosition,
  type OpenPositionInput,
  type OpenedPosition,
} from '../../shared-core/trade-flow';
import {
  compareDecimals,
  mulDecimals,
  orderQuantity,
  roundDecimal,
  stopPrice,
  subDecimals,
  addDecimals,
  takeProfitPrice,
  trailingActivationPrice,
} from '../../shared-core/trade-core';
import {
  lastFillPrice,
  roundTripsBefore,
  newTrader,
  positionOf,
  raw,
  sent,
  signalUuid,
  startExchange,
  type SentRequest,
  type Trader,
} from './helpers';

const SLOW_MS = 90_000;

/** Symbols whose price precision is the decimals of their tick size, so a stop price is always on a tick. */
const ETH = { symbol_pair: 'ETHUSDT', symbol_price_precision: 2, symbol_quantity_precision: 3 };
const XRP = { symbol_pair: 'XRPUSDT', symbol_price_precision: 4, symbol_quantity_precision: 1 };
const LINK = { symbol_pair: 'LINKUSDT', symbol_price_precision: 3, symbol_quantity_precision: 2 };

function input(symbol: typeof ETH, overrides: Partial<OpenPositionInput> = {}): OpenPositionInput {
  return {
    ...symbol,
    trade_direction: 'BUY',
    trade_margin: 10,
    trade_leverage: 10,
    trade_stop_loss_percent: 10,
    signal_uuid: signalUuid(),
    ...overrides,
  };
}

const same = (a: string | undefined, b: string | undefined) => compareDecimals(a ?? 'NaN', b ?? 'NaN') === 0;

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

interface RawAlgo {
  clientAlgoId: string;
  side: string;
  triggerPrice: string;
  price: string;
  quantity: string;
  reduceOnly: boolean;
  algoStatus: string;
}
interface RawOrder {
  clientOrderId: string;
  type: string;
  side: string;
  stopPrice: string;
  price: string;
  origQty: string;
  reduceOnly: boolean;
}

const openAlgos = (h: PaperExchangeHandle, t: Trader, symbol: string) =>
  raw<RawAlgo[]>(h, t, 'GET', '/fapi/v1/openAlgoOrders', { symbol });
const openOrders = (h: PaperExchangeHandle, t: Trader, symbol: string) =>
  raw<RawOrder[]>(h, t, 'GET', '/fapi/v1/openOrders', { symbol });

const isMarket = (request: SentRequest) =>
  request.method === 'POST' && request.path === '/fapi/v1/order' && request.params.get('type') === 'MARKET';

/** A mark just past the stop (half the limit offset), where the stop fires and its limit still fills. */
function pastStop(opened: OpenedPosition, direction: 'BUY' | 'SELL', precision: number): string {
  const half = mulDecimals(STOP_LIMIT_OFFSET, '0.5');
  const factor = direction === 'BUY' ? subDecimals('1', half) : addDecimals('1', half);
  return roundDecimal(mulDecimals(opened.trade_stop_price, factor), precision);
}

/** What trade-core says the open should have computed, from the exchange's own figures. */
function expectedStop(order: OpenPositionInput, entry: string) {
  const stop = stopPrice({
    direction: order.trade_direction,
    entryPrice: entry,
    stopLossPercent: order.trade_stop_loss_percent,
    leverage: order.trade_leverage,
    pricePrecision: order.symbol_price_precision,
  });
  const factor =
    order.trade_direction === 'BUY'
      ? subDecimals('1', STOP_LIMIT_OFFSET)
      : addDecimals('1', STOP_LIMIT_OFFSET);
  const limit = roundDecimal(mulDecimals(stop, factor), order.symbol_price_precision);
  // The backstop (issue 54): one price tick beyond the limit, in the closing direction.
  const precision = order.symbol_price_precision;
  const tick = precision === 0 ? '1' : `0.${'0'.repeat(precision - 1)}1`;
  const backstop = order.trade_direction === 'BUY' ? subDecimals(limit, tick) : addDecimals(limit, tick);
  return { stop, limit, backstop };
}

// Both exchanges run for the whole file, so they never share a port (stop routes are remembered by URL).
let strict: PaperExchangeHandle;
let legacy: PaperExchangeHandle;
beforeAll(async () => {
  [strict, legacy] = await Promise.all([startExchange(), startExchange({ legacyConditionalOrders: true })]);
});
afterAll(async () => {
  await Promise.all([strict?.close(), legacy?.close()]);
});

describe('trade flow on a strict exchange (stops through the Algo Order API, as Binance today)', () => {
  let exchange: PaperExchangeHandle;
  beforeAll(() => {
    exchange = strict;
  });

  it('opens BUY and SELL with trade-core figures, the stop on the algo route, -4120 only once', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const trader = newTrader(exchange);

    const buy = input(ETH);
    const long = await openPosition(trader.client, buy);
    const ids = clientOrderIds(buy.signal_uuid);
    expect(ids.open).toHaveLength(35);
    expect(long.trade_order_id).toBe(ids.open);
    expect(long.trade_stop_order_id).toBe(ids.stop);
    expect(long.trade_quantity).toBe(
      orderQuantity({ margin: 10, leverage: 10, entryPrice: '3000.00000000', quantityPrecision: 3 }),
    );
    const ethPosition = await positionOf(exchange, trader, 'ETHUSDT');
    expect(ethPosition.positionAmt).toBe(long.trade_quantity);
    expect(same(ethPosition.entryPrice, long.trade_open_price)).toBe(true);
    const longStop = expectedStop(buy, ethPosition.entryPrice);
    expect(long.trade_stop_price).toBe(longStop.stop);
    const ethAlgos = await openAlgos(exchange, trader, 'ETHUSDT');
    expect(ethAlgos).toHaveLength(2);
    expect(ethAlgos).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          clientAlgoId: ids.stop,
          side: 'SELL',
          triggerPrice: longStop.stop,
          price: longStop.limit,
          quantity: long.trade_quantity,
          reduceOnly: true,
          algoStatus: 'NEW',
        }),
        // Beside it, its market backstop one tick beyond the limit (issue 54), on the price the stop reads.
        expect.objectContaining({
          clientAlgoId: ids.backstop,
          orderType: 'STOP_MARKET',
          side: 'SELL',
          quantity: long.trade_quantity,
          reduceOnly: true,
          workingType: 'CONTRACT_PRICE',
          algoStatus: 'NEW',
        }),
      ]),
    );
    const longBackstop = ethAlgos.find((algo) => algo.clientAlgoId === ids.backstop);
    expect(same(longBackstop!.triggerPrice, longStop.backstop)).toBe(true);
    expect(long.trade_backstop).toEqual({ held_by: 'exchange', price: longBackstop!.triggerPrice });
    expect(knownStopRoute(exchange.url)).toBe('algo');

    const sell = input(XRP, { trade_direction: 'SELL', trade_leverage: 5 });
    const short = await openPosition(trader.client, sell);
    expect(short.trade_quantity).toBe(
      orderQuantity({ margin: 10, leverage: 5, entryPrice: '2.50000000', quantityPrecision: 1 }),
    );
    const xrpPosition = await positionOf(exchange, trader, 'XRPUSDT');
    expect(xrpPosition.positionAmt).toBe(`-${short.trade_quantity}`);
    expect(same(xrpPosition.entryPrice, short.trade_open_price)).toBe(true);
    const shortStop = expectedStop(sell, xrpPosition.entryPrice);
    expect(short.trade_stop_price).toBe(shortStop.stop);
    expect(compareDecimals(shortStop.stop, short.trade_open_price)).toBe(1);
    const xrpAlgos = await openAlgos(exchange, trader, 'XRPUSDT');
    expect(xrpAlgos).toHaveLength(2);
    expect(xrpAlgos).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          clientAlgoId: clientOrderIds(sell.signal_uuid).stop,
          side: 'BUY',
          triggerPrice: shortStop.stop,
          price: shortStop.limit,
        }),
        expect.objectContaining({ clientAlgoId: clientOrderIds(sell.signal_uuid).backstop, side: 'BUY' }),
      ]),
    );
    const shortBackstop = xrpAlgos.find(
      (algo) => algo.clientAlgoId === clientOrderIds(sell.signal_uuid).backstop,
    );
    expect(same(shortBackstop!.triggerPrice, shortStop.backstop)).toBe(true);

    // The first stop met -4120 on /fapi/v1/order; the second went straight to the Algo Order API.
    expect(sent(trader, 'POST', '/fapi/v1/order', 'STOP').map((r) => r.code)).toEqual([-4120]);
    // Two stops and their two backstops.
    expect(sent(trader, 'POST', '/fapi/v1/algoOrder').map((r) => r.code)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('opens and closes in two round trips before the MARKET order: the settings and reads together, then the order', async () => {
    exchange.admin.setPrice('LINKUSDT', '20');
    const trader = newTrader(exchange);
    const order = input(LINK);
    const opened = await openPosition(trader.client, order);
    const [open] = sent(trader, 'POST', '/fapi/v1/order', 'MARKET');
    expect(roundTripsBefore(trader, open!)).toBe(1);
    const first = trader.requests.filter((request) => request.sentAt < open!.sentAt);
    expect(first.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      'GET /fapi/v1/leverageBracket',
      'GET /fapi/v1/openAlgoOrders',
      'GET /fapi/v1/openOrders',
      'GET /fapi/v1/order',
      'GET /fapi/v2/positionRisk',
      'POST /fapi/v1/leverage',
      'POST /fapi/v1/marginType',
      'POST /fapi/v1/positionSide/dual',
    ]);
    expect(first.every((request) => roundTripsBefore(trader, request) === 0)).toBe(true);
    // The stop follows the order at once: its price is the fill's, no positionRisk read in between.
    const stop = trader.requests.find((request) => request.sentAt > open!.sentAt)!;
    expect(stop.path).toMatch(/^\/fapi\/v1\/(order|algoOrder)$/);
    expect(stop.params.get('type')).toBe('STOP');
    expect(same(opened.trade_open_price, await lastFillPrice(exchange, trader, 'LINKUSDT'))).toBe(true);

    const before = trader.requests.length;
    await closePosition(trader.client, {
      symbol_pair: 'LINKUSDT',
      trade_direction: 'BUY',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_order_id: opened.trade_order_id,
      trade_status: 'manual_close',
    });
    const closing = trader.requests.slice(before);
    const market = closing.find((request) => request.params.get('type') === 'MARKET')!;
    const settings = closing.filter((request) => request.sentAt < market.sentAt);
    expect(settings.map((request) => request.path).sort()).toEqual([
      '/fapi/v1/leverage',
      '/fapi/v1/marginType',
      '/fapi/v1/positionSide/dual',
    ]);
    expect(new Set(settings.map((request) => roundTripsBefore(trader, request))).size).toBe(1);
    expect(roundTripsBefore(trader, market)).toBe(roundTripsBefore(trader, settings[0]!) + 1);
  });

  it('refuses before the MARKET order a position above what its leverage bracket allows, naming the cap (issue 53)', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const { brackets } = await raw<{ brackets: { notionalCap: number; initialLeverage: number }[] }>(
      exchange,
      trader,
      'GET',
      '/fapi/v1/leverageBracket',
      { symbol: 'ETHUSDT' },
    );
    const top = brackets[0]!;
    // The highest leverage, and a margin whose notional is above its bracket's cap.
    const margin = Math.ceil((top.notionalCap * 1.2) / top.initialLeverage);
    const refused = await openPosition(
      trader.client,
      input(ETH, { trade_leverage: top.initialLeverage, trade_margin: margin }),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ExchangeError);
    const text = (refused as ExchangeError).text;
    expect(BRACKET_CAP_TEXT.exec(text)?.slice(1)).toEqual([
      String(top.notionalCap),
      String(top.initialLeverage),
    ]);
    expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET')).toHaveLength(0);
    // A margin within the cap opens (1 % under it: the exchange holds the position to the cap at its fill
    // price, a little off the mark price the order was sized at).
    const fits = Math.floor((top.notionalCap * 0.99) / top.initialLeverage);
    const opened = await openPosition(
      trader.client,
      input(ETH, { trade_leverage: top.initialLeverage, trade_margin: fits }),
    );
    expect(
      compareDecimals(mulDecimals(opened.trade_quantity, opened.trade_open_price), String(top.notionalCap)),
    ).toBe(-1);
  });

  it('a gap through the stop-limit closes at market by the backstop; the check reports stop_loss, nothing is left (issue 54)', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const order = input(ETH);
    const opened = await openPosition(trader.client, order);
    const ids = clientOrderIds(order.signal_uuid);
    const { limit, backstop } = expectedStop(order, opened.trade_open_price);
    // The price gaps 2 % below the limit: the stop triggers and its limit order rests above the market.
    const gap = roundDecimal(mulDecimals(limit, '0.98'), 2);
    expect(compareDecimals(gap, backstop)).toBe(-1);
    exchange.admin.setPrice('ETHUSDT', gap);
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
    const fill = await lastFillPrice(exchange, trader, 'ETHUSDT');
    expect(compareDecimals(fill!, limit)).toBe(-1); // filled at market, below what the limit order asks
    const [check] = await checkPositions(trader.client, [
      {
        trade_uuid: 'eth',
        symbol_pair: 'ETHUSDT',
        trade_direction: 'BUY',
        trade_stop_order_id: opened.trade_stop_order_id,
        trade_order_id: opened.trade_order_id,
      },
    ]);
    expect(check).toMatchObject({ trade_uuid: 'eth', state: 'closed', trade_status: 'stop_loss' });
    expect(same((check as { trade_close_price?: string }).trade_close_price, fill)).toBe(true);
    // The stop's resting limit order is cancelled with it: nothing of the trade stays on the exchange.
    expect(await openAlgos(exchange, trader, 'ETHUSDT')).toEqual([]);
    expect(await openOrders(exchange, trader, 'ETHUSDT')).toEqual([]);
    expect(ids.backstop).toMatch(/^sdb/);
  });

  it('does not open twice when the same signal is opened again', async () => {
    exchange.admin.setPrice('LINKUSDT', '20');
    const trader = newTrader(exchange);
    const order = input(LINK);
    const first = await openPosition(trader.client, order);
    const again = await openPosition(trader.client, order);
    expect(again).toEqual(first);
    expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET')).toHaveLength(1);
    expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe(first.trade_quantity);
    // One stop and one backstop.
    expect(await openAlgos(exchange, trader, 'LINKUSDT')).toHaveLength(2);
  });

  it('completes an open the page left after its market order, once, and tells what never opened or closed', async () => {
    exchange.admin.setPrice('XRPUSDT', '0.5');
    const trader = newTrader(exchange);
    const order = input(XRP, { trade_direction: 'SELL' });
    // The page goes away right after the market order: its first stop request never leaves, and the open
    // never settles.
    let held = false;
    trader.hold = (request) => {
      held ||= request.method === 'POST' && request.params.get('type') === 'STOP';
      return held;
    };
    void openPosition(trader.client, order);
    await expect.poll(() => held).toBe(true);
    trader.hold = undefined;
    const position = await positionOf(exchange, trader, 'XRPUSDT');
    expect(compareDecimals(position.positionAmt, '0')).toBe(-1);
    expect(await openAlgos(exchange, trader, 'XRPUSDT')).toHaveLength(0);

    const { signal_uuid, trade_direction, trade_leverage, trade_stop_loss_percent } = order;
    const interrupted = {
      symbol_pair: 'XRPUSDT',
      symbol_price_precision: XRP.symbol_price_precision,
      signal_uuid,
      trade_direction,
      trade_leverage,
      trade_stop_loss_percent,
    };
    const completed = await completeInterruptedOpen(trader.client, interrupted);
    if (completed.state !== 'open') throw new Error(`completed as ${completed.state}`);
    const { opened } = completed;
    expect(same(opened.trade_quantity, subDecimals('0', position.positionAmt))).toBe(true);
    expect(same(opened.trade_open_price, position.entryPrice)).toBe(true);
    expect(opened.trade_order_id).toBe(clientOrderIds(signal_uuid).open);
    expect(opened.trade_stop_order_id).toBe(clientOrderIds(signal_uuid).stop);
    const { stop, limit } = expectedStop(order, position.entryPrice);
    expect(opened.trade_stop_price).toBe(stop);
    const algos = await openAlgos(exchange, trader, 'XRPUSDT');
    const ids = clientOrderIds(signal_uuid);
    expect(algos.map((algo) => algo.clientAlgoId).sort()).toEqual([ids.backstop, ids.stop].sort());
    const placedStop = algos.find((algo) => algo.clientAlgoId === ids.stop)!;
    expect(placedStop).toMatchObject({ side: 'BUY', reduceOnly: true, quantity: opened.trade_quantity });
    expect(same(placedStop.triggerPrice, stop) && same(placedStop.price, limit)).toBe(true);
    expect(opened.trade_backstop?.held_by).toBe('exchange');

    // Asked again (another tab, a later balance read): the same answer, still one stop (and backstop), no new
    // order.
    const again = await completeInterruptedOpen(trader.client, interrupted);
    expect(again).toEqual(completed);
    expect(await openAlgos(exchange, trader, 'XRPUSDT')).toHaveLength(2);
    expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET')).toHaveLength(1);

    // An open whose market order never reached the exchange opened nothing.
    const never = await completeInterruptedOpen(trader.client, { ...interrupted, signal_uuid: signalUuid() });
    expect(never).toEqual({ state: 'never_opened' });

    // Closed again, it is not completed a second time.
    await closePosition(trader.client, {
      symbol_pair: 'XRPUSDT',
      trade_direction: 'SELL',
      trade_quantity: opened.trade_quantity,
      trade_leverage: order.trade_leverage,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_order_id: opened.trade_order_id,
      trade_status: 'manual_close',
    });
    expect(await completeInterruptedOpen(trader.client, interrupted)).toEqual({ state: 'closed' });
    expect(await openAlgos(exchange, trader, 'XRPUSDT')).toHaveLength(0);
  });

  it('closes by hand: position flat, stop cancelled, close price = the fill', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const order = input(ETH);
    const opened = await openPosition(trader.client, order);
    exchange.admin.setPrice('ETHUSDT', '3010');
    const closed = await closePosition(trader.client, {
      symbol_pair: 'ETHUSDT',
      trade_direction: 'BUY',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_order_id: opened.trade_order_id,
      trade_status: 'manual_close',
    });
    expect(closed.trade_status).toBe('manual_close');
    expect(closed.stop_cancelled).toBe(true);
    expect(same(closed.trade_close_price, await lastFillPrice(exchange, trader, 'ETHUSDT'))).toBe(true);
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
    expect(await openAlgos(exchange, trader, 'ETHUSDT')).toEqual([]);
    const [close] = sent(trader, 'POST', '/fapi/v1/order', 'MARKET').slice(-1);
    expect(Object.fromEntries(close!.params)).toMatchObject({
      side: 'SELL',
      reduceOnly: 'true',
      newOrderRespType: 'RESULT',
      newClientOrderId: clientOrderIds(order.signal_uuid).close,
    });
  });

  it("reads the fills' commission and the maintenance bracket after the MARKET order, and the close's commission", async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const opened = await openPosition(trader.client, input(ETH));
    // The paper exchange charges Binance's VIP 0 taker rate, 0.05 %, to 8 decimals.
    const openNotional = mulDecimals(opened.trade_quantity, opened.trade_open_price);
    const fee = (notional: string) => roundDecimal(mulDecimals(notional, '0.0005'), 8);
    expect(compareDecimals(opened.trade_open_commission!, fee(openNotional))).toBe(0);
    const { brackets } = await raw<{
      brackets: { notionalCap: number; maintMarginRatio: number; cum: number }[];
    }>(exchange, trader, 'GET', '/fapi/v1/leverageBracket', { symbol: 'ETHUSDT' });
    const first = brackets[0]!;
    expect(compareDecimals(openNotional, String(first.notionalCap))).toBe(-1);
    expect(opened.trade_maint_margin_rate).toBe(String(first.maintMarginRatio));
    expect(opened.trade_maint_amount).toBe(String(first.cum));
    // The commission is read after the MARKET order; the brackets once, in the round trip of the settings
    // (their cap is checked before the order, issue 53), not again after it.
    const [market] = sent(trader, 'POST', '/fapi/v1/order', 'MARKET');
    const [read] = sent(trader, 'GET', '/fapi/v1/userTrades');
    expect(read!.sentAt).toBeGreaterThan(market!.answeredAt!);
    const bracketReads = sent(trader, 'GET', '/fapi/v1/leverageBracket');
    expect(bracketReads).toHaveLength(1);
    expect(bracketReads[0]!.sentAt).toBeLessThan(market!.sentAt);

    exchange.admin.setPrice('ETHUSDT', '3010');
    const closed = await closePosition(trader.client, {
      symbol_pair: 'ETHUSDT',
      trade_direction: 'BUY',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_order_id: opened.trade_order_id,
      trade_status: 'manual_close',
    });
    const closeNotional = mulDecimals(opened.trade_quantity, closed.trade_close_price!);
    expect(compareDecimals(closed.trade_close_commission!, fee(closeNotional))).toBe(0);
  });

  it('reports stop_loss at the stop fill when the exchange-side stop closed the position first', async () => {
    exchange.admin.setPrice('XRPUSDT', '2.5');
    const trader = newTrader(exchange);
    const order = input(XRP, { trade_direction: 'SELL', trade_leverage: 5 });
    const opened = await openPosition(trader.client, order);
    exchange.admin.setPrice('XRPUSDT', pastStop(opened, 'SELL', 4));
    expect((await positionOf(exchange, trader, 'XRPUSDT')).positionAmt).toBe('0.0');
    const stopFill = await lastFillPrice(exchange, trader, 'XRPUSDT');

    const closed = await closePosition(trader.client, {
      symbol_pair: 'XRPUSDT',
      trade_direction: 'SELL',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 5,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_status: 'take_profit',
    });
    expect(closed).toMatchObject({ trade_status: 'stop_loss', stop_cancelled: false });
    expect(same(closed.trade_close_price, stopFill)).toBe(true);
    // The close was refused as reduce-only on a flat position; nothing new was opened.
    expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET').at(-1)?.code).toBe(-2022);
    expect((await positionOf(exchange, trader, 'XRPUSDT')).positionAmt).toBe('0.0');
  });

  describe('exits held by the exchange (issue 35)', () => {
    const EXITS = { trade_take_profit_percent: 5, trade_treiling_stop_percent: 3 };
    /** A close by hand of a LINKUSDT BUY whose exits the exchange holds. */
    const closeHeld = (trader: Trader, opened: OpenedPosition, leverage: number) =>
      closePosition(trader.client, {
        symbol_pair: 'LINKUSDT',
        trade_direction: 'BUY',
        trade_quantity: opened.trade_quantity,
        trade_leverage: leverage,
        trade_stop_order_id: opened.trade_stop_order_id,
        trade_order_id: opened.trade_order_id,
        trade_status: 'manual_close',
        trade_exits_held: true,
      });

    it("places the take profit and the trailing stop after the fill at trade-core's prices; the take profit closes, the close reports it and cancels the rest", async () => {
      exchange.admin.setPrice('LINKUSDT', '20');
      const trader = newTrader(exchange);
      const order = input(LINK, { exits: EXITS });
      const opened = await openPosition(trader.client, order);
      const ids = clientOrderIds(order.signal_uuid);
      const entry = opened.trade_open_price;
      const triggerPrice = takeProfitPrice({
        direction: 'BUY',
        entryPrice: entry,
        takeProfitPercent: 5,
        leverage: 10,
        pricePrecision: 3,
      });
      const activatePrice = trailingActivationPrice({
        direction: 'BUY',
        entryPrice: entry,
        trailingPercent: 3,
        leverage: 10,
        pricePrecision: 3,
      });
      expect(opened.exits).toEqual({
        take_profit: { held_by: 'exchange', price: triggerPrice },
        trailing: { held_by: 'exchange', price: activatePrice },
      });
      const algos = await openAlgos(exchange, trader, 'LINKUSDT');
      const byId = new Map(algos.map((algo) => [algo.clientAlgoId, algo]));
      expect(byId.get(ids.takeProfit)).toMatchObject({
        side: 'SELL',
        triggerPrice,
        quantity: opened.trade_quantity,
        reduceOnly: true,
      });
      expect(byId.get(ids.trailing)).toMatchObject({ side: 'SELL', quantity: opened.trade_quantity });
      // Both exits go after the MARKET order, never on the road to it.
      const market = sent(trader, 'POST', '/fapi/v1/order', 'MARKET')[0]!;
      const exitRequests = sent(trader, 'POST', '/fapi/v1/algoOrder').filter((request) =>
        [ids.takeProfit, ids.trailing].includes(request.params.get('clientAlgoId') ?? ''),
      );
      expect(exitRequests).toHaveLength(2);
      for (const request of exitRequests) expect(request.sentAt).toBeGreaterThan(market.answeredAt!);

      // The price passes the take profit: the exchange closes the position, no page and no monitor needed.
      exchange.admin.setPrice('LINKUSDT', addDecimals(triggerPrice, '0.01'));
      expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe('0.00');
      const fill = await lastFillPrice(exchange, trader, 'LINKUSDT');
      const closed = await closeHeld(trader, opened, 10);
      expect(closed).toMatchObject({ trade_status: 'take_profit', stop_cancelled: true });
      expect(same(closed.trade_close_price, fill)).toBe(true);
      expect(closed.trade_close_commission).toMatch(/^\d+\.\d+$/);
      // Nothing is left to act on a later position of the symbol.
      expect(await openAlgos(exchange, trader, 'LINKUSDT')).toEqual([]);
      exchange.admin.setPrice('LINKUSDT', '20');
    });

    it('the trailing stop closes after the price rose past its activation and fell back by the callback', async () => {
      exchange.admin.setPrice('LINKUSDT', '20');
      const trader = newTrader(exchange);
      const order = input(LINK, { exits: EXITS });
      const opened = await openPosition(trader.client, order);
      const trailing = opened.exits!.trailing;
      expect(trailing.held_by).toBe('exchange');
      const activation = trailing.held_by === 'exchange' ? trailing.price : '';
      const best = addDecimals(activation, '0.02');
      exchange.admin.setPrice('LINKUSDT', best);
      expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe(opened.trade_quantity);
      // 0.3 % below the best price (3 % trailing at 10×) and more: the exchange closes it.
      exchange.admin.setPrice('LINKUSDT', roundDecimal(mulDecimals(best, '0.996'), 3));
      expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe('0.00');
      const closed = await closeHeld(trader, opened, 10);
      expect(closed.trade_status).toBe('treiling_stop');
      expect(same(closed.trade_close_price, await lastFillPrice(exchange, trader, 'LINKUSDT'))).toBe(true);
      expect(await openAlgos(exchange, trader, 'LINKUSDT')).toEqual([]);
      exchange.admin.setPrice('LINKUSDT', '20');
    });

    it('a close by hand cancels the exits with the stop; a callback rate the exchange cannot take stays with Signaldesk', async () => {
      exchange.admin.setPrice('LINKUSDT', '20');
      const trader = newTrader(exchange);
      // 1 % trailing at 25× is a 0.04 % callback, 0.0 at one decimal: below Binance's 0.1 %.
      const order = input(LINK, {
        trade_leverage: 25,
        exits: { trade_take_profit_percent: 5, trade_treiling_stop_percent: 1 },
      });
      const opened = await openPosition(trader.client, order);
      expect(opened.exits?.take_profit.held_by).toBe('exchange');
      expect(opened.exits?.trailing).toEqual({
        held_by: 'signaldesk',
        reason: "The trailing stop's callback rate 0.0 % is outside the exchange's 0.1–10 %",
      });
      await closeHeld(trader, opened, 25);
      expect(await openAlgos(exchange, trader, 'LINKUSDT')).toEqual([]);
      expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe('0.00');
    });

    it('an open whose algo orders all lost their answers is rolled back with none of its exits left (issue 52)', async () => {
      exchange.admin.setPrice('LINKUSDT', '20');
      const trader = newTrader(exchange);
      // The exchange places the stop, the take profit and the trailing stop, but no answer of the Algo Order
      // API comes back, the look-ups included: nothing tells the flow that the exits exist.
      trader.loseAnswer = (request) => request.path === '/fapi/v1/algoOrder' && request.method !== 'DELETE';
      const order = input(LINK, { exits: EXITS });
      const error = await caught(openPosition(trader.client, order));
      trader.loseAnswer = undefined;
      expect(error).toBeInstanceOf(TradeOpenError);
      expect((await positionOf(exchange, trader, 'LINKUSDT')).positionAmt).toBe('0.00');
      expect(await openAlgos(exchange, trader, 'LINKUSDT')).toEqual([]);
    });

    it("clears Signaldesk's stops and exits left on a symbol before the next open, and nobody else's (issues 52, 54)", async () => {
      exchange.admin.setPrice('LINKUSDT', '20');
      const trader = newTrader(exchange);
      const stale = clientOrderIds(signalUuid());
      const leftover = (clientAlgoId: string, type: string, price: string) =>
        raw(exchange, trader, 'POST', '/fapi/v1/algoOrder', {
          algoType: 'CONDITIONAL',
          symbol: 'LINKUSDT',
          side: 'SELL',
          type,
          quantity: '5',
          triggerPrice: price,
          reduceOnly: 'true',
          workingType: 'MARK_PRICE',
          clientAlgoId,
        });
      // The symbol was traded before (isolated margin); an old trade's take profit and stop are left on it,
      // beside an order the trader placed by hand on the exchange.
      await raw(exchange, trader, 'POST', '/fapi/v1/marginType', {
        symbol: 'LINKUSDT',
        marginType: 'ISOLATED',
      });
      await leftover(stale.takeProfit, 'TAKE_PROFIT_MARKET', '25');
      await leftover(stale.stop, 'STOP_MARKET', '15');
      await leftover('my-own-order', 'TAKE_PROFIT_MARKET', '30');
      // The old trade's trailing stop too (issue 54: its sdr… id was not recognised).
      await raw(exchange, trader, 'POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'LINKUSDT',
        side: 'SELL',
        type: 'TRAILING_STOP_MARKET',
        quantity: '5',
        activatePrice: '22',
        callbackRate: '1',
        reduceOnly: 'true',
        workingType: 'MARK_PRICE',
        clientAlgoId: stale.trailing,
      });
      // And a position the trader opened by hand on the exchange, which the leftovers would close at the old
      // trade's levels: they go all the same (issue 54), the trader's own order stays.
      await raw(exchange, trader, 'POST', '/fapi/v1/leverage', { symbol: 'LINKUSDT', leverage: '10' });
      await raw(exchange, trader, 'POST', '/fapi/v1/order', {
        symbol: 'LINKUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '1',
      });
      expect(await openAlgos(exchange, trader, 'LINKUSDT')).toHaveLength(4);
      const order = input(LINK, { exits: EXITS });
      await openPosition(trader.client, order);
      const ids = clientOrderIds(order.signal_uuid);
      const left = (await openAlgos(exchange, trader, 'LINKUSDT')).map((algo) => algo.clientAlgoId).sort();
      expect(left).toEqual([ids.trailing, ids.stop, ids.takeProfit, ids.backstop, 'my-own-order'].sort());
    });
  });

  it('closes the position again when the stop is refused', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    exchange.admin.setFaults({ account: trader.apiKey, rejectCount: 1, paths: ['/fapi/v1/algoOrder'] });
    const order = input(ETH);
    const error = await caught(openPosition(trader.client, order));
    exchange.admin.clearFaults(trader.apiKey);

    expect(error).toBeInstanceOf(TradeOpenError);
    const failure = error as TradeOpenError;
    expect(failure.failure).toBe(OpenFailure.STOP_REJECTED_POSITION_CLOSED);
    expect(failure.cause).toBeInstanceOf(ExchangeError);
    expect(failure.cause.message).toBe('placeStopOrder: Unknown error: NEW_ORDER_REJECTED (code -2010)');
    expect(failure.partial.trade_order_id).toBe(clientOrderIds(order.signal_uuid).open);
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
    expect(await openAlgos(exchange, trader, 'ETHUSDT')).toEqual([]);
    const [close] = sent(trader, 'POST', '/fapi/v1/order', 'MARKET').slice(-1);
    expect(close?.params.get('newClientOrderId')).toBe(clientOrderIds(order.signal_uuid).close);
    expect(close?.params.get('reduceOnly')).toBe('true');
  });

  it('answers the open position without a stop when the stop and the close are both refused', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    exchange.admin.setFaults({ account: trader.apiKey, rejectCount: 1, paths: ['/fapi/v1/algoOrder'] });
    trader.beforeSend = (request) => {
      // The reduce-only market order that closes the position after the refused stop is refused too.
      if (isMarket(request) && request.params.get('reduceOnly') === 'true') {
        trader.beforeSend = undefined;
        exchange.admin.setFaults({ account: trader.apiKey, rejectCount: 1, paths: ['/fapi/v1/order'] });
      }
    };
    const opened = await openPosition(trader.client, input(ETH));
    exchange.admin.clearFaults(trader.apiKey);
    expect(opened.trade_stop_order_id).toBeNull();
    expect(opened.stop_error?.code).toBe(-2010);
    expect(opened.stop_error?.operation).toBe('placeStopOrder');
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe(opened.trade_quantity);
    // Clean up: the position is closed by the flow (no stop to cancel).
    const closed = await closePosition(trader.client, {
      symbol_pair: 'ETHUSDT',
      trade_direction: 'BUY',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: null,
      trade_order_id: opened.trade_order_id,
      trade_status: 'manual_close',
    });
    expect(closed.stop_cancelled).toBe(false);
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
  });

  describe('when the market order is not answered', () => {
    // Short client timeouts and recvWindow keep these tests quick; the exchange holds the request longer.
    const clientOptions = { timeoutMs: 3000, recvWindowMs: 5000 };
    const isMarket = (request: { method: string; path: string; params: URLSearchParams }) =>
      request.method === 'POST' &&
      request.path === '/fapi/v1/order' &&
      request.params.get('type') === 'MARKET';

    it(
      'throws the timeout when the order never reached the book',
      async () => {
        exchange.admin.setPrice('ETHUSDT', '3000');
        const trader = newTrader(exchange, clientOptions);
        trader.beforeSend = (request) => {
          if (!isMarket(request)) return;
          trader.beforeSend = undefined;
          exchange.admin.setFaults({
            account: trader.apiKey,
            timeoutCount: 1,
            timeoutMs: 8000,
            paths: ['/fapi/v1/order'],
          });
        };
        const error = await caught(openPosition(trader.client, input(ETH)));
        exchange.admin.clearFaults(trader.apiKey);
        expect(error).toBeInstanceOf(ExchangeError);
        expect((error as ExchangeError).failure).toBe(ExchangeFailure.TIMEOUT);
        expect((error as ExchangeError).message).toBe('placeMarketOrder: Timeout');
        // Looked up at once and again after the request's recvWindow: not there either time.
        expect(
          sent(trader, 'GET', '/fapi/v1/order')
            .slice(-2)
            .map((r) => r.code),
        ).toEqual([-2013, -2013]);
        expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
      },
      SLOW_MS,
    );

    it('continues with the order it finds filled when the answer was lost', async () => {
      exchange.admin.setPrice('ETHUSDT', '3000');
      const trader = newTrader(exchange, clientOptions);
      let lost = false;
      trader.loseAnswer = (request) => {
        if (lost || !isMarket(request)) return false;
        lost = true;
        return true;
      };
      const order = input(ETH);
      const opened = await openPosition(trader.client, order);
      expect(lost).toBe(true);
      expect(opened.trade_stop_order_id).toBe(clientOrderIds(order.signal_uuid).stop);
      expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET')).toHaveLength(1);
      expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe(opened.trade_quantity);
      expect(await openAlgos(exchange, trader, 'ETHUSDT')).toHaveLength(2);
    });

    it(
      'throws ORDER_UNCONFIRMED when the order cannot be looked up either',
      async () => {
        exchange.admin.setPrice('ETHUSDT', '3000');
        const trader = newTrader(exchange, clientOptions);
        trader.beforeSend = (request) => {
          if (!isMarket(request)) return;
          trader.beforeSend = undefined;
          exchange.admin.setFaults({
            account: trader.apiKey,
            timeoutCount: 3,
            timeoutMs: 8000,
            paths: ['/fapi/v1/order'],
          });
        };
        const order = input(ETH);
        const error = await caught(openPosition(trader.client, order));
        exchange.admin.clearFaults(trader.apiKey);
        expect(error).toBeInstanceOf(TradeOpenError);
        const failure = error as TradeOpenError;
        expect(failure.failure).toBe(OpenFailure.ORDER_UNCONFIRMED);
        expect(failure.cause.message).toBe('placeMarketOrder: Timeout');
        expect(failure.partial).toEqual({
          trade_order_id: clientOrderIds(order.signal_uuid).open,
          trade_quantity: '0.033',
        });
        // The repair check learns that it never opened.
        const [check] = await checkPositions(trader.client, [
          {
            trade_uuid: 't-unconfirmed',
            symbol_pair: 'ETHUSDT',
            trade_direction: 'BUY',
            trade_stop_order_id: null,
            trade_order_id: failure.partial.trade_order_id ?? null,
          },
        ]);
        expect(check).toEqual({ trade_uuid: 't-unconfirmed', state: 'never_opened' });
      },
      SLOW_MS,
    );
  });

  it('checks open trades against the exchange: open, stopped out, closed elsewhere, never opened', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    exchange.admin.setPrice('XRPUSDT', '2.5');
    exchange.admin.setPrice('LINKUSDT', '20');
    const trader = newTrader(exchange);
    const eth = await openPosition(trader.client, input(ETH));
    const xrp = await openPosition(trader.client, input(XRP, { trade_direction: 'SELL', trade_leverage: 5 }));
    const link = await openPosition(trader.client, input(LINK));
    // XRP: the stop fires. LINK: closed on the exchange by hand (outside Signaldesk).
    exchange.admin.setPrice('XRPUSDT', pastStop(xrp, 'SELL', 4));
    const xrpStopFill = await lastFillPrice(exchange, trader, 'XRPUSDT');
    await raw(exchange, trader, 'POST', '/fapi/v1/order', {
      symbol: 'LINKUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: link.trade_quantity,
      reduceOnly: 'true',
    });
    const never = clientOrderIds(signalUuid());
    const trade = (uuid: string, symbol: string, direction: 'BUY' | 'SELL', opened: OpenedPosition) => ({
      trade_uuid: uuid,
      symbol_pair: symbol,
      trade_direction: direction,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_order_id: opened.trade_order_id,
    });
    const checks = await checkPositions(trader.client, [
      trade('eth', 'ETHUSDT', 'BUY', eth),
      trade('xrp', 'XRPUSDT', 'SELL', xrp),
      trade('link', 'LINKUSDT', 'BUY', link),
      {
        trade_uuid: 'never',
        symbol_pair: 'ETHUSDT',
        trade_direction: 'SELL',
        trade_stop_order_id: never.stop,
        trade_order_id: never.open,
      },
    ]);
    expect(checks[0]).toEqual({
      trade_uuid: 'eth',
      state: 'open',
      trade_open_price: (await positionOf(exchange, trader, 'ETHUSDT')).entryPrice,
      trade_quantity: eth.trade_quantity,
    });
    expect(checks[1]).toMatchObject({ trade_uuid: 'xrp', state: 'closed', trade_status: 'stop_loss' });
    expect(same((checks[1] as { trade_close_price?: string }).trade_close_price, xrpStopFill)).toBe(true);
    expect(checks[2]).toEqual({
      trade_uuid: 'link',
      state: 'closed',
      trade_status: 'manual_close',
      trade_close_price: undefined,
    });
    expect(checks[3]).toEqual({ trade_uuid: 'never', state: 'never_opened' });
    // LINK's stop, left waiting by the close on the exchange, is cancelled by the check (docs/server.md
    // "Faults"): reduce-only on the closing side, it would otherwise act on a later LINK position.
    expect(await raw(exchange, trader, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'LINKUSDT' })).toEqual([]);
    // ETH is open: its stop and its backstop stay.
    expect(await raw(exchange, trader, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'ETHUSDT' })).toHaveLength(
      2,
    );
    expect(
      sent(trader, 'GET', '/fapi/v2/positionRisk')
        .slice(-3)
        .map((r) => r.params.get('symbol')),
    ).toEqual(expect.arrayContaining(['ETHUSDT', 'XRPUSDT', 'LINKUSDT']));
  });
});

describe('trade flow on a legacy exchange (STOP on /fapi/v1/order, SPEC.md §7)', () => {
  let exchange: PaperExchangeHandle;
  beforeAll(() => {
    exchange = legacy;
  });

  it('opens with the stop on /fapi/v1/order, and reports its fill when it closed the position', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const order = input(ETH);
    const opened = await openPosition(trader.client, order);
    const stop = expectedStop(order, (await positionOf(exchange, trader, 'ETHUSDT')).entryPrice);
    expect(await openOrders(exchange, trader, 'ETHUSDT')).toEqual([
      expect.objectContaining({
        clientOrderId: clientOrderIds(order.signal_uuid).stop,
        type: 'STOP',
        side: 'SELL',
        stopPrice: stop.stop,
        price: stop.limit,
        origQty: opened.trade_quantity,
        reduceOnly: true,
      }),
    ]);
    // Only the backstop goes to the Algo Order API (as the exits do, issue 54).
    expect(sent(trader, 'POST', '/fapi/v1/algoOrder').map((r) => r.params.get('type'))).toEqual([
      'STOP_MARKET',
    ]);
    expect(knownStopRoute(exchange.url)).toBeUndefined();

    exchange.admin.setPrice('ETHUSDT', pastStop(opened, 'BUY', 2));
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
    const closed = await closePosition(trader.client, {
      symbol_pair: 'ETHUSDT',
      trade_direction: 'BUY',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_status: 'manual_close',
    });
    expect(closed.trade_status).toBe('stop_loss');
    expect(same(closed.trade_close_price, await lastFillPrice(exchange, trader, 'ETHUSDT'))).toBe(true);
  });

  it('closes by hand and cancels the stop on /fapi/v1/order', async () => {
    exchange.admin.setPrice('ETHUSDT', '3000');
    const trader = newTrader(exchange);
    const opened = await openPosition(trader.client, input(ETH, { trade_direction: 'SELL' }));
    const closed = await closePosition(trader.client, {
      symbol_pair: 'ETHUSDT',
      trade_direction: 'SELL',
      trade_quantity: opened.trade_quantity,
      trade_leverage: 10,
      trade_stop_order_id: opened.trade_stop_order_id,
      trade_status: 'reverse_signal',
    });
    expect(closed).toMatchObject({ trade_status: 'reverse_signal', stop_cancelled: true });
    expect(same(closed.trade_close_price, await lastFillPrice(exchange, trader, 'ETHUSDT'))).toBe(true);
    expect(await openOrders(exchange, trader, 'ETHUSDT')).toEqual([]);
    expect((await positionOf(exchange, trader, 'ETHUSDT')).positionAmt).toBe('0.000');
    expect(sent(trader, 'DELETE', '/fapi/v1/order').map((r) => r.code)).toEqual([undefined]);
  });
});
