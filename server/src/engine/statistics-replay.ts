// Statistics in the backfill (docs/server.md "Statistics", "Backfill"): the replay consumer that takes the
// points and items from the house replay's state with the functions the live recorder uses (statistics.ts).
// Listed after the house replay, so each minute it sees that minute's trades.
// - At every 5-minute boundary T: a point from the house's open trades after the prices of the minute ending at
//   T (before that minute's signals, which live arrive just after T), and bitcoin's close of that minute.
// - At every 00:00 UTC: the item of the day that ended, from the house trades closed in it (the first day of
//   the history is partial: it holds what closed from the history's start), and bitcoin's close then.
import type { Database } from '../db';
import {
  statisticTradeDays,
  statisticTradePoints,
  type StatisticTradeDayRow,
  type StatisticTradePointRow,
} from '../db/schema-statistics';
import { insertInBulk, type ReplayConsumer } from './backfill';
import { BITCOIN_SYMBOL } from './market-feed';
import type { Candle } from './candles';
import type { HouseReplay } from './house-replay';
import { DAY_MS, STATISTIC_POINT_MS, statisticItem, statisticPoint, type StatisticTrade } from './statistics';

export class StatisticsReplay implements ReplayConsumer {
  readonly points: StatisticTradePointRow[] = [];
  readonly items: StatisticTradeDayRow[] = [];
  /** Index into house.closed of the first trade not yet counted in an item. */
  private nextClosed = 0;

  constructor(private readonly house: HouseReplay) {}

  onMinute(time: number, _steps: unknown, closes: ReadonlyMap<string, Candle>): void {
    const bitcoin = closes.get(BITCOIN_SYMBOL);
    if (!bitcoin) return;
    if (time % STATISTIC_POINT_MS === 0) {
      this.points.push(statisticPoint(time, this.house.openAfterPrices(), bitcoin.close));
    }
    if (time % DAY_MS === 0) {
      const dayStart = time - DAY_MS;
      const closed: StatisticTrade[] = [];
      const list = this.house.closed;
      // Trades close in time order; signal closes at T itself belong to the next day.
      while (this.nextClosed < list.length && (list[this.nextClosed]!.closedAt as number) < time) {
        const trade = list[this.nextClosed]!;
        if ((trade.closedAt as number) >= dayStart) {
          closed.push({
            direction: trade.terms.position.trade_direction,
            pnl: trade.state.trade_pnl_current,
            margin: trade.terms.margin,
          });
        }
        this.nextClosed += 1;
      }
      this.items.push(statisticItem(dayStart, closed, bitcoin.close));
    }
  }

  /** Stores the points and items in bulk (in the backfill's transaction). */
  async store(tx: Database): Promise<void> {
    await insertInBulk(tx, statisticTradePoints, this.points);
    await insertInBulk(tx, statisticTradeDays, this.items);
  }
}
