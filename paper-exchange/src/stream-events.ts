// Payloads of the market streams (reference §10) and stream-name validation.
import type { Exchange } from './exchange.js';
import type { Candle1m } from './market/history.js';
import { isInterval } from './market/klines.js';
import { bookTicker, FUNDING_RATE, nextFundingTime } from './market/market-data.js';
import type { SymbolTick } from './market/market.js';
import { findSymbol, type SymbolSpec } from './market/symbols.js';

const MARKET_STREAM = /^([a-z0-9]+)@(markPrice(@1s)?|aggTrade|bookTicker|kline_([0-9]+[mhdwM]))$/;
const ALL_STREAM = /^!(markPrice@arr(@1s)?|bookTicker)$/;

/** Stream names are case-insensitive in the symbol part; the event name keeps Binance's casing. */
export function normaliseStream(name: string): string | undefined {
  if (ALL_STREAM.test(name)) return name;
  const at = name.indexOf('@');
  if (at < 0) return undefined;
  const candidate = name.slice(0, at).toLowerCase() + name.slice(at);
  const match = MARKET_STREAM.exec(candidate);
  if (!match || !findSymbol((match[1] as string).toUpperCase())) return undefined;
  if (match[4] !== undefined && !isInterval(match[4])) return undefined;
  return candidate;
}

export function markPriceEvent(tick: SymbolTick, now: number) {
  const mark = tick.mark.toFixed(8);
  return {
    e: 'markPriceUpdate',
    E: now,
    s: tick.symbol,
    p: mark,
    i: mark,
    P: mark,
    r: FUNDING_RATE,
    T: nextFundingTime(now),
  };
}

export function aggTradeEvent(
  symbol: string,
  trade: { id: number; price: string; qty: string; buyerMaker: boolean; time: number } | undefined,
  now: number,
) {
  if (!trade) return undefined;
  const notional = (Number(trade.price) * Number(trade.qty)).toFixed(2);
  return {
    e: 'aggTrade',
    E: now,
    s: symbol,
    a: trade.id,
    p: trade.price,
    q: trade.qty,
    nq: notional,
    f: trade.id,
    l: trade.id,
    T: trade.time,
    m: trade.buyerMaker,
  };
}

export function bookTickerEvent(exchange: Exchange, spec: SymbolSpec, now: number) {
  const book = bookTicker(exchange.market, spec, now);
  return {
    e: 'bookTicker',
    u: Math.floor(now / 1000),
    s: spec.symbol,
    b: book.bidPrice,
    B: book.bidQty,
    a: book.askPrice,
    A: book.askQty,
    T: now,
    E: now,
  };
}

export function klineEvent(symbol: string, interval: string, c: Candle1m, closed: boolean, now: number) {
  const spec = findSymbol(symbol) as SymbolSpec;
  const p = (v: number) => v.toFixed(spec.pricePrecision);
  const q = (v: number) => v.toFixed(spec.quantityPrecision);
  return {
    e: 'kline',
    E: now,
    s: symbol,
    k: {
      t: c.openTime,
      T: c.closeTime,
      s: symbol,
      i: interval,
      f: 0,
      L: c.trades,
      o: p(c.open),
      c: p(c.close),
      h: p(c.high),
      l: p(c.low),
      v: q(c.volume),
      n: c.trades,
      x: closed,
      q: c.quoteVolume.toFixed(4),
      V: q(c.takerBuyVolume),
      Q: c.takerBuyQuoteVolume.toFixed(4),
      B: '0',
    },
  };
}
