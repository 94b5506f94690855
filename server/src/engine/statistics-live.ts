// The live statistics recorder (docs/server.md "Statistics"): a timer aligned to the 5-minute boundaries
// (unref'd, stopped on close). At each boundary T it stores the point of T — the house's open trades with the
// trade monitor's current PNL, and bitcoin's mark price — and the items of the UTC days that ended since the
// last stored one (normally the day that ended at T when T is 00:00): the house trades closed that day, and
// bitcoin's close of the day's last minute (the feed's candle, else the current price). Days before the
// recorder first ran, with no item stored at all, are not made up. Points older than 30 days are deleted.
import { and, eq, isNotNull } from 'drizzle-orm';
import { TradeStatus } from '../../../contracts';
import type { Database } from '../db';
import type { StatisticTradePointRow } from '../db/schema-statistics';
import { trades } from '../db/schema-trades';
import { BITCOIN_SYMBOL, type MarketFeed } from './market-feed';
import {
  DAY_MS,
  ITEM_WINDOW_DAYS,
  STATISTIC_POINT_MS,
  closedTradesBetween,
  dayStartOf,
  lastStoredDay,
  prunePoints,
  statisticItem,
  statisticPoint,
  statisticTradeOf,
  storeItems,
  storePoints,
} from './statistics';
import type { TradeMonitor } from './trade-monitor';

const MINUTE_MS = 60_000;

export interface StatisticsRecorderOptions {
  db: Database;
  monitor: TradeMonitor;
  feed: Pick<MarketFeed, 'price' | 'candlesBetween'>;
  houseUserUuid: string;
  log: { warn(obj: object, msg: string): void };
  clock?: () => number;
}

export class StatisticsRecorder {
  private readonly clock: () => number;
  private readonly startedAt: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: StatisticsRecorderOptions) {
    this.clock = options.clock ?? Date.now;
    this.startedAt = this.clock();
  }

  /** Stores the days that ended while the server was down, then a point at every 5-minute boundary. */
  start(): void {
    this.running = this.recordDays(this.clock()).then(
      () => undefined,
      (error: unknown) => this.options.log.warn({ err: error }, 'statistics: storing the days failed'),
    );
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Resolves when the recording under way is done. */
  idle(): Promise<void> {
    return this.running;
  }

  private schedule(): void {
    if (this.closed) return;
    const now = this.clock();
    const boundary = (Math.floor(now / STATISTIC_POINT_MS) + 1) * STATISTIC_POINT_MS;
    this.timer = setTimeout(() => {
      this.running = this.running.then(() => this.onBoundary(boundary));
      this.schedule();
    }, boundary - now);
    this.timer.unref();
  }

  private async onBoundary(time: number): Promise<void> {
    try {
      await this.recordPoint(time);
      await this.recordDays(time);
    } catch (error) {
      this.options.log.warn({ err: error }, 'statistics: recording failed');
    }
  }

  /** Stores the point of boundary `time` from the house's open trades now; undefined without a bitcoin price. */
  async recordPoint(time: number): Promise<StatisticTradePointRow | undefined> {
    const price = this.options.feed.price(BITCOIN_SYMBOL)?.price;
    if (!price) return undefined;
    const rows = await this.options.db
      .select()
      .from(trades)
      .where(
        and(
          eq(trades.user_uuid, this.options.houseUserUuid),
          eq(trades.trade_status, TradeStatus.OPEN),
          isNotNull(trades.trade_open_price),
          isNotNull(trades.trade_quantity),
        ),
      );
    const open = rows.map((row) =>
      statisticTradeOf(row, this.options.monitor.calculated(row.trade_uuid)?.trade_pnl_current),
    );
    const point = statisticPoint(time, open, price);
    await storePoints(this.options.db, [point]);
    return point;
  }

  /**
   * Stores the items of the complete days before `now` that follow the last stored one (at most 30), or, with
   * none stored, from the day the recorder started. Answers how many it stored.
   */
  async recordDays(now: number): Promise<number> {
    const { db } = this.options;
    const today = dayStartOf(now);
    const last = await lastStoredDay(db);
    const from = Math.max(
      last ? Date.parse(`${last}T00:00:00Z`) + DAY_MS : dayStartOf(this.startedAt),
      today - ITEM_WINDOW_DAYS * DAY_MS,
    );
    let stored = 0;
    for (let day = from; day < today; day += DAY_MS) {
      const price = await this.closeOfDay(day + DAY_MS, now);
      if (!price) break;
      const closed = await closedTradesBetween(db, this.options.houseUserUuid, day, day + DAY_MS);
      await storeItems(db, [
        statisticItem(
          day,
          closed.map((row) => statisticTradeOf(row)),
          price,
        ),
      ]);
      stored += 1;
    }
    if (stored > 0) await prunePoints(db, now);
    return stored;
  }

  /** Bitcoin's close of the minute ending at `end`: the feed's candle, else (at the roll-over) the mark price. */
  private async closeOfDay(end: number, now: number): Promise<string | undefined> {
    try {
      const candles = await this.options.feed.candlesBetween(BITCOIN_SYMBOL, end - MINUTE_MS, end);
      const last = candles.at(-1);
      if (last && last.openTime === end - MINUTE_MS) return last.close;
    } catch (error) {
      this.options.log.warn({ err: error }, 'statistics: the day’s bitcoin close is unavailable');
    }
    return now - end < STATISTIC_POINT_MS ? this.options.feed.price(BITCOIN_SYMBOL)?.price : undefined;
  }
}
