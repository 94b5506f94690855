// The seeded market: history generation (determinism, candle sanity, regimes, volatility clustering, speed),
// and the market-data endpoints of reference §4 with Binance's shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHistory, SYMBOLS, type Candle1m, type PaperExchangeHandle } from '../src/index.js';
import { expectCode, startTestExchange, TestClient } from './helpers.js';

const END = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('generateHistory', () => {
  it('is deterministic for a seed, differs between seeds, and does not depend on the other symbols asked for', () => {
    const a = generateHistory({ seed: 11, days: 2, endTime: END });
    const b = generateHistory({ seed: 11, days: 2, endTime: END });
    const c = generateHistory({ seed: 12, days: 2, endTime: END });
    const solo = generateHistory({ seed: 11, days: 2, endTime: END, symbols: ['ETHUSDT'] });
    expect(b.get('BTCUSDT')).toEqual(a.get('BTCUSDT'));
    expect(c.get('BTCUSDT')?.at(-1)?.close).not.toBe(a.get('BTCUSDT')?.at(-1)?.close);
    expect(solo.get('ETHUSDT')).toEqual(a.get('ETHUSDT'));
    expect([...solo.keys()]).toEqual(['ETHUSDT']);
  });

  it('gives one candle per minute with consistent OHLC on the tick grid, starting at realistic levels', () => {
    const history = generateHistory({ seed: 3, days: 1, endTime: END });
    expect([...history.keys()]).toEqual(SYMBOLS.map((s) => s.symbol));
    for (const spec of SYMBOLS) {
      const candles = history.get(spec.symbol) as Candle1m[];
      expect(candles).toHaveLength(1440);
      expect(candles[0]?.openTime).toBe(END - 86_400_000);
      expect(candles.at(-1)?.closeTime).toBe(END - 1);
      expect(candles[0]?.open).toBe(spec.startPrice);
      const tick = Number(spec.tickSize);
      for (const c of candles) {
        expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
        expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
        expect(Math.abs(c.close / tick - Math.round(c.close / tick))).toBeLessThan(1e-6);
        expect(c.volume).toBeGreaterThan(0);
        expect(c.takerBuyVolume).toBeLessThanOrEqual(c.volume);
      }
    }
  });

  it('clusters volatility: squared minute returns are positively autocorrelated (GARCH)', () => {
    const candles = generateHistory({ seed: 5, days: 10, endTime: END, symbols: ['BTCUSDT'] }).get(
      'BTCUSDT',
    ) as Candle1m[];
    const r2 = candles.slice(1).map((c, i) => Math.log(c.close / (candles[i] as Candle1m).close) ** 2);
    const mean = r2.reduce((s, v) => s + v, 0) / r2.length;
    let num = 0;
    let den = 0;
    for (let i = 1; i < r2.length; i++) num += ((r2[i] as number) - mean) * ((r2[i - 1] as number) - mean);
    for (const v of r2) den += (v - mean) ** 2;
    expect(num / den).toBeGreaterThan(0.05);
  });

  it('generates 30 days of all 8 symbols, one candle a minute (timing: bench/paper-exchange)', () => {
    const history = generateHistory({ seed: 42, days: 30, endTime: END });
    expect(history.size).toBe(8);
    expect([...history.values()].every((candles) => candles.length === 43_200)).toBe(true);
  });
});

describe('market data endpoints', () => {
  let handle: PaperExchangeHandle;
  let client: TestClient;
  beforeAll(async () => {
    handle = await startTestExchange({ seed: 21, historyDays: 3 });
    client = new TestClient(handle.url, '', () => '');
  });
  afterAll(async () => {
    await handle.close();
  });

  it('answers ping and time', async () => {
    expect((await client.public('/fapi/v1/ping')).body).toEqual({});
    const time = await client.public<{ serverTime: number }>('/fapi/v1/time');
    expect(Math.abs(time.body.serverTime - Date.now())).toBeLessThan(60_000);
  });

  it('describes every symbol in exchangeInfo the way ccxt needs it', async () => {
    const info = (
      await client.public<{ symbols: Record<string, unknown>[]; rateLimits: unknown[] }>(
        '/fapi/v1/exchangeInfo',
      )
    ).body;
    expect(info.rateLimits).toContainEqual({
      rateLimitType: 'REQUEST_WEIGHT',
      interval: 'MINUTE',
      intervalNum: 1,
      limit: 2400,
    });
    expect(info.symbols.map((s) => s.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'BNBUSDT',
      'SOLUSDT',
      'XRPUSDT',
      'DOGEUSDT',
      'ADAUSDT',
      'LINKUSDT',
    ]);
    const btc = info.symbols[0] as Record<string, unknown>;
    expect(btc).toMatchObject({
      contractType: 'PERPETUAL',
      marginAsset: 'USDT',
      quoteAsset: 'USDT',
      status: 'TRADING',
      pricePrecision: 2,
      quantityPrecision: 3,
      orderTypes: expect.arrayContaining([
        'MARKET',
        'LIMIT',
        'STOP',
        'STOP_MARKET',
        'TAKE_PROFIT',
        'TAKE_PROFIT_MARKET',
      ]),
    });
    expect(btc.filters).toEqual(
      expect.arrayContaining([
        { filterType: 'PRICE_FILTER', minPrice: '261.10', maxPrice: '809484', tickSize: '0.10' },
        { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
        { filterType: 'MIN_NOTIONAL', notional: '100' },
      ]),
    );
  });

  it('serves tickers and the premium index as strings', async () => {
    const price = (
      await client.public<Record<string, unknown>>('/fapi/v1/ticker/price', { symbol: 'ETHUSDT' })
    ).body;
    expect(price).toMatchObject({
      symbol: 'ETHUSDT',
      price: expect.stringMatching(/^\d+\.\d{2}$/),
      time: expect.any(Number),
    });
    const all = (await client.public<unknown[]>('/fapi/v1/ticker/price')).body;
    expect(all).toHaveLength(8);
    const day = (await client.public<Record<string, unknown>>('/fapi/v1/ticker/24hr', { symbol: 'BTCUSDT' }))
      .body;
    expect(day).toMatchObject({
      symbol: 'BTCUSDT',
      lastPrice: expect.any(String),
      volume: expect.any(String),
      count: expect.any(Number),
    });
    expect(Number(day.highPrice)).toBeGreaterThanOrEqual(Number(day.lowPrice));
    const premium = (
      await client.public<Record<string, unknown>>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })
    ).body;
    expect(premium).toMatchObject({
      markPrice: expect.stringMatching(/^\d+\.\d{8}$/),
      lastFundingRate: '0.00010000',
      nextFundingTime: expect.any(Number),
    });
    expectCode(await client.public('/fapi/v1/premiumIndex', { symbol: 'BTCUSD' }), 400, -1121);
  });

  it('serves klines for every interval, continuing the generated history exactly', async () => {
    const rows = (
      await client.public<unknown[][]>('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: '5' })
    ).body;
    expect(rows).toHaveLength(5);
    expect(rows[0]).toHaveLength(12);
    expect(typeof rows[0]?.[0]).toBe('number');
    expect(typeof rows[0]?.[1]).toBe('string');
    const history = generateHistory({
      seed: handle.seed,
      days: 3,
      endTime: handle.historyEndTime,
      symbols: ['BTCUSDT'],
    });
    const first = history.get('BTCUSDT')?.[0] as Candle1m;
    const served = (
      await client.public<unknown[][]>('/fapi/v1/klines', {
        symbol: 'BTCUSDT',
        interval: '1m',
        startTime: String(first.openTime),
        limit: '3',
      })
    ).body;
    expect(served[0]?.slice(0, 5)).toEqual([
      first.openTime,
      first.open.toFixed(2),
      first.high.toFixed(2),
      first.low.toFixed(2),
      first.close.toFixed(2),
    ]);
    for (const interval of [
      '3m',
      '5m',
      '15m',
      '30m',
      '1h',
      '2h',
      '4h',
      '6h',
      '8h',
      '12h',
      '1d',
      '3d',
      '1w',
      '1M',
    ]) {
      const response = await client.public<unknown[][]>('/fapi/v1/klines', {
        symbol: 'SOLUSDT',
        interval,
        limit: '2',
      });
      expect(response.status).toBe(200);
      expect(response.body.length).toBeGreaterThan(0);
    }
    const hours = (
      await client.public<number[][]>('/fapi/v1/klines', { symbol: 'SOLUSDT', interval: '1h', limit: '3' })
    ).body;
    expect((hours[1]?.[0] as number) - (hours[0]?.[0] as number)).toBe(3_600_000);
    expectCode(await client.public('/fapi/v1/klines', { symbol: 'SOLUSDT', interval: '2m' }), 400, -1120);
  });

  it('serves a synthetic order book around the mark', async () => {
    const book = (
      await client.public<{ bids: string[][]; asks: string[][]; lastUpdateId: number }>('/fapi/v1/depth', {
        symbol: 'BTCUSDT',
        limit: '5',
      })
    ).body;
    expect(book.bids).toHaveLength(5);
    expect(Number(book.bids[0]?.[0])).toBeLessThan(Number(book.asks[0]?.[0]));
    expectCode(await client.public('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: '7' }), 400, -1130);
  });

  it('answers the sapi calls ccxt makes when it fetches currencies', async () => {
    expect((await client.public('/sapi/v1/system/status')).body).toEqual({ status: 0, msg: 'normal' });
  });
});
