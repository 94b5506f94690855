// The stored 1-minute candles (issue 42; db market_candle_days): what the what-if replay trades its signals on,
// read from the database, never from the exchange (a month of klines per replay would spend our address's
// request budget for every trader). One row per symbol and UTC day holds the day's prices in four arrays (slot
// m + 1 is minute m after 00:00). The leader's signal core fills in every closed candle the market feed gives it
// (live and REST-filled, live-core.ts) in batches; the first start's backfill stores the history it replayed
// (backfill.ts) in bulk. Days older than CANDLE_KEEP_DAYS are deleted by the leader every hour.
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { marketCandleDays } from '../db/schema-signals';
import type { Candle } from './candles';

/** A replay reaches back 30 days; one more day covers the day a range starts in. */
export const CANDLE_KEEP_DAYS = 31;
export const CANDLE_DAY_MINUTES = 1440;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const FLUSH_MS = 2_000;
const FLUSH_CANDLES = 5_000;
const PRUNE_EVERY_MS = 3_600_000;

type Log = { warn(obj: object, msg: string): void };
type Prices = (string | null)[];
export type CandleDayRow = typeof marketCandleDays.$inferInsert;

const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** The market_candle_days rows of a symbol's candles (whole or partial days; a minute with no candle is NULL). */
export function candleDayRows(symbolUuid: string, candles: Iterable<Candle>): CandleDayRow[] {
  const days = new Map<number, { open: Prices; high: Prices; low: Prices; close: Prices }>();
  const empty = (): Prices => new Array<string | null>(CANDLE_DAY_MINUTES).fill(null);
  for (const candle of candles) {
    const day = dayOf(candle.openTime);
    let row = days.get(day);
    if (!row) {
      row = { open: empty(), high: empty(), low: empty(), close: empty() };
      days.set(day, row);
    }
    const slot = (candle.openTime - day) / MINUTE_MS;
    row.open[slot] = candle.open;
    row.high[slot] = candle.high;
    row.low[slot] = candle.low;
    row.close[slot] = candle.close;
  }
  return [...days].map(([day, prices]) => ({
    symbol_uuid: symbolUuid,
    day: new Date(day),
    ...(prices as { open: string[]; high: string[]; low: string[]; close: string[] }),
  }));
}

/** PostgreSQL's array literal of prices: NULL for a gap ({97000.1,NULL,97001.2}). */
export const priceArrayLiteral = (prices: readonly (string | number | null)[]): string =>
  `{${prices.map((price) => (price === null ? 'NULL' : String(price))).join(',')}}`;

/**
 * Stores a day row's candles in one statement: a new day as it is; a day already stored keeps its prices where
 * this row has a gap and takes this row's elsewhere (the arrays merged element by element, in the database, so
 * two writers at once lose nothing).
 */
async function storeDayRow(db: Database, row: CandleDayRow): Promise<void> {
  const merged = (column: string) =>
    sql.raw(
      `${column} = (select array_agg(coalesce(fresh, kept) order by slot) ` +
        `from unnest(stored.${column}, excluded.${column}) with ordinality as merged(kept, fresh, slot))`,
    );
  const prices = (list: readonly (string | null)[]) => sql`${priceArrayLiteral(list)}::numeric[]`;
  await db.execute(
    sql`insert into ${marketCandleDays} as stored (symbol_uuid, day, open, high, low, close)
        values (${row.symbol_uuid}, ${row.day}, ${prices(row.open)}, ${prices(row.high)}, ${prices(row.low)},
          ${prices(row.close)})
        on conflict (symbol_uuid, day) do update set
          ${merged('open')}, ${merged('high')}, ${merged('low')}, ${merged('close')}`,
  );
}

/** Deletes the days past the keeping time. */
export async function pruneCandles(db: Database, nowMs: number): Promise<void> {
  const oldest = new Date(dayOf(nowMs) - CANDLE_KEEP_DAYS * DAY_MS);
  await db.delete(marketCandleDays).where(lt(marketCandleDays.day, oldest));
}

/** Records closed candles in batches and prunes old days. */
export class CandleRecorder {
  private pending: { symbolUuid: string; candle: Candle }[] = [];
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
    this.pending.push({ symbolUuid, candle });
    if (this.pending.length >= FLUSH_CANDLES) void this.flush();
  }

  /** Writes what is pending; resolves when every candle added so far is stored (or its write failed). */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(async () => {
        // One statement per symbol and day, however many minutes (a start's warm-up brings hundreds).
        const bySymbol = new Map<string, Candle[]>();
        for (const { symbolUuid, candle } of batch) {
          const list = bySymbol.get(symbolUuid);
          if (list) list.push(candle);
          else bySymbol.set(symbolUuid, [candle]);
        }
        try {
          for (const [symbolUuid, candles] of bySymbol) {
            for (const row of candleDayRows(symbolUuid, candles)) await storeDayRow(this.db, row);
          }
        } catch (error) {
          this.log.warn({ err: error, candles: batch.length }, 'candles: store failed');
        }
      });
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
