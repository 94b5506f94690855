// trend_prediction (SPEC.md §3 "Bitcoin public information"): the forecast move of the next
// PREDICTION_HORIZON_MINUTES in percent. Model: a linear regression of 100 · ln(close[t+30] / close[t]) on
// the series features (series.ts), fitted online by recursive least squares with forgetting factor 0.999 (a
// memory of about 1000 minutes). Each closed candle first teaches the model the outcome of the features of
// 30 minutes ago, then forecasts from its own features. Pure and deterministic.
import type { SymbolSeries } from './series';

export const PREDICTION_HORIZON_MINUTES = 30;
const FORGETTING = 0.999;
/** Initial inverse-covariance scale: weak prior that the weights are 0. */
const PRIOR_SCALE = 10;
/** Updates before the model's forecast is shown; null until then rather than a guess. */
const MIN_UPDATES = 120;

export class MovePredictor {
  private weights: number[] = [];
  private cov: number[][] = [];
  /** Features of the last PREDICTION_HORIZON_MINUTES candles, oldest first. */
  private readonly pending: number[][] = [];
  private updates = 0;

  /** Learns from the candle just pushed onto `series` and returns the new forecast (percent) or null. */
  observe(series: SymbolSeries): number | null {
    if (!series.ready) return null;
    const features = series.features();
    if (this.weights.length === 0) this.reset(features.length);
    if (this.pending.length === PREDICTION_HORIZON_MINUTES) {
      const past = this.pending.shift() as number[];
      this.update(past, 100 * series.logReturn(PREDICTION_HORIZON_MINUTES));
    }
    this.pending.push(features);
    if (this.updates < MIN_UPDATES) return null;
    return this.dot(features);
  }

  private reset(size: number): void {
    this.weights = new Array<number>(size).fill(0);
    this.cov = Array.from({ length: size }, (_, i) =>
      Array.from({ length: size }, (_, j) => (i === j ? PRIOR_SCALE : 0)),
    );
  }

  private dot(x: number[]): number {
    return x.reduce((sum, value, i) => sum + value * (this.weights[i] as number), 0);
  }

  private update(x: number[], target: number): void {
    const n = x.length;
    const px = this.cov.map((row) => row.reduce((sum, value, j) => sum + value * (x[j] as number), 0));
    const denominator = FORGETTING + x.reduce((sum, value, i) => sum + value * (px[i] as number), 0);
    const gain = px.map((value) => value / denominator);
    const error = target - this.dot(x);
    for (let i = 0; i < n; i++) this.weights[i] = (this.weights[i] as number) + (gain[i] as number) * error;
    for (let i = 0; i < n; i++) {
      const row = this.cov[i] as number[];
      for (let j = 0; j < n; j++) {
        row[j] = ((row[j] as number) - (gain[i] as number) * (px[j] as number)) / FORGETTING;
      }
    }
    this.updates += 1;
  }
}
