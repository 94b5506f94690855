// 1-minute candles from the price model, and the history generator the server uses for its backfill.
// Prices are rounded to the symbol's tick and volumes to its step, so candles look like Binance klines.
import { PriceModel, MODEL, type MinutePath } from './price-model.js';
import { SYMBOLS, findSymbol, type SymbolSpec } from './symbols.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface Candle1m {
  openTime: number;
  closeTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base-asset volume. */
  volume: number;
  /** Quote-asset (USDT) volume. */
  quoteVolume: number;
  trades: number;
  takerBuyVolume: number;
  takerBuyQuoteVolume: number;
}

export interface GenerateHistoryOptions {
  seed: number;
  days: number;
  symbols?: readonly string[];
  /** History covers the whole minutes before the minute of endTime (ms); default now. */
  endTime?: number;
}

/** Tick and step as "units per 1" (both are powers of ten for every listed symbol, e.g. 0.01 → 100). */
export interface Rounding {
  ticksPerUnit: number;
  stepsPerUnit: number;
}

export function roundingFor(spec: SymbolSpec): Rounding {
  return {
    ticksPerUnit: Math.round(1 / Number(spec.tickSize)),
    stepsPerUnit: Math.round(1 / Number(spec.stepSize)),
  };
}

/** Nearest tick, never below one tick; dividing an integer by a power of ten gives the closest double. */
export function roundPrice(price: number, r: Rounding): number {
  return Math.max(1, Math.round(price * r.ticksPerUnit)) / r.ticksPerUnit;
}

export function roundQty(qty: number, r: Rounding): number {
  return Math.round(qty * r.stepsPerUnit) / r.stepsPerUnit;
}

/** Candle of one simulated minute; high and low take every second of the path into account. */
export function candleFromPath(path: MinutePath, openTime: number, r: Rounding): Candle1m {
  const open = roundPrice(path.open, r);
  const closeRounded = roundPrice(path.close, r);
  const highRounded = roundPrice(path.high, r);
  const lowRounded = roundPrice(path.low, r);
  const volume = Math.max(1 / r.stepsPerUnit, roundQty(path.volume, r));
  const average = (open + highRounded + lowRounded + closeRounded) / 4;
  const quoteVolume = Math.round(volume * average * 1e4) / 1e4;
  const takerBuyVolume = roundQty(volume * path.takerBuyRatio, r);
  return {
    openTime,
    closeTime: openTime + MINUTE_MS - 1,
    open,
    high: highRounded,
    low: lowRounded,
    close: closeRounded,
    volume,
    quoteVolume,
    trades: Math.max(1, Math.round(quoteVolume / MODEL.tradeNotional)),
    takerBuyVolume,
    takerBuyQuoteVolume: Math.round(takerBuyVolume * average * 1e4) / 1e4,
  };
}

export function resolveSpecs(symbols?: readonly string[]): SymbolSpec[] {
  if (!symbols) return [...SYMBOLS];
  return symbols.map((name) => {
    const spec = findSymbol(name);
    if (!spec) throw new Error(`unknown symbol ${name}`);
    return spec;
  });
}

/** First minute (ms) of a history of `days` days ending before the minute of endTime. */
export function historyOrigin(endTime: number, days: number): number {
  return Math.floor(endTime / MINUTE_MS) * MINUTE_MS - Math.round(days * DAY_MS);
}

/**
 * Pure and deterministic: the same seed, days, symbols and endTime give the same candles. The path starts at
 * historyOrigin(endTime, days); a paper exchange started with that origin continues the same path live.
 */
export function generateHistory(options: GenerateHistoryOptions): Map<string, Candle1m[]> {
  const specs = resolveSpecs(options.symbols);
  const origin = historyOrigin(options.endTime ?? Date.now(), options.days);
  const minutes = Math.round((options.days * DAY_MS) / MINUTE_MS);
  const model = new PriceModel(options.seed, specs, origin / MINUTE_MS);
  const roundings = specs.map(roundingFor);
  const result = new Map<string, Candle1m[]>(specs.map((spec) => [spec.symbol, []]));
  const lists = specs.map((spec) => result.get(spec.symbol) as Candle1m[]);
  for (let m = 0; m < minutes; m++) {
    const openTime = origin + m * MINUTE_MS;
    const paths = model.step();
    for (let i = 0; i < paths.length; i++) {
      (lists[i] as Candle1m[]).push(
        candleFromPath(paths[i] as MinutePath, openTime, roundings[i] as Rounding),
      );
    }
  }
  return result;
}
