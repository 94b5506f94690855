// Indicators of one symbol over its closed 1-minute candles, updated in O(1) per candle so a 30-day replay
// stays cheap. Everything here is a pure function of the candles seen, in order.
import type { Candle } from './candles';

/** Longest look-back any indicator uses (minutes), plus one for the returns. */
const CAPACITY = 1024;
/** Rolling sums are recomputed from the buffer this often, so float error cannot build up. */
const RESUM_EVERY = 4096;
const SMA_WINDOWS = [60, 240, 720] as const;
const RETURN_WINDOWS = [15, 60, 240] as const;
const VOL_WINDOW = 60;
const LONG_VOL_WINDOW = 240;
const EMA_FAST = 15;
export const EMA_SLOW = 60;
/** Candles needed before every indicator is defined. */
const WARM_CANDLES = 721;
/** Features are clipped to ±this (a z-score), so one odd minute cannot swamp a learned model. */
const FEATURE_CLIP = 5;

export class SymbolSeries {
  private readonly closes = new Float64Array(CAPACITY);
  /** Squared log return ending at each index (0 for the first candle). */
  private readonly squares = new Float64Array(CAPACITY);
  private readonly smaSums = SMA_WINDOWS.map(() => 0);
  private squareSum = 0;
  private longSquareSum = 0;
  private emaFast = 0;
  private emaSlow = 0;
  /** Closed candles seen. */
  count = 0;
  lastOpenTime = -1;

  push(candle: Candle): void {
    const close = Number(candle.close);
    const index = this.count % CAPACITY;
    const previous = this.count > 0 ? this.close() : close;
    const logReturn = Math.log(close / previous);
    this.closes[index] = close;
    this.squares[index] = logReturn * logReturn;
    this.count += 1;
    this.lastOpenTime = candle.openTime;
    SMA_WINDOWS.forEach((window, i) => {
      this.smaSums[i] = (this.smaSums[i] as number) + close - this.back(window, this.closes);
    });
    this.squareSum += logReturn * logReturn - this.back(VOL_WINDOW, this.squares);
    this.longSquareSum += logReturn * logReturn - this.back(LONG_VOL_WINDOW, this.squares);
    const fast = 2 / (EMA_FAST + 1);
    const slow = 2 / (EMA_SLOW + 1);
    this.emaFast = this.count === 1 ? close : this.emaFast + fast * (close - this.emaFast);
    this.emaSlow = this.count === 1 ? close : this.emaSlow + slow * (close - this.emaSlow);
    if (this.count % RESUM_EVERY === 0) this.resum();
  }

  /** Close `ago` candles before the last one (0 = the last). */
  close(ago = 0): number {
    return this.closes[(this.count - 1 - ago + CAPACITY * 4) % CAPACITY] as number;
  }

  get ready(): boolean {
    return this.count >= WARM_CANDLES;
  }

  /** Per-minute volatility: root mean square of the last VOL_WINDOW log returns. */
  volatility(window: typeof VOL_WINDOW | typeof LONG_VOL_WINDOW = VOL_WINDOW): number {
    const n = Math.min(window, Math.max(1, this.count - 1));
    const sum = window === VOL_WINDOW ? this.squareSum : this.longSquareSum;
    return Math.sqrt(Math.max(sum, 0) / n);
  }

  /** ln(EMA_FAST / EMA_SLOW) of the closes. */
  emaSpread(): number {
    return Math.log(this.emaFast / this.emaSlow);
  }

  sma(window: (typeof SMA_WINDOWS)[number]): number {
    const i = SMA_WINDOWS.indexOf(window);
    return (this.smaSums[i] as number) / Math.min(window, this.count);
  }

  /** ln(close / close `minutes` ago). */
  logReturn(minutes: number): number {
    return Math.log(this.close() / this.close(Math.min(minutes, this.count - 1)));
  }

  /**
   * The model inputs, each a z-score against the long-run minute volatility scaled to its window: distance
   * of the close from the 60/240/720-minute means, and the 15/60/240-minute returns. A leading 1 is the bias.
   */
  features(): number[] {
    const vol = this.volatility(LONG_VOL_WINDOW) || 1e-9;
    const clip = (value: number) => Math.max(-FEATURE_CLIP, Math.min(FEATURE_CLIP, value));
    const out = [1];
    for (const window of SMA_WINDOWS)
      out.push(clip(Math.log(this.close() / this.sma(window)) / (vol * Math.sqrt(window))));
    for (const window of RETURN_WINDOWS) out.push(clip(this.logReturn(window) / (vol * Math.sqrt(window))));
    return out;
  }

  /** The value that leaves a window of `window` when the newest value has just been written. */
  private back(window: number, buffer: Float64Array): number {
    if (this.count <= window) return 0;
    return buffer[(this.count - 1 - window + CAPACITY * 4) % CAPACITY] as number;
  }

  private resum(): void {
    SMA_WINDOWS.forEach((window, i) => {
      let sum = 0;
      for (let ago = 0; ago < Math.min(window, this.count); ago++) sum += this.close(ago);
      this.smaSums[i] = sum;
    });
    const squares = (window: number) => {
      let sum = 0;
      for (let ago = 0; ago < Math.min(window, this.count - 1); ago++) {
        sum += this.squares[(this.count - 1 - ago + CAPACITY * 4) % CAPACITY] as number;
      }
      return sum;
    };
    this.squareSum = squares(VOL_WINDOW);
    this.longSquareSum = squares(LONG_VOL_WINDOW);
  }
}
