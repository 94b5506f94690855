// GET /api/symbol/get_symbol_candles/{symbol_uuid}/: a symbol's last closed 1-minute candles and the minute still
// forming, from a market feed started on a paper exchange (as the server runs it): from the feed's memory for a
// followed symbol, from the exchange's REST klines for one it does not follow; 4xx { detail } on bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaperExchange, type PaperExchangeHandle } from '../../../../paper-exchange/src/index';
import type { CandlePoint, SymbolCandles, SymbolInfo } from '../../../../contracts';
import { initTradeCore } from '../../../../shared-core/trade-core-node';
import { buildApp } from '../../app';
import type { DatabaseHandle } from '../../db';
import { MINUTE_MS } from '../../engine/candles';
import { MarketFeed } from '../../engine/market-feed';
import { syncSymbols } from '../../services/symbols';
import { openTestDatabase, signUpAndLogIn } from '../../../test/test-app';

const silent = { warn: () => undefined };
let exchange: PaperExchangeHandle;
let database: DatabaseHandle;
let feed: MarketFeed;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
let headers: { authorization: string };
let byPair: Record<string, SymbolInfo>;

beforeAll(async () => {
  await initTradeCore();
  exchange = await startPaperExchange({ port: 0, seed: 23 });
  database = await openTestDatabase();
  // The feed follows bitcoin only, with an hour of candles from REST at its start.
  feed = new MarketFeed(exchange.url, exchange.wsUrl, ['BTCUSDT'], silent, { warmupCandles: 60 });
  ({ app } = await buildApp({
    feed,
    db: database.db,
    exchangeUrl: exchange.url,
    paperExchangeUrl: exchange.url,
    paperExchangeAdminToken: exchange.adminToken,
  }));
  await app.ready();
  await syncSymbols(database.db, exchange.url);
  await feed.start();
  headers = (await signUpAndLogIn(app)).headers;
  const dict = (
    await app.inject({ method: 'GET', url: '/api/symbol/get_available_symbols_dict/', headers })
  ).json().result.symbol_dict as Record<string, SymbolInfo>;
  byPair = Object.fromEntries(Object.values(dict).map((symbol) => [symbol.symbol_pair, symbol]));
}, 60_000);

afterAll(async () => {
  await feed?.close();
  await app?.close();
  await database?.close();
  await exchange?.close();
});

const url = (symbolUuid: string, query = '') => `/api/symbol/get_symbol_candles/${symbolUuid}/${query}`;

async function candlesOf(pair: string, query = ''): Promise<SymbolCandles> {
  const response = await app.inject({ method: 'GET', url: url(byPair[pair]!.symbol_uuid, query), headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

/** The exchange's own closed 1-minute klines opening in [from, to], as numbers. */
async function exchangeKlines(pair: string, from: number, to: number): Promise<CandlePoint[]> {
  const query = new URLSearchParams({
    symbol: pair,
    interval: '1m',
    startTime: String(from),
    endTime: String(to),
    limit: '1500',
  });
  const rows = (await (await fetch(`${exchange.url}/fapi/v1/klines?${query}`)).json()) as string[][];
  return rows.map((row) => ({
    time: Number(row[0]),
    open: Number(row[1]),
    high: Number(row[2]),
    low: Number(row[3]),
    close: Number(row[4]),
  }));
}

function expectConsecutiveMinutes(candles: readonly CandlePoint[]): void {
  for (const [index, candle] of candles.entries()) {
    expect(candle.time % MINUTE_MS).toBe(0);
    if (index > 0) expect(candle.time - candles[index - 1]!.time).toBe(MINUTE_MS);
    expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close, candle.low));
    expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
  }
}

describe('GET /api/symbol/get_symbol_candles/{symbol_uuid}/', () => {
  it('answers a followed symbol’s last closed minutes from the feed, then the minute still forming', async () => {
    // The stream reports the unclosed kline with every tick (each second on the paper exchange).
    await expect.poll(() => feed.forming('BTCUSDT'), { timeout: 10_000 }).toBeDefined();
    const answer = await candlesOf('BTCUSDT', '?limit=30');
    expect(answer).toMatchObject({
      symbol_uuid: byPair.BTCUSDT!.symbol_uuid,
      symbol_pair: 'BTCUSDT',
      symbol_price_precision: 1,
      is_forming: true,
    });
    expect(answer.candle_list).toHaveLength(31);
    expectConsecutiveMinutes(answer.candle_list);
    const closed = answer.candle_list.slice(0, 30);
    const forming = answer.candle_list.at(-1)!;
    expect(forming.time).toBe(feed.forming('BTCUSDT')!.openTime);
    // The closed ones are the exchange's candles, the same numbers its REST klines give.
    expect(await exchangeKlines('BTCUSDT', closed[0]!.time, closed.at(-1)!.time)).toEqual(closed);
  });

  it('reads a symbol the feed does not follow from the exchange’s klines, with no forming minute', async () => {
    const answer = await candlesOf('ETHUSDT', '?limit=45');
    expect(answer.is_forming).toBe(false);
    expect(answer.candle_list).toHaveLength(45);
    expectConsecutiveMinutes(answer.candle_list);
    const last = answer.candle_list.at(-1)!;
    expect(last.time).toBeGreaterThanOrEqual(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - 2 * MINUTE_MS);
    expect(await exchangeKlines('ETHUSDT', answer.candle_list[0]!.time, last.time)).toEqual(
      answer.candle_list,
    );
  });

  it('answers 360 closed minutes by default', async () => {
    const answer = await candlesOf('ETHUSDT');
    expect(answer.candle_list).toHaveLength(360);
  });

  it('answers 4xx with a detail for bad input, and 401 without a token', async () => {
    const btc = byPair.BTCUSDT!.symbol_uuid;
    for (const [path, status] of [
      [url(btc, '?limit=0'), 400],
      [url(btc, '?limit=1441'), 400],
      [url(btc, '?limit=ten'), 400],
      [url('not-a-uuid'), 400],
      [url('00000000-0000-4000-8000-000000000000'), 404],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: path, headers });
      expect(response.statusCode, path).toBe(status);
      expect(response.json(), path).toEqual({ detail: expect.any(String) });
    }
    expect((await app.inject({ method: 'GET', url: url(btc) })).statusCode).toBe(401);
  });
});
