// The paper exchange (decimal.js) and trade-core (Rust, compiled pkg/) are independent implementations of the
// same money math (binance-fapi.md §12, SPEC.md §5). A real trade on the exchange, checked against trade-core:
// order size and stop price from trade-core are accepted as placed; PNL, notional, ROE and the liquidation
// price the exchange reports equal trade-core's; the realized PNL of a stop-out equals trade-core's PNL at
// the fill price.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PaperExchangeHandle } from '../../paper-exchange/src/index';
import {
  admin,
  newAccount,
  setPrice,
  startTestExchange,
  type TestClient,
} from '../../paper-exchange/tests/helpers';
import {
  compareDecimals,
  initTradeCore,
  initialMargin,
  liquidationPrice,
  notional,
  orderQuantity,
  roePercent,
  roundDecimal,
  stopPrice,
  sumDecimals,
  unrealizedPnl,
} from '../../shared-core/trade-core-node';

type Json = Record<string, string>;
const SYMBOL = 'BTCUSDT';
const BTC_PRICE_PRECISION = 1; // tickSize 0.1
const BTC_QUANTITY_PRECISION = 3; // stepSize 0.001

let handle: PaperExchangeHandle;

beforeAll(async () => {
  await initTradeCore();
  handle = await startTestExchange({ seed: 7, historyDays: 1 });
});
afterAll(async () => handle?.close());

async function positionRisk(client: TestClient): Promise<Json> {
  const { body } = await client.signed<Json[]>('GET', '/fapi/v2/positionRisk', { symbol: SYMBOL });
  const risk = body[0];
  if (!risk) throw new Error('no position risk');
  return risk;
}

async function bracketFor(client: TestClient, notionalValue: string) {
  const { body } = await client.signed<{ brackets: Record<string, number>[] }>(
    'GET',
    '/fapi/v1/leverageBracket',
    {
      symbol: SYMBOL,
    },
  );
  const bracket = body.brackets.find(
    (b) => Number(notionalValue) >= (b.notionalFloor ?? 0) && Number(notionalValue) < (b.notionalCap ?? 0),
  );
  if (!bracket) throw new Error('no bracket');
  return { maintMarginRate: String(bracket.maintMarginRatio), maintAmount: String(bracket.cum) };
}

function expectSameDecimal(actual: string | undefined, expected: string) {
  expect(actual, `exchange ${actual} vs trade-core ${expected}`).toBeDefined();
  expect(compareDecimals(actual!, expected), `exchange ${actual} vs trade-core ${expected}`).toBe(0);
}

describe.each(['BUY', 'SELL'] as const)('an isolated %s position', (direction) => {
  test('matches trade-core for size, PNL, notional, ROE, liquidation, stop price and realized PNL', async () => {
    const client = await newAccount(handle, '10000');
    await setPrice(handle, SYMBOL, '60000.0');
    const leverage = '10';
    const margin = '75.5';
    await client.signed('POST', '/fapi/v1/leverage', { symbol: SYMBOL, leverage });
    await client.signed('POST', '/fapi/v1/marginType', { symbol: SYMBOL, marginType: 'ISOLATED' });

    // SPEC.md §5 order size from trade-core: 75.5 × 10 ÷ 60000 = 0.012583… → 0.012 (toward zero).
    const quantity = orderQuantity({
      margin,
      leverage,
      entryPrice: '60000.0',
      quantityPrecision: BTC_QUANTITY_PRECISION,
    });
    expect(quantity).toBe('0.012');
    const open = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: SYMBOL,
      side: direction,
      type: 'MARKET',
      quantity,
      newOrderRespType: 'RESULT',
    });
    expect(open.status).toBe(200);

    const entryPrice = (await positionRisk(client)).entryPrice!;
    const mark = direction === 'BUY' ? '61234.5' : '58765.4';
    await setPrice(handle, SYMBOL, mark);
    const risk = await positionRisk(client);
    expect(Math.abs(Number(risk.positionAmt))).toBe(Number(quantity));

    const pnl = unrealizedPnl({ direction, quantity, entryPrice, currentPrice: mark });
    expectSameDecimal(risk.unRealizedProfit, pnl);
    expectSameDecimal(String(Math.abs(Number(risk.notional))), notional(quantity, mark));

    const wallet = risk.isolatedWallet!;
    const { maintMarginRate, maintAmount } = await bracketFor(client, notional(quantity, entryPrice));
    const liquidation = liquidationPrice({
      direction,
      quantity,
      entryPrice,
      walletBalance: wallet,
      maintMarginRate,
      maintAmount,
      pricePrecision: BTC_PRICE_PRECISION,
    });
    expect(roundDecimal(risk.liquidationPrice!, BTC_PRICE_PRECISION)).toBe(liquidation);

    const summary = await admin<{ positions: Json[] }>(handle, 'GET', `/accounts/${client.apiKey}`);
    const roe = roePercent(pnl, initialMargin(quantity, mark, leverage));
    expect(summary.body.positions[0]?.roePercent).toBe(roundDecimal(roe, 2));

    // The stop from trade-core's SPEC.md §5 formula, placed through the Algo Order API, fires on a move.
    const stop = stopPrice({
      direction,
      entryPrice,
      stopLossPercent: '10',
      leverage,
      pricePrecision: BTC_PRICE_PRECISION,
    });
    const placed = await client.signed<Json>('POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: SYMBOL,
      side: direction === 'BUY' ? 'SELL' : 'BUY',
      type: 'STOP_MARKET',
      triggerPrice: stop,
      quantity,
      reduceOnly: 'true',
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const beyond = direction === 'BUY' ? '59000.0' : '61000.0';
    await setPrice(handle, SYMBOL, beyond);
    expect(Number((await positionRisk(client)).positionAmt)).toBe(0);

    const trades = (await client.signed<Json[]>('GET', '/fapi/v1/userTrades', { symbol: SYMBOL })).body;
    const closing = trades.filter((t) => t.side !== direction);
    const closedQuantity = sumDecimals(closing.map((t) => t.qty!));
    expect(compareDecimals(closedQuantity, quantity)).toBe(0);
    for (const trade of closing) {
      const expected = unrealizedPnl({
        direction,
        quantity: trade.qty!,
        entryPrice,
        currentPrice: trade.price!,
      });
      expectSameDecimal(trade.realizedPnl, expected);
    }
  });
});
