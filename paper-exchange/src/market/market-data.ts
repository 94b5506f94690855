// Market-data answers of reference §4 computed from the live market: 24h ticker, price ticker, book ticker,
// premium index (mark price and funding), a synthetic order book around the mark, and recent trades.
import { D, ZERO } from '../num.js';
import type { Candle1m } from './history.js';
import type { Market, SyntheticTrade } from './market.js';
import { Rng, hashString } from './rng.js';
import type { SymbolSpec } from './symbols.js';

const FUNDING_INTERVAL_MS = 8 * 3600 * 1000;
/** Funding and interest rate shown by premiumIndex (Binance's default 0.01% per 8 h). */
export const FUNDING_RATE = '0.00010000';

export function ticker24h(market: Market, spec: SymbolSpec, now: number): Record<string, unknown> {
  const candles = market.candlesBetween(spec.symbol, now - 86_400_000);
  const first = candles[0] as Candle1m;
  const last = candles[candles.length - 1] as Candle1m;
  const p = (value: number | InstanceType<typeof D>) => new D(value).toFixed(spec.pricePrecision);
  const open = new D(first.open);
  const close = market.mark(spec.symbol);
  let volume = ZERO;
  let quote = ZERO;
  let high = first.high;
  let low = first.low;
  let count = 0;
  for (const c of candles) {
    volume = volume.plus(c.volume);
    quote = quote.plus(c.quoteVolume);
    high = Math.max(high, c.high);
    low = Math.min(low, c.low);
    count += c.trades;
  }
  const change = close.minus(open);
  return {
    symbol: spec.symbol,
    priceChange: p(change),
    priceChangePercent: open.isZero() ? '0.000' : change.div(open).times(100).toFixed(3),
    weightedAvgPrice: volume.isZero() ? p(close) : p(quote.div(volume)),
    lastPrice: p(close),
    lastQty: new D(spec.minQty).toFixed(spec.quantityPrecision),
    openPrice: p(open),
    highPrice: p(high),
    lowPrice: p(low),
    volume: volume.toFixed(spec.quantityPrecision),
    quoteVolume: quote.toFixed(2),
    openTime: first.openTime,
    closeTime: Math.max(last.closeTime, now),
    firstId: 1,
    lastId: count,
    count,
  };
}

export function priceTicker(market: Market, spec: SymbolSpec, now: number): Record<string, unknown> {
  return { symbol: spec.symbol, price: market.mark(spec.symbol).toFixed(spec.pricePrecision), time: now };
}

export function bookTicker(market: Market, spec: SymbolSpec, now: number): Record<string, unknown> {
  const book = depth(market, spec, 5, now);
  const [bid] = book.bids;
  const [ask] = book.asks;
  return {
    symbol: spec.symbol,
    bidPrice: bid?.[0] ?? '0',
    bidQty: bid?.[1] ?? '0',
    askPrice: ask?.[0] ?? '0',
    askQty: ask?.[1] ?? '0',
    time: now,
  };
}

export function nextFundingTime(now: number): number {
  return (Math.floor(now / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
}

export function premiumIndex(market: Market, spec: SymbolSpec, now: number): Record<string, unknown> {
  const mark = market.mark(spec.symbol).toFixed(8);
  return {
    symbol: spec.symbol,
    markPrice: mark,
    indexPrice: mark,
    estimatedSettlePrice: mark,
    lastFundingRate: FUNDING_RATE,
    interestRate: FUNDING_RATE,
    nextFundingTime: nextFundingTime(now),
    time: now,
  };
}

export interface Book {
  lastUpdateId: number;
  E: number;
  T: number;
  bids: [string, string][];
  asks: [string, string][];
}

/**
 * A synthetic book: best bid/ask one half-spread around the mark, one level per tick, quantities drawn from
 * a generator seeded by (symbol, second) so that repeated reads within a second agree.
 */
export function depth(market: Market, spec: SymbolSpec, limit: number, now: number): Book {
  const second = Math.floor(now / 1000);
  const rng = new Rng(market.seed ^ second, hashString(spec.symbol));
  const tick = new D(spec.tickSize);
  const half = market.halfSpread(spec.symbol);
  const mark = market.mark(spec.symbol);
  const typical = new D(spec.minNotional).div(mark).times(20);
  const level = (price: InstanceType<typeof D>): [string, string] => {
    const qty = D.max(typical.times(0.2 + rng.uniform() * 3), spec.minQty).toDecimalPlaces(
      spec.quantityPrecision,
    );
    return [price.toFixed(spec.pricePrecision), qty.toFixed(spec.quantityPrecision)];
  };
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 0; i < limit; i++) {
    bids.push(level(mark.minus(half).minus(tick.times(i))));
    asks.push(level(mark.plus(half).plus(tick.times(i))));
  }
  return { lastUpdateId: second, E: now, T: now, bids, asks };
}

/** Most recent public trades (synthetic market trades and the fills of every account). */
export class TradeTape {
  private readonly tapes = new Map<string, SyntheticTrade[]>();
  private static readonly SIZE = 1000;

  add(symbol: string, trade: SyntheticTrade): void {
    const tape = this.tapes.get(symbol) ?? [];
    tape.push(trade);
    if (tape.length > TradeTape.SIZE) tape.splice(0, tape.length - TradeTape.SIZE);
    this.tapes.set(symbol, tape);
  }

  recent(symbol: string, limit: number): SyntheticTrade[] {
    return (this.tapes.get(symbol) ?? []).slice(-limit);
  }
}
