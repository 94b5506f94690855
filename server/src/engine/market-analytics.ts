// What the market's closed 1-minute candles say, per symbol: the indicator series, trend_moment (trend.ts),
// the move forecast (prediction.ts) and a window of the latest candles with both. Pure: the live feed and a
// replay of history (issue 8) push the same candles and get the same answers.
import type { TrendMoment } from '../../../contracts';
import { MINUTE_MS, type Candle } from './candles';
import { MovePredictor } from './prediction';
import { SymbolSeries } from './series';
import { trendMomentOf } from './trend';

/** Candles kept per symbol: a day, which also covers REST seeding (at most 1500 klines per request). */
export const CANDLE_WINDOW = 1440;

export interface AnalyzedCandle {
  candle: Candle;
  trendMoment: TrendMoment;
  /** Forecast move of the next PREDICTION_HORIZON_MINUTES in percent, made at this close; null while warming. */
  prediction: number | null;
}

interface SymbolState {
  series: SymbolSeries;
  predictor: MovePredictor;
  window: AnalyzedCandle[];
}

export class MarketAnalytics {
  private readonly symbols = new Map<string, SymbolState>();

  /**
   * Adds the next closed candle of a symbol. A candle that is not newer than the last one is ignored and
   * false is returned (a stream replaying what REST already gave).
   */
  push(symbol: string, candle: Candle): boolean {
    let state = this.symbols.get(symbol);
    if (!state) {
      state = { series: new SymbolSeries(), predictor: new MovePredictor(), window: [] };
      this.symbols.set(symbol, state);
    }
    if (candle.openTime <= state.series.lastOpenTime) return false;
    state.series.push(candle);
    const analyzed: AnalyzedCandle = {
      candle,
      trendMoment: trendMomentOf(state.series),
      prediction: state.predictor.observe(state.series),
    };
    state.window.push(analyzed);
    // Trimmed in batches: dropping one element per candle moves the whole array every minute, which made a
    // 30-day replay spend a second on copying. Readers see only the last CANDLE_WINDOW (windowOf).
    if (state.window.length >= 2 * CANDLE_WINDOW) state.window.splice(0, state.window.length - CANDLE_WINDOW);
    return true;
  }

  /** The symbol's trend at its last closed candle; 0 before any. */
  trendMoment(symbol: string): TrendMoment {
    return this.latest(symbol)?.trendMoment ?? 0;
  }

  latest(symbol: string): AnalyzedCandle | undefined {
    const window = this.symbols.get(symbol)?.window;
    return window?.[window.length - 1];
  }

  series(symbol: string): SymbolSeries | undefined {
    return this.symbols.get(symbol)?.series;
  }

  /** Open time of the last closed candle, or undefined. */
  lastOpenTime(symbol: string): number | undefined {
    return this.latest(symbol)?.candle.openTime;
  }

  /** The last `count` analyzed candles (at most CANDLE_WINDOW), oldest first. */
  recent(symbol: string, count: number): readonly AnalyzedCandle[] {
    const window = this.windowOf(symbol);
    return window.slice(Math.max(0, window.length - count));
  }

  /** Candles with fromTime <= openTime < toTime, or undefined when the window does not reach back that far. */
  between(symbol: string, fromTime: number, toTime: number): Candle[] | undefined {
    const window = this.windowOf(symbol);
    const first = window[0];
    if (!first || first.candle.openTime > fromTime + MINUTE_MS - 1) return undefined;
    return window
      .filter((item) => item.candle.openTime >= fromTime && item.candle.openTime < toTime)
      .map((item) => item.candle);
  }

  /** The last CANDLE_WINDOW analyzed candles of a symbol. */
  private windowOf(symbol: string): AnalyzedCandle[] {
    const window = this.symbols.get(symbol)?.window ?? [];
    return window.length > CANDLE_WINDOW ? window.slice(window.length - CANDLE_WINDOW) : window;
  }
}
