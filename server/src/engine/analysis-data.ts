// The analysis's data, read once for everyone (issue 52; DESIGN.md "Market data is read once and shared"): per
// UTC day, bitcoin's 5-minute buckets and the published BUY and SELL signals of each bucket. Bitcoin comes from
// the candles the server stores anyway (market_candle_days, the what-if's table: the leader's feed writes every
// minute, kept 31 days); only a day the store lacks (older, or with a gap in a closed bucket) is read from the
// exchange, once. A day that ended more than FINAL_AFTER_MS ago is read once and kept; the day still open is read
// again when a new bucket has closed. Concurrent analyses wait for the same read: 32 of them cost one.
import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { ANALYSIS_BUCKET_MS, ANALYSIS_MARKET_SYMBOL } from '../../../contracts';
import type { Database } from '../db';
import { symbols } from '../db/schema';
import { marketCandleDays, signals } from '../db/schema-signals';
import type { Candle } from './candles';
import type { MarketFeed } from './market-feed';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const BUCKETS_PER_DAY = DAY_MS / ANALYSIS_BUCKET_MS;
const MINUTES_PER_BUCKET = ANALYSIS_BUCKET_MS / MINUTE_MS;
/** A day is final this long after its end: late candles and signals have arrived by then. */
const FINAL_AFTER_MS = 15 * 60_000;
/** Days kept: the longest range (31 days), the day it starts in and one to spare. */
const KEEP_DAYS = 33;
/** The signals of a day are counted this much at a time (a multiple of the bucket). */
const READ_CHUNK_MS = DAY_MS;

/** The exchange's klines could not be read (network, exchange down): the answer is 503, not 500. */
export class MarketDataUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Market data is not available', { cause });
  }
}

/** One UTC day of the analysis: per 5-minute bucket, bitcoin's open and close (NaN: none) and signal counts. */
export interface AnalysisDay {
  open: Float64Array;
  close: Float64Array;
  buy: Int32Array;
  sell: Int32Array;
}

interface Cached {
  day: Promise<AnalysisDay>;
  /** '' for a final day; else the bucket of the clock it was read at. */
  version: string;
}

export class AnalysisData {
  private readonly days = new LRUCache<number, Cached>({ max: KEEP_DAYS });
  /** Exchange reads made for the analysis (days the store lacked): a test and the bench read it. */
  exchangeReads = 0;

  constructor(
    private readonly db: Database,
    private readonly feed: MarketFeed,
  ) {}

  /** The day starting at `dayStart` (00:00 UTC), as of `nowMs`. */
  day(dayStart: number, nowMs: number): Promise<AnalysisDay> {
    const final = dayStart + DAY_MS + FINAL_AFTER_MS <= nowMs;
    const version = final ? '' : String(Math.floor(nowMs / ANALYSIS_BUCKET_MS));
    const known = this.days.get(dayStart);
    if (known && (known.version === '' || known.version === version)) return known.day;
    const day = this.read(dayStart, nowMs);
    this.days.set(dayStart, { day, version });
    // A failed read is not kept: the next analysis tries again.
    day.catch(() => {
      if (this.days.get(dayStart)?.day === day) this.days.delete(dayStart);
    });
    return day;
  }

  private async read(dayStart: number, nowMs: number): Promise<AnalysisDay> {
    const day: AnalysisDay = {
      open: new Float64Array(BUCKETS_PER_DAY).fill(Number.NaN),
      close: new Float64Array(BUCKETS_PER_DAY).fill(Number.NaN),
      buy: new Int32Array(BUCKETS_PER_DAY),
      sell: new Int32Array(BUCKETS_PER_DAY),
    };
    // The buckets of the day that have closed by now: the ones an analysis may use.
    const closedBuckets = Math.max(
      0,
      Math.min(BUCKETS_PER_DAY, Math.floor((nowMs - dayStart) / ANALYSIS_BUCKET_MS)),
    );
    if (!(await this.readStored(dayStart, closedBuckets, day))) await this.readExchange(dayStart, day);
    // Counted by the database (a day's few hundred bucket counts come back, not its signals as rows: PGlite runs
    // in this process, and a day of signals read as rows held every other request for hundreds of milliseconds).
    for (let from = dayStart; from < dayStart + DAY_MS; from += READ_CHUNK_MS) {
      for (const row of await publishedSignalCounts(this.db, dayStart, from, from + READ_CHUNK_MS)) {
        const counts = row.direction === 'BUY' ? day.buy : row.direction === 'SELL' ? day.sell : undefined;
        const index = Number(row.bucket);
        if (counts && index >= 0 && index < BUCKETS_PER_DAY) counts[index] = Number(row.count);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return day;
  }

  /**
   * Bitcoin's buckets from the stored 1-minute candles: a bucket opens at its first minute's open and closes at
   * its last minute's close. False when the store lacks the day or a minute of a closed bucket.
   */
  private async readStored(dayStart: number, closedBuckets: number, day: AnalysisDay): Promise<boolean> {
    const [row] = await this.db
      .select({ open: marketCandleDays.open, close: marketCandleDays.close })
      .from(marketCandleDays)
      .innerJoin(symbols, eq(symbols.symbol_uuid, marketCandleDays.symbol_uuid))
      .where(
        and(eq(symbols.symbol_pair, ANALYSIS_MARKET_SYMBOL), eq(marketCandleDays.day, new Date(dayStart))),
      );
    if (!row) return false;
    for (let bucket = 0; bucket < closedBuckets; bucket += 1) {
      // A gap is NULL in the array (the driver may hand it over as null or as the text NULL).
      const open = Number(row.open[bucket * MINUTES_PER_BUCKET] ?? Number.NaN);
      const close = Number(row.close[bucket * MINUTES_PER_BUCKET + MINUTES_PER_BUCKET - 1] ?? Number.NaN);
      if (!Number.isFinite(open) || !Number.isFinite(close)) return false;
      day.open[bucket] = open;
      day.close[bucket] = close;
    }
    return true;
  }

  /** The day's 5-minute klines from the exchange (a day the store lacks). */
  private async readExchange(dayStart: number, day: AnalysisDay): Promise<void> {
    let klines: Candle[];
    try {
      this.exchangeReads += 1;
      klines = await this.feed.klinesBetween(
        ANALYSIS_MARKET_SYMBOL,
        { name: '5m', ms: ANALYSIS_BUCKET_MS },
        dayStart,
        dayStart + DAY_MS - 1,
      );
    } catch (error) {
      throw new MarketDataUnavailableError(error);
    }
    for (const candle of klines) {
      const index = Math.floor((candle.openTime - dayStart) / ANALYSIS_BUCKET_MS);
      if (index < 0 || index >= BUCKETS_PER_DAY) continue;
      day.open[index] = Number(candle.open);
      day.close[index] = Number(candle.close);
    }
  }
}

/**
 * Published signals (accuracy not null) made within [fromMs, toMs), counted per direction and 5-minute bucket of
 * the day that starts at `dayStartMs`, one per engine signal: a signal stored for several platforms has the same
 * neuron, symbol and created_at on each.
 */
async function publishedSignalCounts(
  db: Database,
  dayStartMs: number,
  fromMs: number,
  toMs: number,
): Promise<{ direction: string; bucket: number | string; count: number | string }[]> {
  const distinct = db
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
    )
    .as('distinct_signals');
  const bucket = sql<number>`floor((extract(epoch from ${distinct.created_at}) * 1000 - ${dayStartMs}) / ${ANALYSIS_BUCKET_MS})::int`;
  return db
    .select({ direction: distinct.direction, bucket, count: sql<number>`count(*)::int` })
    .from(distinct)
    .groupBy(sql`1, 2`);
}

export { DAY_MS as ANALYSIS_DAY_MS };
