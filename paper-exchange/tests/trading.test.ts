// The trading model against the running server: a full trade with balances and PNL checked against the
// formulas of reference §12, liquidation, hedge mode, stop orders (algo and legacy), and the error codes.
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperExchangeHandle } from '../src/index.js';
import { admin, expectCode, newAccount, setPrice, startTestExchange, type TestClient } from './helpers.js';

const D = (value: Decimal.Value) => new Decimal(value);
const TAKER = D('0.0005');
/** Half spread of a BTCUSDT fill: 0.5 bp of the mark, rounded up to the 0.1 tick. */
const halfSpread = (mark: string) => D(mark).times('0.00005').div('0.1').ceil().times('0.1');
const fee = (qty: string, price: Decimal) => D(qty).times(price).times(TAKER).toDecimalPlaces(8);

type Json = Record<string, unknown>;
let handle: PaperExchangeHandle;

beforeAll(async () => {
  handle = await startTestExchange();
});
afterAll(async () => {
  await handle.close();
});

async function account(client: TestClient): Promise<Json> {
  return (await client.signed<Json>('GET', '/fapi/v2/account')).body;
}

async function positionRisk(client: TestClient, symbol = 'BTCUSDT'): Promise<Json[]> {
  return (await client.signed<Json[]>('GET', '/fapi/v2/positionRisk', { symbol })).body;
}

describe('a full isolated trade (reference §12)', () => {
  it('opens, follows the mark, triggers its stop on a price move and books PNL and fees exactly', async () => {
    const client = await newAccount(handle, '10000');
    await setPrice(handle, 'BTCUSDT', '60000.0');

    expect(
      (await client.signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '10' })).body,
    ).toEqual({
      leverage: 10,
      maxNotionalValue: '230000000',
      symbol: 'BTCUSDT',
    });
    expect(
      (await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' }))
        .body,
    ).toEqual({
      code: 200,
      msg: 'success',
    });
    expectCode(
      await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' }),
      400,
      -4046,
    );
    expectCode(
      await client.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }),
      400,
      -4059,
    );

    const open = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
      newOrderRespType: 'RESULT',
    });
    const entry = D('60000.0').plus(halfSpread('60000.0'));
    expect(open.body).toMatchObject({
      status: 'FILLED',
      executedQty: '0.010',
      avgPrice: `${entry.toFixed(5)}`,
      type: 'MARKET',
    });
    const openFee = fee('0.010', entry);
    const walletAfterOpen = D(10000).minus(openFee);
    const isolatedWallet = D('0.010').times(entry).div(10);

    // §12 at mark 61000: uPnL = amt × (mark − entry); isolatedMargin = iw + uPnL; LP (one-way isolated long).
    await setPrice(handle, 'BTCUSDT', '61000.0');
    const [risk] = await positionRisk(client);
    const pnl = D('0.010').times(D('61000').minus(entry));
    const liquidation = D('0.010')
      .times(entry)
      .minus(isolatedWallet)
      .minus(0)
      .div(D('0.010').times(D(1).minus('0.004')));
    expect(risk).toMatchObject({
      symbol: 'BTCUSDT',
      positionAmt: '0.010',
      entryPrice: entry.toFixed(8),
      markPrice: '61000.00000000',
      unRealizedProfit: pnl.toFixed(8),
      notional: '610.00000000',
      isolatedWallet: isolatedWallet.toFixed(8),
      isolatedMargin: isolatedWallet.plus(pnl).toFixed(8),
      liquidationPrice: liquidation.toFixed(8),
      leverage: '10',
      marginType: 'isolated',
      isAutoAddMargin: 'false',
      positionSide: 'BOTH',
    });
    const totals = await account(client);
    expect(totals).toMatchObject({
      totalWalletBalance: walletAfterOpen.toFixed(8),
      totalUnrealizedProfit: pnl.toFixed(8),
      totalMarginBalance: walletAfterOpen.plus(pnl).toFixed(8),
      availableBalance: walletAfterOpen.minus(isolatedWallet).toFixed(8),
    });
    // ROE = uPnL / initial margin × 100, initial margin = |notional| / leverage (ccxt's percentage).
    const v3 = (await client.signed<Json[]>('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).body;
    expect(v3[0]).toMatchObject({ initialMargin: '61.00000000', notional: '610.00000000' });
    const summary = await admin<{ positions: Json[] }>(handle, 'GET', `/accounts/${client.apiKey}`);
    expect(summary.body.positions[0]).toMatchObject({
      roePercent: pnl.div(61).times(100).toFixed(2),
      liquidationPrice: liquidation.toFixed(8),
    });

    // Stop loss through the Algo Order API (conditional types on /fapi/v1/order answer -4120 by default).
    expectCode(
      await client.signed('POST', '/fapi/v1/order', {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP',
        quantity: '0.010',
        price: '57900.0',
        stopPrice: '58000.0',
      }),
      400,
      -4120,
    );
    const stop = await client.signed<Json>('POST', '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: '58000.0',
      quantity: '0.010',
      reduceOnly: 'true',
      clientAlgoId: 'stop-1',
    });
    expect(stop.body).toMatchObject({
      algoStatus: 'NEW',
      orderType: 'STOP_MARKET',
      triggerPrice: '58000.00',
      clientAlgoId: 'stop-1',
    });

    await setPrice(handle, 'BTCUSDT', '58100.0');
    expect(
      (await client.signed<Json>('GET', '/fapi/v1/algoOrder', { algoId: String(stop.body.algoId) })).body
        .algoStatus,
    ).toBe('NEW');
    await setPrice(handle, 'BTCUSDT', '57900.0');
    const fired = (await client.signed<Json>('GET', '/fapi/v1/algoOrder', { clientAlgoId: 'stop-1' })).body;
    expect(fired).toMatchObject({ algoStatus: 'FINISHED', executedQty: '0.010' });

    const exit = D('57900.0').minus(halfSpread('57900.0'));
    const realized = D('0.010').times(exit.minus(entry));
    const closeFee = fee('0.010', exit);
    const [flat] = await positionRisk(client);
    expect(flat).toMatchObject({
      positionAmt: '0.000',
      entryPrice: '0.00000000',
      isolatedWallet: '0',
      liquidationPrice: '0',
    });
    const finalWallet = walletAfterOpen.plus(realized).minus(closeFee);
    expect(await account(client)).toMatchObject({
      totalWalletBalance: finalWallet.toFixed(8),
      availableBalance: finalWallet.toFixed(8),
      totalUnrealizedProfit: '0.00000000',
    });

    const trades = (await client.signed<Json[]>('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).body;
    expect(trades).toHaveLength(2);
    expect(trades[1]).toMatchObject({
      side: 'SELL',
      price: exit.toFixed(2),
      qty: '0.010',
      realizedPnl: realized.toFixed(8),
      commission: closeFee.toFixed(8),
      buyer: false,
      maker: false,
    });
    const income = (await client.signed<Json[]>('GET', '/fapi/v1/income', { symbol: 'BTCUSDT' })).body;
    const sum = (type: string) =>
      income.filter((i) => i.incomeType === type).reduce((s, i) => s.plus(i.income as string), D(0));
    expect(sum('REALIZED_PNL').toFixed(8)).toBe(realized.toFixed(8));
    expect(sum('COMMISSION').toFixed(8)).toBe(openFee.plus(closeFee).negated().toFixed(8));
  });

  it('closes by hand with a market order and cancels the stop (the app flow, origClientOrderId)', async () => {
    const client = await newAccount(handle, '5000');
    await admin(handle, 'POST', `/accounts/${client.apiKey}/settings`, { legacyConditionalOrders: true });
    await setPrice(handle, 'ETHUSDT', '3000.00');
    await client.signed('POST', '/fapi/v1/leverage', { symbol: 'ETHUSDT', leverage: '5' });
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'ETHUSDT', marginType: 'ISOLATED' });
    const open = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.500',
    });
    expect(open.body).toMatchObject({ status: 'NEW', executedQty: '0.000' });
    const stop = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'STOP',
      quantity: '0.500',
      price: '3110.00',
      stopPrice: '3100.00',
      newClientOrderId: 'sl-eth-1',
    });
    expect(stop.body).toMatchObject({ status: 'NEW', type: 'STOP', stopPrice: '3100.00', price: '3110.00' });
    const entryPrice = D((await positionRisk(client, 'ETHUSDT'))[0]?.entryPrice as string);
    await setPrice(handle, 'ETHUSDT', '2950.00');
    const close = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.500',
      newOrderRespType: 'RESULT',
    });
    expect(close.body.status).toBe('FILLED');
    const cancelled = await client.signed<Json>('DELETE', '/fapi/v1/order', {
      symbol: 'ETHUSDT',
      origClientOrderId: 'sl-eth-1',
    });
    expect(cancelled.body).toMatchObject({ status: 'CANCELED', clientOrderId: 'sl-eth-1' });
    expectCode(
      await client.signed('DELETE', '/fapi/v1/order', { symbol: 'ETHUSDT', origClientOrderId: 'sl-eth-1' }),
      400,
      -2011,
    );
    const trades = (await client.signed<Json[]>('GET', '/fapi/v1/userTrades', { symbol: 'ETHUSDT' })).body;
    const exit = D(trades[1]?.price as string);
    expect(trades[1]?.realizedPnl).toBe(D('0.5').times(entryPrice.minus(exit)).toFixed(8));
  });
});

describe('legacy conditional orders and stop-limit', () => {
  it('accepts STOP on /fapi/v1/order behind the switch and works it as a limit once triggered', async () => {
    const client = await newAccount(handle);
    await setPrice(handle, 'SOLUSDT', '200.0000');
    expectCode(
      await client.signed('POST', '/fapi/v1/order', {
        symbol: 'SOLUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        stopPrice: '190',
        quantity: '1',
      }),
      400,
      -4120,
    );
    await admin(handle, 'POST', `/accounts/${client.apiKey}/settings`, { legacyConditionalOrders: true });
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '2',
    });
    const stop = await client.signed<Json>('POST', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      side: 'SELL',
      type: 'STOP',
      stopPrice: '195.00',
      price: '194.00',
      quantity: '2',
      reduceOnly: 'true',
    });
    expect(stop.status).toBe(200);
    await setPrice(handle, 'SOLUSDT', '194.9000');
    const order = (
      await client.signed<Json>('GET', '/fapi/v1/order', {
        symbol: 'SOLUSDT',
        orderId: String(stop.body.orderId),
      })
    ).body;
    expect(order).toMatchObject({ status: 'FILLED', origType: 'STOP', executedQty: '2.00' });
    expect(D(order.avgPrice as string).toNumber()).toBeGreaterThanOrEqual(194);
    expect((await positionRisk(client, 'SOLUSDT'))[0]?.positionAmt).toBe('0.00');
  });
});

describe('liquidation', () => {
  it('liquidates an isolated position when the mark crosses its liquidation price; the loss is the margin', async () => {
    const client = await newAccount(handle, '1000');
    await setPrice(handle, 'BNBUSDT', '600.000');
    await client.signed('POST', '/fapi/v1/leverage', { symbol: 'BNBUSDT', leverage: '20' });
    await client.signed('POST', '/fapi/v1/marginType', { symbol: 'BNBUSDT', marginType: 'ISOLATED' });
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BNBUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '1.00',
    });
    const [risk] = await positionRisk(client, 'BNBUSDT');
    const wallet = D((await account(client)).totalWalletBalance as string);
    const iw = D(risk?.isolatedWallet as string);
    const lp = D(risk?.liquidationPrice as string);
    expect(lp.toNumber()).toBeGreaterThan(560);
    await setPrice(handle, 'BNBUSDT', lp.plus('0.05').toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(3));
    expect((await positionRisk(client, 'BNBUSDT'))[0]?.positionAmt).toBe('1.00');
    await setPrice(handle, 'BNBUSDT', lp.minus('0.05').toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(3));
    expect((await positionRisk(client, 'BNBUSDT'))[0]?.positionAmt).toBe('0.00');
    expect((await account(client)).totalWalletBalance).toBe(wallet.minus(iw).toFixed(8));
    const orders = (await client.signed<Json[]>('GET', '/fapi/v1/allOrders', { symbol: 'BNBUSDT' })).body;
    expect(orders.at(-1)).toMatchObject({
      type: 'LIQUIDATION',
      status: 'FILLED',
      clientOrderId: expect.stringMatching(/^autoclose-/),
    });
  });

  it('liquidates cross positions when the margin balance falls to the maintenance margin', async () => {
    const client = await newAccount(handle, '100');
    await setPrice(handle, 'BTCUSDT', '60000.0');
    await client.signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '20' });
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.030',
    });
    const [risk] = await positionRisk(client);
    expect(risk?.marginType).toBe('cross');
    const lp = D(risk?.liquidationPrice as string);
    const wallet = D((await account(client)).totalWalletBalance as string);
    // Cross, one position: LP = (WB + cum − Q·EP) / (Q·MMR − Q), WB = cross wallet balance (§12).
    const entry = D(risk?.entryPrice as string);
    expect(lp.toFixed(8)).toBe(
      wallet.minus(D('0.03').times(entry)).div(D('0.03').times('0.004').minus('0.03')).toFixed(8),
    );
    await setPrice(handle, 'BTCUSDT', lp.minus(1).toDecimalPlaces(1, Decimal.ROUND_DOWN).toFixed(1));
    expect((await positionRisk(client))[0]?.positionAmt).toBe('0.000');
    expect((await account(client)).totalWalletBalance).toBe('0.00000000');
  });
});

describe('hedge mode', () => {
  it('holds LONG and SHORT positions of one symbol and closes one side', async () => {
    const client = await newAccount(handle);
    await setPrice(handle, 'XRPUSDT', '2.0000');
    expect(
      (await client.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' })).body,
    ).toEqual({ code: 200, msg: 'success' });
    expect((await client.signed<Json>('GET', '/fapi/v1/positionSide/dual')).body).toEqual({
      dualSidePosition: true,
    });
    expectCode(
      await client.signed('POST', '/fapi/v1/order', {
        symbol: 'XRPUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '10',
      }),
      400,
      -4061,
    );
    expectCode(
      await client.signed('POST', '/fapi/v1/order', {
        symbol: 'XRPUSDT',
        side: 'BUY',
        positionSide: 'LONG',
        type: 'MARKET',
        quantity: '10',
        reduceOnly: 'true',
      }),
      400,
      -1106,
    );
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'XRPUSDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '10',
    });
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'XRPUSDT',
      side: 'SELL',
      positionSide: 'SHORT',
      type: 'MARKET',
      quantity: '4',
    });
    const lines = await positionRisk(client, 'XRPUSDT');
    expect(lines.map((l) => [l.positionSide, l.positionAmt])).toEqual([
      ['LONG', '10.0'],
      ['SHORT', '-4.0'],
    ]);
    expectCode(
      await client.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }),
      400,
      -4068,
    );
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'XRPUSDT',
      side: 'SELL',
      positionSide: 'LONG',
      type: 'MARKET',
      quantity: '10',
    });
    const after = await positionRisk(client, 'XRPUSDT');
    expect(after.map((l) => l.positionAmt)).toEqual(['0.0', '-4.0']);
  });
});

describe('error codes', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await newAccount(handle, '100');
    await setPrice(handle, 'LINKUSDT', '20.000');
    await setPrice(handle, 'ADAUSDT', '1.0000');
  });
  const order = (params: Record<string, string>) =>
    client.signed('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', ...params });

  it('answers parameter errors with Binance codes', async () => {
    await setPrice(handle, 'BTCUSDT', '60000.0');
    expectCode(await order({ symbol: 'FOOUSDT', type: 'MARKET', quantity: '1' }), 400, -1121);
    expectCode(await order({ side: 'UP', type: 'MARKET', quantity: '1' }), 400, -1117);
    expectCode(await order({ type: 'ICEBERG', quantity: '1' }), 400, -1116);
    expectCode(await order({ type: 'MARKET' }), 400, -1102);
    expectCode(await order({ type: 'MARKET', quantity: '0' }), 400, -4003);
    expectCode(await order({ type: 'MARKET', quantity: 'abc' }), 400, -1100);
    expectCode(await order({ type: 'MARKET', quantity: '0.0015' }), 400, -4023);
    expectCode(
      await order({ type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '59000.05' }),
      400,
      -4014,
    );
    expectCode(
      await order({ type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '59000.123' }),
      400,
      -1111,
    );
    expectCode(
      await order({ type: 'LIMIT', timeInForce: 'XYZ', quantity: '0.002', price: '59000.0' }),
      400,
      -1115,
    );
    expectCode(await order({ type: 'MARKET', quantity: '0.001' }), 400, -4164);
    expectCode(await order({ type: 'MARKET', quantity: '0.002', positionSide: 'LONG' }), 400, -4061);
    expectCode(await order({ type: 'MARKET', quantity: '0.002', newClientOrderId: 'bad id!' }), 400, -4015);
    expectCode(
      await client.signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '200' }),
      400,
      -4028,
    );
    expectCode(
      await client.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: '123' }),
      400,
      -2013,
    );
    expectCode(
      await client.signed('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: '123' }),
      400,
      -2011,
    );
    expectCode(await client.signed('GET', '/fapi/v1/order', { symbol: 'BTCUSDT' }), 400, -1102);
  });

  // (The order route refuses conditional types with -4120 since the Algo migration, so only this one is left.)
  it("reads each route's own parameter names: the algo route's triggerPrice, not the order route's stopPrice", async () => {
    expectCode(
      await client.signed('POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'TAKE_PROFIT_MARKET',
        stopPrice: '90000.0',
        quantity: '0.002',
        reduceOnly: 'true',
      }),
      400,
      -1102,
    );
  });

  it('checks margin, reduce-only, triggers and duplicates against the account', async () => {
    expectCode(await order({ type: 'MARKET', quantity: '1.000' }), 400, -2019);
    expectCode(
      await order({ side: 'SELL', type: 'MARKET', quantity: '0.002', reduceOnly: 'true' }),
      400,
      -2022,
    );
    expectCode(
      await client.signed('POST', '/fapi/v1/algoOrder', {
        algoType: 'CONDITIONAL',
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'STOP_MARKET',
        triggerPrice: '61000.0',
        quantity: '0.002',
      }),
      400,
      -2021,
    );
    const resting = {
      symbol: 'LINKUSDT',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '1.00',
      price: '19.500',
      newClientOrderId: 'dup-1',
    };
    expect((await order(resting)).status).toBe(200);
    expectCode(await order(resting), 400, -4116);
    expectCode(
      await client.signed('POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }),
      400,
      -4067,
    );
    expectCode(
      await client.signed('POST', '/fapi/v1/marginType', { symbol: 'LINKUSDT', marginType: 'ISOLATED' }),
      400,
      -4047,
    );
    const open = (await client.signed<Json[]>('GET', '/fapi/v1/openOrders', { symbol: 'LINKUSDT' })).body;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ clientOrderId: 'dup-1', status: 'NEW', time: expect.any(Number) });
    expect(
      (await client.signed('DELETE', '/fapi/v1/order', { symbol: 'LINKUSDT', origClientOrderId: 'dup-1' }))
        .status,
    ).toBe(200);
  });

  it('rejects opening on a symbol that is not trading (-4140) but lets reduce-only through', async () => {
    await client.signed('POST', '/fapi/v1/order', {
      symbol: 'ADAUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '10',
    });
    await admin(handle, 'POST', '/symbols/ADAUSDT/status', { status: 'SETTLING' });
    try {
      expectCode(
        await client.signed('POST', '/fapi/v1/order', {
          symbol: 'ADAUSDT',
          side: 'BUY',
          type: 'MARKET',
          quantity: '10',
        }),
        400,
        -4140,
      );
      const info = (await client.public<{ symbols: Json[] }>('/fapi/v1/exchangeInfo')).body;
      expect(info.symbols.find((s) => s.symbol === 'ADAUSDT')?.status).toBe('SETTLING');
      const reduce = await client.signed('POST', '/fapi/v1/order', {
        symbol: 'ADAUSDT',
        side: 'SELL',
        type: 'MARKET',
        quantity: '10',
        reduceOnly: 'true',
      });
      expect(reduce.body).toMatchObject({ status: 'NEW', reduceOnly: true });
    } finally {
      await admin(handle, 'POST', '/symbols/ADAUSDT/status', { status: 'TRADING' });
    }
  });

  it('protects isolated positions: -4048 on margin type, -4161 on lowering leverage', async () => {
    const rich = await newAccount(handle, '10000');
    await rich.signed('POST', '/fapi/v1/marginType', { symbol: 'LINKUSDT', marginType: 'ISOLATED' });
    await rich.signed('POST', '/fapi/v1/leverage', { symbol: 'LINKUSDT', leverage: '10' });
    await rich.signed('POST', '/fapi/v1/order', {
      symbol: 'LINKUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '5.00',
    });
    expectCode(
      await rich.signed('POST', '/fapi/v1/marginType', { symbol: 'LINKUSDT', marginType: 'CROSSED' }),
      400,
      -4048,
    );
    expectCode(
      await rich.signed('POST', '/fapi/v1/leverage', { symbol: 'LINKUSDT', leverage: '5' }),
      400,
      -4161,
    );
    expect(
      (await rich.signed('POST', '/fapi/v1/leverage', { symbol: 'LINKUSDT', leverage: '20' })).status,
    ).toBe(200);
  });
});
