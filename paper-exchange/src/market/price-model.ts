// Seeded price model (documented in paper-exchange/README.md): a market-wide regime chain (ranging,
// trending up, trending down), GARCH(1,1) volatility clustering per symbol on minute innovations, a common
// market factor for cross-asset correlation, and a one-second path inside every minute. The path depends only
// on (seed, origin time, symbol): each symbol has its own random stream and the market stream is shared, so
// asking for fewer symbols never changes the prices of the others.
import { Rng, hashString } from './rng.js';
import type { SymbolSpec } from './symbols.js';

export const Regime = { RANGING: 0, TRENDING_UP: 1, TRENDING_DOWN: 2 } as const;
export type Regime = (typeof Regime)[keyof typeof Regime];

export const MODEL = {
  minutesPerYear: 525_600,
  /**
   * Share of a symbol's annual volatility carried by the random noise (GARCH long-run level); the trends'
   * drift adds the rest, so the realized volatility of daily returns stays near the documented figure.
   */
  noiseVolShare: 0.55,
  /** Mean regime durations in minutes (per-minute exit probability = 1 / duration). */
  meanRangingMinutes: 240,
  meanTrendMinutes: 150,
  /** Probability that a trend is followed by the opposite trend rather than by a range. */
  trendReversalProbability: 0.3,
  /**
   * Trend drift per minute, as a multiple of the noise's long-run per-minute volatility. Strong enough that a
   * trend moves the price about 0.6 noise-σ per 30-minute horizon beyond what a coin flip would see
   * (bench/signals/accuracy.ts measures what the neurons make of it).
   */
  trendDriftInSigmas: 0.16,
  /** Mean reversion speed towards the level where the range started, per minute. */
  rangeReversion: 0.002,
  /** Volatility multipliers by regime. */
  trendVolMultiplier: 1.15,
  rangeVolMultiplier: 0.85,
  /** GARCH(1,1): h' = ω + α ε² + β h, ω = σ²(1 − α − β). */
  garchAlpha: 0.06,
  garchBeta: 0.92,
  /** Variance kept within [min, max] × long-run variance. */
  varianceFloor: 0.1,
  varianceCap: 25,
  /** Per-minute volume noise (log-normal σ). */
  volumeNoise: 0.3,
  /** Average notional of one trade, USDT; sets the trade count of a candle. */
  tradeNotional: 1500,
} as const;

/**
 * One simulated minute of one symbol: open, close, high and low prices, volume, and (when asked for) the
 * price after each of its 60 seconds.
 */
export interface MinutePath {
  seconds: Float64Array | undefined;
  open: number;
  close: number;
  high: number;
  low: number;
  volume: number;
  takerBuyRatio: number;
}

interface SymbolState {
  spec: SymbolSpec;
  rng: Rng;
  logPrice: number;
  variance: number;
  longVariance: number;
  anchor: number;
}

export class PriceModel {
  /** Absolute index (ms / 60000) of the next minute to simulate. */
  minute: number;
  regime: Regime = Regime.RANGING;
  private readonly market: Rng;
  private readonly states: SymbolState[];
  private readonly common = new Float64Array(60);
  private readonly idiosyncratic = new Float64Array(60);

  constructor(seed: number, specs: readonly SymbolSpec[], originMinute: number) {
    this.minute = originMinute;
    this.market = new Rng(seed, 0x5eed);
    this.states = specs.map((spec) => {
      const sigma = (MODEL.noiseVolShare * spec.annualVol) / Math.sqrt(MODEL.minutesPerYear);
      const logPrice = Math.log(spec.startPrice);
      return {
        spec,
        rng: new Rng(seed, hashString(spec.symbol)),
        logPrice,
        variance: sigma * sigma,
        longVariance: sigma * sigma,
        anchor: logPrice,
      };
    });
  }

  get symbols(): string[] {
    return this.states.map((state) => state.spec.symbol);
  }

  /**
   * Simulates the next minute for every symbol; the result array follows the constructor's order. The
   * per-second prices are only materialised when withSeconds is set (the live market needs them, history not).
   */
  step(withSeconds = false): MinutePath[] {
    this.advanceRegime();
    this.market.fillShocks(this.common, 60);
    const paths = this.states.map((state) => this.stepSymbol(state, withSeconds));
    this.minute += 1;
    return paths;
  }

  private advanceRegime(): void {
    const u = this.market.uniform();
    const v = this.market.uniform();
    if (this.regime === Regime.RANGING) {
      if (u < 1 / MODEL.meanRangingMinutes) {
        this.regime = v < 0.5 ? Regime.TRENDING_UP : Regime.TRENDING_DOWN;
      }
    } else if (u < 1 / MODEL.meanTrendMinutes) {
      const reverse = v < MODEL.trendReversalProbability;
      const opposite = this.regime === Regime.TRENDING_UP ? Regime.TRENDING_DOWN : Regime.TRENDING_UP;
      this.regime = reverse ? opposite : Regime.RANGING;
      if (!reverse) for (const state of this.states) state.anchor = state.logPrice;
    }
  }

  private stepSymbol(state: SymbolState, withSeconds: boolean): MinutePath {
    const { spec, rng } = state;
    const longSigma = Math.sqrt(state.longVariance);
    let drift: number;
    let volMultiplier: number;
    if (this.regime === Regime.RANGING) {
      drift = -MODEL.rangeReversion * (state.logPrice - state.anchor);
      volMultiplier = MODEL.rangeVolMultiplier;
    } else {
      const direction = this.regime === Regime.TRENDING_UP ? 1 : -1;
      drift = direction * MODEL.trendDriftInSigmas * longSigma;
      volMultiplier = MODEL.trendVolMultiplier;
    }
    const secondSigma = Math.sqrt(state.variance / 60) * volMultiplier;
    const secondDrift = drift / 60;
    const loading = spec.marketLoading;
    const idio = Math.sqrt(1 - loading * loading);
    const seconds = withSeconds ? new Float64Array(60) : undefined;
    let logPrice = state.logPrice;
    let logHigh = logPrice;
    let logLow = logPrice;
    let innovation = 0;
    const common = this.common;
    const own = this.idiosyncratic;
    rng.fillShocks(own, 60);
    for (let s = 0; s < 60; s++) {
      const shock = secondSigma * (loading * (common[s] as number) + idio * (own[s] as number));
      innovation += shock;
      logPrice += secondDrift + shock;
      if (logPrice > logHigh) logHigh = logPrice;
      else if (logPrice < logLow) logLow = logPrice;
      if (seconds) seconds[s] = Math.exp(logPrice);
    }
    const open = Math.exp(state.logPrice);
    const minuteReturn = logPrice - state.logPrice;
    state.logPrice = logPrice;
    // GARCH learns from the innovation before the regime's multiplier: fed back, the trend multiplier
    // (α·1.15² + β > 0.999) drove the variance to its cap within a few trends, so trends were five times as
    // volatile as ranges and their drift drowned in the noise.
    const garchInnovation = innovation / volMultiplier;
    const next =
      state.longVariance * (1 - MODEL.garchAlpha - MODEL.garchBeta) +
      MODEL.garchAlpha * garchInnovation * garchInnovation +
      MODEL.garchBeta * state.variance;
    state.variance = Math.min(
      Math.max(next, state.longVariance * MODEL.varianceFloor),
      state.longVariance * MODEL.varianceCap,
    );
    // Volume rises with volatility and with the size of the move, as on real exchanges.
    const activity =
      Math.sqrt(state.variance / state.longVariance) * (1 + Math.abs(minuteReturn) / longSigma / 2);
    const volume = spec.baseVolumePerMinute * activity * Math.exp(MODEL.volumeNoise * rng.normal() - 0.045);
    const tilt = Math.max(-0.2, Math.min(0.2, minuteReturn / (4 * longSigma)));
    return {
      seconds,
      open,
      close: Math.exp(logPrice),
      high: Math.exp(logHigh),
      low: Math.exp(logLow),
      volume,
      takerBuyRatio: 0.5 + tilt,
    };
  }
}
