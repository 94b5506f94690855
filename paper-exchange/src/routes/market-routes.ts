// Market-data endpoints (reference §4) and the sapi stubs ccxt calls when it fetches currencies (§11).
import type { Params } from '../auth.js';
import { Errors } from '../errors.js';
import type { Exchange } from '../exchange.js';
import { klineRow, isInterval, selectKlines } from '../market/klines.js';
import { bookTicker, depth, premiumIndex, priceTicker, ticker24h } from '../market/market-data.js';
import { exchangeInfoSymbol, SYMBOLS, type SymbolSpec } from '../market/symbols.js';
import { D } from '../num.js';
import { parseLimit, timeRange } from '../order-queries.js';
import { requireSymbol } from '../order-params.js';
import { fapi, type RouteDef } from './route.js';

const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000];

/** One object when a symbol is sent, else an array over every symbol (reference §4). */
function perSymbol(params: Params, build: (spec: SymbolSpec) => Record<string, unknown>) {
  if (params.has('symbol')) return build(requireSymbol(params));
  return SYMBOLS.map(build);
}

function exchangeInfo(exchange: Exchange, serverTime: number) {
  return {
    timezone: 'UTC',
    serverTime,
    futuresType: 'U_MARGINED',
    rateLimits: [
      {
        rateLimitType: 'REQUEST_WEIGHT',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: exchange.limiter.limits.requestWeightPerMinute,
      },
      {
        rateLimitType: 'ORDERS',
        interval: 'MINUTE',
        intervalNum: 1,
        limit: exchange.limiter.limits.ordersPerMinute,
      },
      {
        rateLimitType: 'ORDERS',
        interval: 'SECOND',
        intervalNum: 10,
        limit: exchange.limiter.limits.ordersPer10s,
      },
    ],
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }],
    symbols: SYMBOLS.map((spec) => exchangeInfoSymbol(spec, exchange.market.status(spec.symbol))),
  };
}

function klines(exchange: Exchange, params: Params): unknown[] {
  const spec = requireSymbol(params.has('symbol') ? params : new Map([['symbol', params.get('pair') ?? '']]));
  const interval = params.get('interval');
  if (!interval) throw Errors.mandatory('interval');
  if (!isInterval(interval)) throw Errors.badInterval();
  const { start, end } = timeRange(params);
  const read = (from: number, to: number) => exchange.market.candlesBetween(spec.symbol, from, to);
  const rows = selectKlines(read, exchange.now(), {
    interval,
    startTime: start,
    endTime: end,
    limit: parseLimit(params, 500, 1500),
  });
  return rows.map((row) => klineRow(row, { price: spec.pricePrecision, qty: spec.quantityPrecision }));
}

function klineWeight(params: Params): number {
  const limit = Number(params.get('limit') ?? 500);
  if (limit < 100) return 1;
  if (limit < 500) return 2;
  return limit <= 1000 ? 5 : 10;
}

function depthWeight(params: Params): number {
  const limit = Number(params.get('limit') ?? 500);
  if (limit <= 50) return 2;
  if (limit <= 100) return 5;
  return limit <= 500 ? 10 : 20;
}

function recentTrades(exchange: Exchange, params: Params, aggregated: boolean): unknown[] {
  const spec = requireSymbol(params);
  return exchange.tape.recent(spec.symbol, parseLimit(params, 500, 1000)).map((trade) =>
    aggregated
      ? {
          a: trade.id,
          p: trade.price,
          q: trade.qty,
          f: trade.id,
          l: trade.id,
          T: trade.time,
          m: trade.buyerMaker,
        }
      : {
          id: trade.id,
          price: trade.price,
          qty: trade.qty,
          quoteQty: new D(trade.price).times(trade.qty).toFixed(spec.pricePrecision + spec.quantityPrecision),
          time: trade.time,
          isBuyerMaker: trade.buyerMaker,
        },
  );
}

export const marketRoutes: RouteDef[] = [
  { method: 'GET', paths: [fapi(1, 'ping')], security: 'NONE', weight: 1, handler: () => ({}) },
  {
    method: 'GET',
    paths: [fapi(1, 'time')],
    security: 'NONE',
    weight: 1,
    handler: ({ serverTime }) => ({ serverTime }),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'exchangeInfo')],
    security: 'NONE',
    weight: 1,
    handler: ({ exchange, serverTime }) => exchangeInfo(exchange, serverTime),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'ticker/price'), fapi(2, 'ticker/price')],
    security: 'NONE',
    weight: (params) => (params.has('symbol') ? 1 : 2),
    handler: ({ exchange, params, now }) =>
      perSymbol(params, (spec) => priceTicker(exchange.market, spec, now)),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'ticker/24hr')],
    security: 'NONE',
    weight: (params) => (params.has('symbol') ? 1 : 40),
    handler: ({ exchange, params, now }) =>
      perSymbol(params, (spec) => ticker24h(exchange.market, spec, now)),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'ticker/bookTicker')],
    security: 'NONE',
    weight: (params) => (params.has('symbol') ? 2 : 5),
    handler: ({ exchange, params, now }) =>
      perSymbol(params, (spec) => bookTicker(exchange.market, spec, now)),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'premiumIndex')],
    security: 'NONE',
    weight: 1,
    handler: ({ exchange, params, now }) =>
      perSymbol(params, (spec) => premiumIndex(exchange.market, spec, now)),
  },
  {
    method: 'GET',
    paths: [
      fapi(1, 'klines'),
      fapi(1, 'markPriceKlines'),
      fapi(1, 'indexPriceKlines'),
      fapi(1, 'continuousKlines'),
    ],
    security: 'NONE',
    weight: klineWeight,
    handler: ({ exchange, params }) => klines(exchange, params),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'depth')],
    security: 'NONE',
    weight: depthWeight,
    handler: ({ exchange, params, now }) => {
      const spec = requireSymbol(params);
      const limit = Number(params.get('limit') ?? 500);
      if (!DEPTH_LIMITS.includes(limit)) throw Errors.invalidParameter('limit');
      return depth(exchange.market, spec, limit, now);
    },
  },
  {
    method: 'GET',
    paths: [fapi(1, 'trades')],
    security: 'NONE',
    weight: 5,
    handler: ({ exchange, params }) => recentTrades(exchange, params, false),
  },
  {
    method: 'GET',
    paths: [fapi(1, 'aggTrades')],
    security: 'NONE',
    weight: 20,
    handler: ({ exchange, params }) => recentTrades(exchange, params, true),
  },
  {
    method: 'GET',
    paths: ['/sapi/v1/system/status'],
    security: 'NONE',
    weight: 1,
    handler: () => ({ status: 0, msg: 'normal' }),
  },
  {
    method: 'GET',
    paths: ['/sapi/v1/capital/config/getall'],
    security: 'SIGNED',
    weight: 10,
    handler: () => [],
  },
  {
    method: 'GET',
    paths: ['/sapi/v1/margin/allPairs', '/sapi/v1/margin/isolated/allPairs'],
    security: 'SIGNED',
    weight: 1,
    handler: () => [],
  },
];
