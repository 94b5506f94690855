// Display rules of the analysis (SPEC.md §2 "Analysis", §9), kept apart from the chart so the page can use
// them without loading @nivo/line.
import { ANALYSIS_BUCKET_MS } from '../../../contracts';

/** Correlations are shown to 3 decimals (SPEC.md §9). */
export const CORRELATION_DECIMALS = 3;
/** At most this many ticks on the lag axis (SPEC.md §9). */
const MAX_LAG_TICKS = 48;

/** Every lag when there are at most 48, otherwise every second, third… lag, always including 0. */
export function lagTicks(lags: readonly number[]): number[] {
  const step = Math.max(1, Math.ceil(lags.length / MAX_LAG_TICKS));
  return lags.filter((lag) => lag % step === 0);
}

/** A lag with its sign: '+3', '0', '-2'. */
export const signedLag = (lag: number): string => (lag > 0 ? `+${lag}` : String(lag));

/** The time a lag spans, signed, in minutes: lag 3 → '+15'. */
export const lagMinutes = (lag: number): string => signedLag((lag * ANALYSIS_BUCKET_MS) / 60_000);

/** Below this |r| no lag says anything: the headline reports no clear relation (issue 40). */
export const CLEAR_RELATION_MIN_ABS_CORR = 0.1;

/**
 * The strongest relation of one series (issue 40): the lag of the largest |r|, with r. SPEC.md's headline is the
 * greatest r, which for a series that moves against the price is near 0 while its curve reaches −0.3: this is
 * reported beside it. The earliest such lag on a tie. Undefined without points.
 */
export function strongestRelation(
  points: readonly { lag: number; corr_buy: number; corr_sell: number }[],
  series: 'buy' | 'sell',
): { corr: number; lag: number } | undefined {
  let best: { corr: number; lag: number } | undefined;
  for (const point of points) {
    const corr = series === 'buy' ? point.corr_buy : point.corr_sell;
    if (!best || Math.abs(corr) > Math.abs(best.corr)) best = { corr, lag: point.lag };
  }
  return best;
}

/** How the strongest relation reads in words: signals before the move, after it, with it, or none clear. */
export function relationKind(relation: { corr: number; lag: number }): 'lead' | 'follow' | 'same' | 'none' {
  if (Math.abs(relation.corr) < CLEAR_RELATION_MIN_ABS_CORR) return 'none';
  return relation.lag > 0 ? 'lead' : relation.lag < 0 ? 'follow' : 'same';
}
