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
