// ccxt binanceusdm (4.5.84) against the paper exchange with only the URLs overridden (reference §11).
import ccxt, { type binanceusdm } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperExchangeHandle } from '../src/index.js';
import { admin, setPrice, startTestExchange } from './helpers.js';

let handle: PaperExchangeHandle;
let exchange: binanceusdm;

beforeAll(async () => {
  handle = await startTestExchange();
  const { body } = await admin<{ api_key: string; api_secret: string }>(handle, 'POST', '/accounts', {
    balance: '20000',
  });
  const base = handle.url;
  exchange = new ccxt.binanceusdm({
    apiKey: body.api_key,
    secret: body.api_secret,
    urls: {
      api: {
        fapiPublic: `${base}/fapi/v1`,
        fapiPublicV2: `${base}/fapi/v2`,
        fapiPublicV3: `${base}/fapi/v3`,
        fapiPrivate: `${base}/fapi/v1`,
        fapiPrivateV2: `${base}/fapi/v2`,
        fapiPrivateV3: `${base}/fapi/v3`,
        fapiData: `${base}/futures/data`,
        sapi: `${base}/sapi/v1`,
      },
    },
    options: { fetchCurrencies: false },
  });
  // Exception classes of fapi codes are keyed by Binance's URL; map them for the local URL (§11 item 7).
  Object.assign(exchange.exceptions.exact, exchange.exceptions.linear.exact);
  await setPrice(handle, 'BTCUSDT', '60000.0');
});
afterAll(async () => {
  await handle.close();
});

describe('ccxt binanceusdm', () => {
  it('loads the markets as linear swaps with Binance precision and limits', async () => {
    const markets = await exchange.loadMarkets();
    const btc = markets['BTC/USDT:USDT'];
    expect(btc).toMatchObject({ id: 'BTCUSDT', type: 'swap', linear: true, settle: 'USDT', active: true });
    expect(btc?.precision).toMatchObject({ price: 0.1, amount: 0.001 });
    expect(btc?.limits.cost?.min).toBe(100);
    expect(Object.keys(markets)).toHaveLength(8);
  });

  it('loads the markets with the default options too (the sapi calls of fetchCurrencies)', async () => {
    const withCurrencies = new ccxt.binanceusdm({
      apiKey: exchange.apiKey,
      secret: exchange.secret,
      urls: exchange.urls,
    });
    const markets = await withCurrencies.loadMarkets();
    expect(markets['ETH/USDT:USDT']?.linear).toBe(true);
  });

  it('fetches the balance', async () => {
    const balance = await exchange.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 20000, used: 0, total: 20000 });
  });

  it('sets leverage and margin mode', async () => {
    expect(await exchange.setLeverage(10, 'BTC/USDT:USDT')).toMatchObject({
      leverage: 10,
      symbol: 'BTCUSDT',
    });
    expect(await exchange.setMarginMode('isolated', 'BTC/USDT:USDT')).toMatchObject({ code: 200 });
    await expect(exchange.setMarginMode('isolated', 'BTC/USDT:USDT')).rejects.toBeInstanceOf(
      ccxt.MarginModeAlreadySet,
    );
  });

  it('creates a market order, a stop through the algo API, lists positions and cancels the stop', async () => {
    const order = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.0123);
    expect(order).toMatchObject({
      symbol: 'BTC/USDT:USDT',
      side: 'buy',
      type: 'market',
      status: 'closed',
      amount: 0.012,
      filled: 0.012,
    });
    expect(order.average).toBe(60003);

    const stop = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.012, undefined, {
      stopLossPrice: 58000,
      reduceOnly: true,
    });
    // ccxt unifies STOP_MARKET as a 'market' order with a trigger price.
    expect(stop).toMatchObject({ status: 'open', type: 'market', triggerPrice: 58000, amount: 0.012 });
    expect(stop.info).toMatchObject({ algoType: 'CONDITIONAL', orderType: 'STOP_MARKET', reduceOnly: true });
    expect(stop.id).toBeTruthy();
    const openStops = await exchange.fetchOpenOrders('BTC/USDT:USDT', undefined, undefined, {
      trigger: true,
    });
    expect(openStops.map((o) => o.id)).toEqual([stop.id]);

    const positions = await exchange.fetchPositions(['BTC/USDT:USDT']);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({
      symbol: 'BTC/USDT:USDT',
      side: 'long',
      contracts: 0.012,
      entryPrice: 60003,
      marginMode: 'isolated',
      markPrice: 60000,
    });
    expect(positions[0]?.unrealizedPnl).toBeCloseTo(-0.036, 10);

    const cancelled = await exchange.cancelOrder(stop.id, 'BTC/USDT:USDT', { trigger: true });
    expect(cancelled).toMatchObject({ id: stop.id });
    expect(await exchange.fetchOpenOrders('BTC/USDT:USDT', undefined, undefined, { trigger: true })).toEqual(
      [],
    );

    const trades = await exchange.fetchMyTrades('BTC/USDT:USDT');
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ order: order.id, price: 60003, amount: 0.012, side: 'buy' });
  });

  it('cancels a regular order and maps Binance errors to ccxt exceptions', async () => {
    const limit = await exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.002, 59000);
    expect(limit.status).toBe('open');
    const cancelled = await exchange.cancelOrder(limit.id, 'BTC/USDT:USDT');
    expect(cancelled).toMatchObject({ id: limit.id, status: 'canceled' });
    await expect(exchange.cancelOrder(limit.id, 'BTC/USDT:USDT')).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    await expect(exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 50)).rejects.toBeInstanceOf(
      ccxt.InsufficientFunds,
    );
    await expect(exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.001)).rejects.toBeInstanceOf(
      ccxt.InvalidOrder,
    );
  });

  it('reads market data', async () => {
    const ticker = await exchange.fetchTicker('BTC/USDT:USDT');
    expect(ticker.last).toBe(60000);
    const candles = await exchange.fetchOHLCV('ETH/USDT:USDT', '1h', undefined, 10);
    expect(candles).toHaveLength(10);
    const book = await exchange.fetchOrderBook('BTC/USDT:USDT', 5);
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] as number);
    expect(await exchange.fetchPositionMode('BTC/USDT:USDT')).toMatchObject({ hedged: false });
  });
});
