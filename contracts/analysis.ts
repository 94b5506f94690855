// Analysis (SPEC.md §2 "Analysis", §3 Analysis request / Result, §5 Analysis, §7 POST /analysis/get_analysis/):
// how the signals relate to the market's moves before and after them, as Pearson correlations over lags.
import { z } from 'zod';
import { apiDateTime, resultOf } from './common';

/** Width of one bucket of the series, ms (5 minutes, like one last-day statistics point, SPEC.md §9). */
export const ANALYSIS_BUCKET_MS = 5 * 60_000;
/** Lags scanned each way, in buckets: −24…24 is two hours either side (SPEC.md §9: at most 48 x ticks). */
export const ANALYSIS_MAX_LAG = 24;
/** Longest range one request may ask for. */
export const ANALYSIS_MAX_RANGE_DAYS = 31;
export const ANALYSIS_MAX_RANGE_MS = ANALYSIS_MAX_RANGE_DAYS * 24 * 60 * 60_000;
/** The symbol whose return is "the market" in the price series. */
export const ANALYSIS_MARKET_SYMBOL = 'BTCUSDT';

export const ANALYSIS_RANGE_INVERTED = 'datatime_end must not be before datatime_start';
export const ANALYSIS_RANGE_TOO_LONG = `The range must not be longer than ${ANALYSIS_MAX_RANGE_DAYS} days`;

/** An ISO-8601 date-time with its zone (Z or ±hh:mm), as Date.prototype.toISOString() writes it. */
const isoDateTime = apiDateTime;

/**
 * POST /analysis/get_analysis/ body. The SPA sends the start day at 00:00:00.000 and the end day at
 * 23:59:59.099 local time (SPEC.md §5); the range must not be inverted nor longer than 31 days.
 */
export const analysisRequest = z
  .object({ datatime_start: isoDateTime, datatime_end: isoDateTime })
  .refine((body) => Date.parse(body.datatime_end) >= Date.parse(body.datatime_start), {
    message: ANALYSIS_RANGE_INVERTED,
    path: ['datatime_end'],
  })
  .refine(
    (body) => Date.parse(body.datatime_end) - Date.parse(body.datatime_start) <= ANALYSIS_MAX_RANGE_MS,
    {
      message: ANALYSIS_RANGE_TOO_LONG,
      path: ['datatime_end'],
    },
  )
  .meta({ id: 'AnalysisRequest' });
export type AnalysisRequest = z.infer<typeof analysisRequest>;

/** One row of lag_price_list: correlations of the buy and the sell series with the return `lag` buckets later. */
export const lagPricePoint = z
  .object({
    /** Buckets of 5 minutes; positive: the return comes after the signals. */
    lag: z.number().int(),
    corr_buy: z.number().min(-1).max(1),
    corr_sell: z.number().min(-1).max(1),
  })
  .meta({ id: 'LagPricePoint' });
export type LagPricePoint = z.infer<typeof lagPricePoint>;

/** lag_buy / lag_sell: the greatest correlation over the listed lags and the lag where it occurs. */
export const lagMaxCorrelation = z
  .object({ max_corr: z.number().min(-1).max(1), lag_at_max_corr: z.number().int() })
  .meta({ id: 'LagMaxCorrelation' });
export type LagMaxCorrelation = z.infer<typeof lagMaxCorrelation>;

/**
 * The analysis of a range. The series are built per 5-minute bucket t (UTC-aligned, [T, T + 5 min)); the
 * buckets are those whose start lies within [datatime_start, datatime_end] and that have closed, from the
 * first to the last one the exchange has a BTCUSDT 5-minute kline for:
 * - buy_t: BUY signals made in bucket t (created_at in [T, T + 5 min)) that were published — they carry an
 *   accuracy, so they reached every trader whose minimal_accuracy they meet; signals made while their neuron
 *   had too few resolved signals (accuracy null) are never sent and do not count. All symbols; one engine
 *   signal counts once however many platforms store it;
 * - sell_t: the same for SELL signals;
 * - price_t: bitcoin's close-to-close return over bucket t in percent, ((close_t − close_{t−1}) ÷
 *   close_{t−1}) × 100 in binary64, from the exchange's 5-minute klines; close_{t−1} is that of the bucket before (also before
 *   the range), or bucket t's own open when the exchange has no kline there; a bucket without a kline is 0.
 * lag k pairs buy_t and sell_t with price_{t+k} over the overlapping buckets (trade-core lagScan), for k in
 * −24…24, fewer when the range has fewer than 26 buckets (a lag must leave at least 2 pairs). corr_buy > 0 at
 * k > 0 means buy signals come before rises. A range without buckets, or without a counted signal, answers an
 * empty lag_price_list and maxima of {max_corr: 0, lag_at_max_corr: 0}.
 */
export const analysisResult = z
  .object({
    lag_price_list: z.array(lagPricePoint),
    lag_buy: lagMaxCorrelation,
    lag_sell: lagMaxCorrelation,
  })
  .meta({ id: 'AnalysisResult' });
export type AnalysisResult = z.infer<typeof analysisResult>;
export const getAnalysisAnswer = resultOf(analysisResult);
