// The stored 1-minute candles (issue 42; db market_candles): what the what-if replay trades its signals on,
// read from the database, never from the exchange (a month of klines per replay would spend our address's
// request budget for every trader). The leader's signal core records every closed candle the market feed gives
// it (live and REST-filled, live-core.ts) in batches; the first start's backfill stores the history it
// replayed (backfill.ts). Candles older than CANDLE_KEEP_DAYS are deleted by the leader every hour.
import { lt } from 'drizzle-orm';
import type { Database } from '../db';
import { marketCandles, type MarketCandleRow } from '../db/schema-signals';
import { insertInBulk } from './backfill';
import { candleRow, type Candle } from './candles';

/** A replay reaches back 30 days; one more day covers the day a range starts in. */
export const CANDLE_KEEP_DAYS = 31;
const DAY_MS = 86_400_000;
const FLUSH_MS = 2_000;
const FLUSH_ROWS = 2_000;
const PRUNE_EVERY_MS = 3_600_000;

type Log = { warn(obj: object, msg: string): void };

/** Deletes the candles past the keeping time. */
export async function pruneCandles(db: Database, nowMs: number): Promise<void> {
  await db
    .delete(marketCandles)
    .where(lt(marketCandles.open_time, new Date(nowMs - CANDLE_KEEP_DAYS * DAY_MS)));
}

/** Records closed candles in batches (a candle already stored is kept) and prunes old ones. */
export class CandleRecorder {
  private pending: MarketCandleRow[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly flushTimer: NodeJS.Timeout;
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly log: Log,
    private readonly clock: () => number = Date.now,
  ) {
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_MS);
    this.flushTimer.unref();
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    void this.prune();
  }

  add(symbolUuid: string, candle: Candle): void {
    this.pending.push(candleRow(symbolUuid, candle));
    if (this.pending.length >= FLUSH_ROWS) void this.flush();
  }

  /** Writes what is pending; resolves when every candle added so far is stored (or its write failed). */
  flush(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    if (rows.length > 0) {
      this.writing = this.writing.then(() =>
        insertInBulk(this.db, marketCandles, rows).catch((error: unknown) =>
          this.log.warn({ err: error, candles: rows.length }, 'candles: store failed'),
        ),
      );
    }
    return this.writing;
  }

  private prune(): Promise<void> {
    this.writing = this.writing.then(() =>
      pruneCandles(this.db, this.clock()).catch((error: unknown) =>
        this.log.warn({ err: error }, 'candles: prune failed'),
      ),
    );
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.pruneTimer);
    await this.flush();
  }
}
