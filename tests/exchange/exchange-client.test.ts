// shared-core/exchange-client.ts's trading calls against the real paper exchange: account settings with their
// "already so" codes, position risk as decimal strings, MARKET orders, and STOP orders on the route the
// platform takes (SPEC.md §7 /fapi/v1/order, or the Algo Order API after -4120, remembered per platform).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperExchangeHandle } from '../../paper-exchange/src/index';
import {
  EXCHANGE_ERROR_CATALOGUE,
  ExchangeError,
  ExchangeErrorType,
  ExchangeFailure,
  describeExchangeCode,
  knownStopRoute,
} from '../../shared-core/exchange-client';
import { newTrader, raw, sent, signalUuid, startExchange, type Trader } from './helpers';

async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ExchangeError);
  return caught as ExchangeError;
}

const stopId = () => `sds${signalUuid().replace(/-/g, '')}`;

describe('the SPEC.md §8 catalogue', () => {
  it('takes -4046, -4059 and -4120 as information that is not shown', () => {
    for (const code of [-4046, -4059, -4120]) {
      expect(describeExchangeCode(code, 'whatever')).toMatchObject({
        type: ExchangeErrorType.INFORMATION,
        returned: true,
        shown: false,
      });
    }
    expect(EXCHANGE_ERROR_CATALOGUE[-4120]?.text).toBe(
      'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.',
    );
  });

  it("names an uncatalogued code 'Unknown error: <message> (code N)'", () => {
    expect(describeExchangeCode(-1234, 'Something odd.').text).toBe(
      'Unknown error: Something odd. (code -1234)',
    );
  });
});

// The exchanges run for the whole file, so they never share a port (stop routes are remembered by URL).
let strict: PaperExchangeHandle;
let fresh: PaperExchangeHandle;
let legacy: PaperExchangeHandle;
beforeAll(async () => {
  [strict, fresh, legacy] = await Promise.all([
    startExchange(),
    startExchange(),
    startExchange({ legacyConditionalOrders: true }),
  ]);
  for (const exchange of [strict, fresh, legacy]) exchange.admin.setPrice('ETHUSDT', '3000');
});
afterAll(async () => {
  await Promise.all([strict?.close(), fresh?.close(), legacy?.close()]);
});

describe('ExchangeClient trading calls (strict exchange: STOP only through the Algo Order API)', () => {
  let exchange: PaperExchangeHandle;
  let trader: Trader;
  beforeAll(() => {
    exchange = strict;
    trader = newTrader(exchange);
  });

  it('treats -4046 and -4059 as success and sends them as SPEC.md §7 says', async () => {
    await trader.client.setMarginTypeIsolated('ETHUSDT');
    await trader.client.setMarginTypeIsolated('ETHUSDT');
    await trader.client.setOneWayMode();
    const margin = sent(trader, 'POST', '/fapi/v1/marginType');
    expect(margin.map((r) => r.params.get('marginType'))).toEqual(['ISOLATED', 'ISOLATED']);
    expect(margin.map((r) => r.code)).toEqual([undefined, -4046]);
    const [mode] = sent(trader, 'POST', '/fapi/v1/positionSide/dual');
    expect(mode?.params.get('dualSidePosition')).toBe('false');
    expect(mode?.code).toBe(-4059);
    expect(mode?.params.get('recvWindow')).toBe('10000');
  });

  it('prefixes an exchange refusal with the operation name', async () => {
    const error = await failure(trader.client.setLeverage('ETHUSDT', 1000));
    expect(error.failure).toBe(ExchangeFailure.EXCHANGE);
    expect(error.code).toBe(-4028);
    expect(error.message).toMatch(/^setLeverage: Unknown error: .+ \(code -4028\)$/);
    await trader.client.setLeverage('ETHUSDT', 10);
  });

  it('reads position risk as the decimal strings of the exchange', async () => {
    expect(await trader.client.getPositionRisk('ETHUSDT')).toEqual({
      entryPrice: '0.00000000',
      markPrice: '3000.00000000',
      positionAmt: '0.000',
    });
  });

  it('places a MARKET order answered in its final state and finds it by its client id', async () => {
    const id = `sdo${signalUuid().replace(/-/g, '')}`;
    const order = await trader.client.placeMarketOrder({
      symbol: 'ETHUSDT',
      side: 'BUY',
      quantity: '0.050',
      newClientOrderId: id,
    });
    expect(order).toMatchObject({ status: 'FILLED', executedQty: '0.050', clientOrderId: id });
    expect(Number(order.avgPrice)).toBeGreaterThan(3000);
    expect(sent(trader, 'POST', '/fapi/v1/order', 'MARKET')[0]?.params.get('newOrderRespType')).toBe(
      'RESULT',
    );
    expect(await trader.client.getOrder('ETHUSDT', id)).toEqual(order);
    expect(await trader.client.getOrder('ETHUSDT', 'sdo-none')).toBeUndefined();
    const risk = await trader.client.getPositionRisk('ETHUSDT');
    expect(risk.positionAmt).toBe('0.050');
    expect(Number(risk.entryPrice)).toBe(Number(order.avgPrice));
  });

  it('moves STOP orders to the Algo Order API after -4120 and remembers it for the platform', async () => {
    expect(knownStopRoute(exchange.url)).toBeUndefined();
    const first = stopId();
    const stop = {
      symbol: 'ETHUSDT',
      side: 'SELL',
      quantity: '0.050',
      stopPrice: '2900.00',
      price: '2871.00',
    };
    expect(await trader.client.placeStopOrder({ ...stop, side: 'SELL', clientId: first })).toBe('algo');
    expect(knownStopRoute(exchange.url)).toBe('algo');
    const refused = sent(trader, 'POST', '/fapi/v1/order', 'STOP');
    expect(refused.map((r) => r.code)).toEqual([-4120]);
    const [algo] = sent(trader, 'POST', '/fapi/v1/algoOrder');
    expect(Object.fromEntries(algo!.params)).toMatchObject({
      algoType: 'CONDITIONAL',
      type: 'STOP',
      side: 'SELL',
      triggerPrice: '2900.00',
      price: '2871.00',
      quantity: '0.050',
      reduceOnly: 'true',
      timeInForce: 'GTC',
      clientAlgoId: first,
    });

    // Another client of the same platform goes straight to the algo route.
    const other = newTrader(exchange);
    const second = stopId();
    expect(await other.client.placeStopOrder({ ...stop, side: 'SELL', clientId: second })).toBe('algo');
    expect(sent(other, 'POST', '/fapi/v1/order', 'STOP')).toHaveLength(0);

    expect(await trader.client.getStopOrder('ETHUSDT', first)).toEqual({ status: 'NEW' });
    await trader.client.cancelStopOrder('ETHUSDT', first);
    expect(await trader.client.getStopOrder('ETHUSDT', first)).toEqual({ status: 'CANCELED' });
    expect(sent(trader, 'DELETE', '/fapi/v1/order')).toHaveLength(0);
  });

  it('reports an algo stop that fired with the status and price of the order it placed', async () => {
    const id = stopId();
    await trader.client.placeStopOrder({
      symbol: 'ETHUSDT',
      side: 'SELL',
      quantity: '0.050',
      stopPrice: '2990.00',
      price: '2960.00',
      clientId: id,
    });
    exchange.admin.setPrice('ETHUSDT', '2985');
    const state = await trader.client.getStopOrder('ETHUSDT', id);
    const trades = await raw<{ price: string; side: string }[]>(
      exchange,
      trader,
      'GET',
      '/fapi/v1/userTrades',
      {
        symbol: 'ETHUSDT',
      },
    );
    const fill = trades.at(-1)!;
    expect(fill.side).toBe('SELL');
    expect(state?.status).toBe('FILLED');
    expect(Number(state?.avgPrice)).toBe(Number(fill.price));
    expect((await trader.client.getPositionRisk('ETHUSDT')).positionAmt).toBe('0.000');
    exchange.admin.setPrice('ETHUSDT', '3000');
  });

  it('places the exits the exchange holds (issue 35): a take profit that fires at its trigger, a trailing stop, reduce-only', async () => {
    exchange.admin.setPrice('SOLUSDT', '150');
    await trader.client.placeMarketOrder({
      symbol: 'SOLUSDT',
      side: 'BUY',
      quantity: '1.00',
      newClientOrderId: stopId(),
    });
    const [takeProfit, trailing] = [stopId(), stopId()];
    await trader.client.placeExitOrder({
      type: 'TAKE_PROFIT_MARKET',
      symbol: 'SOLUSDT',
      side: 'SELL',
      quantity: '1.00',
      triggerPrice: '155.00',
      clientId: takeProfit,
    });
    await trader.client.placeExitOrder({
      type: 'TRAILING_STOP_MARKET',
      symbol: 'SOLUSDT',
      side: 'SELL',
      quantity: '1.00',
      activatePrice: '151.00',
      callbackRate: '1.0',
      clientId: trailing,
    });
    const open = await raw<
      { clientAlgoId: string; orderType: string; workingType: string; reduceOnly: boolean }[]
    >(exchange, trader, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'SOLUSDT' });
    expect(
      open
        .filter((algo) => [takeProfit, trailing].includes(algo.clientAlgoId))
        .map(({ orderType, workingType, reduceOnly }) => ({ orderType, workingType, reduceOnly })),
    ).toEqual([
      { orderType: 'TAKE_PROFIT_MARKET', workingType: 'MARK_PRICE', reduceOnly: true },
      { orderType: 'TRAILING_STOP_MARKET', workingType: 'MARK_PRICE', reduceOnly: true },
    ]);
    expect((await trader.client.getStopOrder('SOLUSDT', takeProfit))?.status).toBe('NEW');
    exchange.admin.setPrice('SOLUSDT', '154.99');
    expect((await trader.client.getStopOrder('SOLUSDT', takeProfit))?.status).toBe('NEW');
    exchange.admin.setPrice('SOLUSDT', '155.2');
    expect((await trader.client.getStopOrder('SOLUSDT', takeProfit))?.status).toBe('FILLED');
    expect((await trader.client.getPositionRisk('SOLUSDT')).positionAmt).toBe('0.00');
    // The trailing stop is left over once the take profit has closed the position: cancelled by its id.
    await trader.client.cancelExitOrder(trailing);
    const error = await failure(trader.client.cancelExitOrder(trailing));
    expect(error.code).toBe(-2011);
  });

  it('answers -2011 named by the operation for a stop that neither route knows', async () => {
    const id = stopId();
    const error = await failure(trader.client.cancelStopOrder('ETHUSDT', id));
    expect(error.code).toBe(-2011);
    expect(error.message).toBe('cancelStopOrder: Unknown order sent');
    expect(error.shown).toBe(true);
    expect(await trader.client.getStopOrder('ETHUSDT', id)).toBeUndefined();
  });
});

describe('ExchangeClient on a platform whose stop route is not known yet', () => {
  it('finds and cancels an algo stop by trying /fapi/v1/order first, then the Algo Order API', async () => {
    const exchange = fresh;
    const trader = newTrader(exchange);
    const id = stopId();
    const placed = await raw<{ algoStatus?: string }>(exchange, trader, 'POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'ETHUSDT',
      side: 'SELL',
      type: 'STOP',
      triggerPrice: '2900.00',
      price: '2871.00',
      quantity: '0.050',
      reduceOnly: 'true',
      clientAlgoId: id,
    });
    expect(placed.algoStatus).toBe('NEW');
    expect(knownStopRoute(exchange.url)).toBeUndefined();
    expect(await trader.client.getStopOrder('ETHUSDT', id)).toEqual({ status: 'NEW' });
    await trader.client.cancelStopOrder('ETHUSDT', id);
    expect(sent(trader, 'DELETE', '/fapi/v1/order').map((r) => r.code)).toEqual([-2011]);
    expect(sent(trader, 'DELETE', '/fapi/v1/algoOrder').map((r) => r.code)).toEqual([undefined]);
    expect(await trader.client.getStopOrder('ETHUSDT', id)).toEqual({ status: 'CANCELED' });
  });
});

describe('ExchangeClient on a legacy exchange (STOP accepted on /fapi/v1/order)', () => {
  it('places, reads and cancels the stop on /fapi/v1/order as SPEC.md §7 says', async () => {
    const exchange = legacy;
    const trader = newTrader(exchange);
    const id = stopId();
    const stop = { symbol: 'ETHUSDT', side: 'SELL' as const, quantity: '0.050', stopPrice: '2900.00' };
    expect(await trader.client.placeStopOrder({ ...stop, price: '2871.00', clientId: id })).toBe('order');
    expect(knownStopRoute(exchange.url)).toBeUndefined();
    const [placed] = sent(trader, 'POST', '/fapi/v1/order', 'STOP');
    expect(Object.fromEntries(placed!.params)).toMatchObject({
      stopPrice: '2900.00',
      price: '2871.00',
      reduceOnly: 'true',
      timeInForce: 'GTC',
      newClientOrderId: id,
    });
    expect(placed?.code).toBeUndefined();
    expect(sent(trader, 'POST', '/fapi/v1/algoOrder')).toHaveLength(0);
    expect(await trader.client.getStopOrder('ETHUSDT', id)).toEqual({ status: 'NEW' });
    await trader.client.cancelStopOrder('ETHUSDT', id);
    expect(await trader.client.getStopOrder('ETHUSDT', id)).toEqual({ status: 'CANCELED' });
    expect(sent(trader, 'DELETE', '/fapi/v1/algoOrder')).toHaveLength(0);
  });
});
