// Kline intervals of GET /fapi/v1/klines (reference §4) built from 1-minute candles, and the Binance wire row.
import { D } from '../num.js';
import { DAY_MS, MINUTE_MS, type Candle1m } from './history.js';

const FIXED_INTERVALS: Record<string, number> = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
  '2h': 120 * MINUTE_MS,
  '4h': 240 * MINUTE_MS,
  '6h': 360 * MINUTE_MS,
  '8h': 480 * MINUTE_MS,
  '12h': 720 * MINUTE_MS,
  '1d': DAY_MS,
  '3d': 3 * DAY_MS,
};
/** Weeks start on Monday 00:00 UTC; 1970-01-05 was the first Monday after the epoch. */
const WEEK_OFFSET_MS = 4 * DAY_MS;
const WEEK_MS = 7 * DAY_MS;

export function isInterval(interval: string): boolean {
  return interval in FIXED_INTERVALS || interval === '1w' || interval === '1M';
}

export function bucketStart(interval: string, time: number): number {
  if (interval === '1w') return Math.floor((time - WEEK_OFFSET_MS) / WEEK_MS) * WEEK_MS + WEEK_OFFSET_MS;
  if (interval === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  const ms = FIXED_INTERVALS[interval] ?? MINUTE_MS;
  return Math.floor(time / ms) * ms;
}

export function bucketEnd(interval: string, start: number): number {
  if (interval === '1w') return start + WEEK_MS - 1;
  if (interval === '1M') {
    const date = new Date(start);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - 1;
  }
  return start + (FIXED_INTERVALS[interval] ?? MINUTE_MS) - 1;
}

/** Upper bound of one interval's length, used to size the 1-minute range that has to be read. */
export function intervalSpan(interval: string): number {
  if (interval === '1w') return WEEK_MS;
  if (interval === '1M') return 31 * DAY_MS;
  return FIXED_INTERVALS[interval] ?? MINUTE_MS;
}

/** Index of the first candle whose openTime >= time (candles are sorted by openTime). */
export function lowerBound(candles: readonly Candle1m[], time: number): number {
  let lo = 0;
  let hi = candles.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((candles[mid] as Candle1m).openTime < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function aggregate(interval: string, candles: readonly Candle1m[]): Candle1m[] {
  const out: Candle1m[] = [];
  let current: Candle1m | undefined;
  for (const candle of candles) {
    const start = bucketStart(interval, candle.openTime);
    if (!current || current.openTime !== start) {
      current = { ...candle, openTime: start, closeTime: bucketEnd(interval, start) };
      out.push(current);
      continue;
    }
    current.high = Math.max(current.high, candle.high);
    current.low = Math.min(current.low, candle.low);
    current.close = candle.close;
    current.volume += candle.volume;
    current.quoteVolume += candle.quoteVolume;
    current.trades += candle.trades;
    current.takerBuyVolume += candle.takerBuyVolume;
    current.takerBuyQuoteVolume += candle.takerBuyQuoteVolume;
  }
  return out;
}

export interface KlineQuery {
  interval: string;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/**
 * Binance's selection: klines opening at or after startTime, forwards; without startTime the most recent
 * ones up to endTime (or now). `read(from, to)` returns the 1-minute candles opening within [from, to].
 */
export function selectKlines(
  read: (from: number, to: number) => Candle1m[],
  now: number,
  query: KlineQuery,
): Candle1m[] {
  const span = intervalSpan(query.interval);
  // endTime selects klines by their open time; each is whole (Binance does not cut a kline at endTime): the
  // minutes are read to the end of the kline that endTime falls in.
  const endTime = query.endTime;
  const readTo = endTime === undefined ? undefined : bucketStart(query.interval, endTime) + span - 1;
  const opensBy = (row: Candle1m) => endTime === undefined || row.openTime <= endTime;
  if (query.startTime !== undefined) {
    const startTime = query.startTime;
    const from = bucketStart(query.interval, startTime);
    const to = Math.min(readTo ?? Number.MAX_SAFE_INTEGER, from + (query.limit + 1) * span);
    return aggregate(query.interval, read(from, to))
      .filter((row) => row.openTime >= startTime && opensBy(row))
      .slice(0, query.limit);
  }
  const to = Math.min(readTo ?? now, now);
  const from = bucketStart(query.interval, to) - (query.limit + 1) * span;
  return aggregate(query.interval, read(from, to)).filter(opensBy).slice(-query.limit);
}

export interface KlineDecimals {
  price: number;
  qty: number;
}

/** `[openTime, "open", "high", "low", "close", "volume", closeTime, "quoteVolume", trades, "takerBuyBase", "takerBuyQuote", "0"]`. */
export function klineRow(candle: Candle1m, decimals: KlineDecimals): (string | number)[] {
  const p = (value: number) => new D(value).toFixed(decimals.price);
  const q = (value: number) => new D(value).toFixed(decimals.qty);
  return [
    candle.openTime,
    p(candle.open),
    p(candle.high),
    p(candle.low),
    p(candle.close),
    q(candle.volume),
    candle.closeTime,
    new D(candle.quoteVolume).toFixed(4),
    candle.trades,
    q(candle.takerBuyVolume),
    new D(candle.takerBuyQuoteVolume).toFixed(4),
    '0',
  ];
}
