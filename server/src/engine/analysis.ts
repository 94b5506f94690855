// The correlation analysis of SPEC.md §2 "Analysis": per 5-minute bucket, the published BUY and SELL signals
// and bitcoin's return, correlated over lags by trade-core's lagScan. The exact series definitions are in
// contracts/analysis.ts (analysisResult) and docs/server.md "Analysis".
import { and, gte, isNotNull, lt } from 'drizzle-orm';
import {
  ANALYSIS_BUCKET_MS,
  ANALYSIS_MARKET_SYMBOL,
  ANALYSIS_MAX_LAG,
  type AnalysisResult,
} from '../../../contracts';
import type { Database } from '../db';
import { signals } from '../db/schema-signals';
import { lagScan } from '../../../shared-core/trade-core-node';
import type { Candle } from './candles';
import type { MarketFeed } from './market-feed';

const BUCKET = { name: '5m', ms: ANALYSIS_BUCKET_MS } as const;
/** The signals of a range are read this much at a time (a multiple of the bucket: no bucket is split). */
const READ_CHUNK_MS = 24 * 60 * 60 * 1000;

const EMPTY_ANALYSIS: AnalysisResult = {
  lag_price_list: [],
  lag_buy: { max_corr: 0, lag_at_max_corr: 0 },
  lag_sell: { max_corr: 0, lag_at_max_corr: 0 },
};

/** The exchange's klines could not be read (network, exchange down): the answer is 503, not 500. */
export class MarketDataUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Market data is not available', { cause });
  }
}

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

/** Return of bucket t in percent against the close of the bucket before, or its own open without one. */
function bucketReturn(candle: Candle, before: Candle | undefined): number {
  const close = Number(candle.close);
  const reference = Number(before ? before.close : candle.open);
  return ((close - reference) / reference) * 100;
}

/**
 * Published signals (accuracy not null) made within [fromMs, toMs), one per engine signal: a signal stored
 * for several platforms has the same neuron, symbol and created_at on each.
 */
async function publishedSignals(db: Database, fromMs: number, toMs: number) {
  return db
    .selectDistinct({
      neuron_uuid: signals.neuron_uuid,
      symbol_uuid: signals.symbol_uuid,
      created_at: signals.created_at,
      direction: signals.direction,
    })
    .from(signals)
    .where(
      and(
        isNotNull(signals.accuracy),
        gte(signals.created_at, new Date(fromMs)),
        lt(signals.created_at, new Date(toMs)),
      ),
    );
}

/** The three series of a range (contracts/analysis.ts analysisResult); empty when the exchange has no kline. */
async function buildAnalysisSeries(
  db: Database,
  feed: MarketFeed,
  range: AnalysisRange,
): Promise<AnalysisSeries> {
  const series: AnalysisSeries = { bucketStarts: [], buy: [], sell: [], price: [] };
  const first = Math.ceil(range.startMs / ANALYSIS_BUCKET_MS) * ANALYSIS_BUCKET_MS;
  const newestClosed = floorTo(range.nowMs) - ANALYSIS_BUCKET_MS;
  const last = Math.min(floorTo(range.endMs), newestClosed);
  if (last < first) return series;
  // One bucket more at the front: the close before the first bucket of the range.
  let klines: Candle[];
  try {
    klines = await feed.klinesBetween(ANALYSIS_MARKET_SYMBOL, BUCKET, first - ANALYSIS_BUCKET_MS, last);
  } catch (error) {
    throw new MarketDataUnavailableError(error);
  }
  const byOpenTime = new Map(klines.map((candle) => [candle.openTime, candle]));
  const inRange = klines.filter((candle) => candle.openTime >= first && candle.openTime <= last);
  const from = inRange[0]?.openTime;
  const to = inRange.at(-1)?.openTime;
  if (from === undefined || to === undefined) return series;

  for (let start = from; start <= to; start += ANALYSIS_BUCKET_MS) {
    const candle = byOpenTime.get(start);
    series.bucketStarts.push(start);
    series.buy.push(0);
    series.sell.push(0);
    series.price.push(candle ? bucketReturn(candle, byOpenTime.get(start - ANALYSIS_BUCKET_MS)) : 0);
  }
  // A day at a time, the event loop free between days (issue 38 item 1): PGlite runs in this process, so one
  // month-long read would hold every other trader's request for its whole length.
  for (let dayFrom = from; dayFrom < to + ANALYSIS_BUCKET_MS; dayFrom += READ_CHUNK_MS) {
    const dayTo = Math.min(dayFrom + READ_CHUNK_MS, to + ANALYSIS_BUCKET_MS);
    for (const row of await publishedSignals(db, dayFrom, dayTo)) {
      const index = Math.floor((row.created_at.getTime() - from) / ANALYSIS_BUCKET_MS);
      const counts =
        row.direction === 'BUY' ? series.buy : row.direction === 'SELL' ? series.sell : undefined;
      if (counts && index >= 0 && index < counts.length) counts[index] = (counts[index] ?? 0) + 1;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return series;
}

/**
 * The analysis answer of a range: lagScan over the series with lags −24…24 (fewer when a lag would leave
 * fewer than 2 pairs), or the empty answer for a range without buckets or without a published signal.
 */
export async function analyseRange(
  db: Database,
  feed: MarketFeed,
  range: AnalysisRange,
): Promise<AnalysisResult> {
  const series = await buildAnalysisSeries(db, feed, range);
  const count = series.price.length;
  const hasSignals = series.buy.some((value) => value > 0) || series.sell.some((value) => value > 0);
  if (count < 2 || !hasSignals) return EMPTY_ANALYSIS;
  return lagScan(series.buy, series.sell, series.price, Math.min(ANALYSIS_MAX_LAG, count - 2));
}
