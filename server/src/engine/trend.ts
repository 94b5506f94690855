// trend_moment of a symbol (SPEC.md §3: -1 bear, 0 flat, 1 bull), computed on each closed 1-minute candle:
// the spread ln(EMA15 / EMA60) of the closes against a band of TREND_BAND_SIGMAS times the per-minute
// volatility of the last 60 minutes. Above the band 1, below its negative -1, inside it 0. Measuring the
// band in the symbol's own volatility lets one rule serve BTC and DOGE alike (docs/server.md).
import type { TrendMoment } from '../../../contracts';
import { EMA_SLOW, type SymbolSeries } from './series';

const TREND_BAND_SIGMAS = 1.0;

export function trendMomentOf(series: SymbolSeries): TrendMoment {
  // Until the slow average has seen its window it is mostly the first close: call it flat.
  if (series.count < EMA_SLOW) return 0;
  const band = TREND_BAND_SIGMAS * series.volatility();
  const spread = series.emaSpread();
  if (spread > band) return 1;
  if (spread < -band) return -1;
  return 0;
}
