// Closed 1-minute candles as the engine consumes them (binance-fapi.md §5 klines, §10 kline stream). Prices
// stay the exchange's decimal strings (a signal's entry price is a candle close, sent as the exchange wrote
// it); the indicators parse them to numbers where they compute.
import type { Candle1m } from '../../../paper-exchange/src/index';

export const MINUTE_MS = 60_000;

export interface Candle {
  /** Open time, ms since the epoch; a multiple of MINUTE_MS. */
  openTime: number;
  /** Last millisecond of the minute (openTime + 59 999), as the exchange reports it. */
  closeTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/** The moment a candle is complete: signals made on it and resolutions judged by it carry this time. */
export function candleEnd(candle: Candle): number {
  return candle.closeTime + 1;
}

function priceText(value: unknown): string {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) {
    throw new Error(`not a price: ${String(value)}`);
  }
  return value;
}

/** A REST kline row: [openTime, open, high, low, close, volume, closeTime, …]. */
export function candleFromKlineRow(row: unknown): Candle {
  if (!Array.isArray(row) || typeof row[0] !== 'number' || typeof row[6] !== 'number') {
    throw new Error('malformed kline row');
  }
  return {
    openTime: row[0],
    closeTime: row[6],
    open: priceText(row[1]),
    high: priceText(row[2]),
    low: priceText(row[3]),
    close: priceText(row[4]),
  };
}

/** The `k` object of a kline stream event. */
export function candleFromStreamKline(k: {
  t?: unknown;
  T?: unknown;
  o?: unknown;
  h?: unknown;
  l?: unknown;
  c?: unknown;
}): Candle {
  if (typeof k.t !== 'number' || typeof k.T !== 'number') throw new Error('malformed kline event');
  return {
    openTime: k.t,
    closeTime: k.T,
    open: priceText(k.o),
    high: priceText(k.h),
    low: priceText(k.l),
    close: priceText(k.c),
  };
}

/**
 * A candle of the paper exchange's history generator, written as the exchange writes its klines (fixed
 * decimals of the symbol's price precision), so a replay sees the same strings as the live feed.
 */
export function candleFromHistory(candle: Candle1m, pricePrecision: number): Candle {
  const text = (value: number) => value.toFixed(pricePrecision);
  return {
    openTime: candle.openTime,
    closeTime: candle.closeTime,
    open: text(candle.open),
    high: text(candle.high),
    low: text(candle.low),
    close: text(candle.close),
  };
}

/** Decimals written in a decimal string ('97000.10' → 2). */
export function decimalsOf(text: string): number {
  return text.split('.')[1]?.length ?? 0;
}

/** A candle as a chart draws it (contracts CandlePoint: the signal and trade trend data). */
export function candlePointOf(candle: Candle) {
  return {
    time: candle.openTime,
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
  };
}
