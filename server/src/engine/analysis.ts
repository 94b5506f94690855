// The correlation analysis of SPEC.md §2 "Analysis": per 5-minute bucket, the published BUY and SELL signals
// and bitcoin's return, correlated over lags by trade-core's lagScan. The exact series definitions are in
// contracts/analysis.ts (analysisResult) and docs/server.md "Analysis".
import { ANALYSIS_BUCKET_MS, ANALYSIS_MAX_LAG, type AnalysisResult } from '../../../contracts';
import { ANALYSIS_DAY_MS, type AnalysisData } from './analysis-data';

export { MarketDataUnavailableError } from './analysis-data';

/** The analysis's part that costs CPU: trade-core's lagScan over its three series. */
export interface LagScanInput {
  buy: number[];
  sell: number[];
  price: number[];
  maxLag: number;
}

const EMPTY_ANALYSIS: AnalysisResult = {
  lag_price_list: [],
  lag_buy: { max_corr: 0, lag_at_max_corr: 0 },
  lag_sell: { max_corr: 0, lag_at_max_corr: 0 },
};

export interface AnalysisSeries {
  /** Start of each bucket, ms since the epoch, 5 minutes apart. */
  bucketStarts: number[];
  /** Published BUY signals made in each bucket. */
  buy: number[];
  /** Published SELL signals made in each bucket. */
  sell: number[];
  /** Bitcoin's close-to-close return over each bucket, percent. */
  price: number[];
}

export interface AnalysisRange {
  /** datatime_start, ms. */
  startMs: number;
  /** datatime_end, ms. */
  endMs: number;
  /** The server's clock, ms: buckets that have not closed by then are left out. */
  nowMs: number;
}

const floorTo = (ms: number) => Math.floor(ms / ANALYSIS_BUCKET_MS) * ANALYSIS_BUCKET_MS;
const floorToDay = (ms: number) => Math.floor(ms / ANALYSIS_DAY_MS) * ANALYSIS_DAY_MS;

/** Return of a bucket in percent against the close of the bucket before, or its own open without one. */
function bucketReturn(open: number, close: number, closeBefore: number): number {
  const reference = Number.isNaN(closeBefore) ? open : closeBefore;
  return ((close - reference) / reference) * 100;
}

/**
 * The three series of a range (contracts/analysis.ts analysisResult) from the shared days (analysis-data.ts);
 * empty when the market has no bucket in it. The series run from the range's first bucket with a price to
 * its last (a bucket without one inside counts a return of 0).
 */
async function buildAnalysisSeries(data: AnalysisData, range: AnalysisRange): Promise<AnalysisSeries> {
  const series: AnalysisSeries = { bucketStarts: [], buy: [], sell: [], price: [] };
  const first = Math.ceil(range.startMs / ANALYSIS_BUCKET_MS) * ANALYSIS_BUCKET_MS;
  const newestClosed = floorTo(range.nowMs) - ANALYSIS_BUCKET_MS;
  const last = Math.min(floorTo(range.endMs), newestClosed);
  if (last < first) return series;
  // One bucket more at the front: the close before the first bucket of the range.
  // Asked together: the database answers one at a time anyway, and the days read from the exchange overlap.
  const starts: number[] = [];
  for (let dayStart = floorToDay(first - ANALYSIS_BUCKET_MS); dayStart <= last; dayStart += ANALYSIS_DAY_MS) {
    starts.push(dayStart);
  }
  const read = await Promise.all(starts.map((dayStart) => data.day(dayStart, range.nowMs)));
  const days = new Map(starts.map((dayStart, i) => [dayStart, read[i]!] as const));
  const at = (time: number) => {
    const dayStart = floorToDay(time);
    const day = days.get(dayStart);
    return { day, index: Math.floor((time - dayStart) / ANALYSIS_BUCKET_MS) };
  };
  const closeAt = (time: number) => {
    const { day, index } = at(time);
    return day ? (day.close[index] ?? Number.NaN) : Number.NaN;
  };
  let from: number | undefined;
  let to: number | undefined;
  for (let time = first; time <= last; time += ANALYSIS_BUCKET_MS) {
    if (Number.isNaN(closeAt(time))) continue;
    from ??= time;
    to = time;
  }
  if (from === undefined || to === undefined) return series;
  for (let time = from; time <= to; time += ANALYSIS_BUCKET_MS) {
    const { day, index } = at(time);
    const close = closeAt(time);
    series.bucketStarts.push(time);
    series.buy.push(day?.buy[index] ?? 0);
    series.sell.push(day?.sell[index] ?? 0);
    series.price.push(
      Number.isNaN(close) ? 0 : bucketReturn(day!.open[index]!, close, closeAt(time - ANALYSIS_BUCKET_MS)),
    );
  }
  return series;
}

/**
 * The analysis answer of a range: lagScan over the series with lags −24…24 (fewer when a lag would leave
 * fewer than 2 pairs), or the empty answer for a range without buckets or without a published signal. The scan
 * runs where `scan` puts it (the route runs it on the event loop: a trade-core call of milliseconds).
 */
export async function analyseRange(
  data: AnalysisData,
  range: AnalysisRange,
  scan: (input: LagScanInput) => Promise<AnalysisResult>,
): Promise<AnalysisResult> {
  const series = await buildAnalysisSeries(data, range);
  const count = series.price.length;
  const hasSignals = series.buy.some((value) => value > 0) || series.sell.some((value) => value > 0);
  if (count < 2 || !hasSignals) return EMPTY_ANALYSIS;
  return scan({
    buy: series.buy,
    sell: series.sell,
    price: series.price,
    maxLag: Math.min(ANALYSIS_MAX_LAG, count - 2),
  });
}
