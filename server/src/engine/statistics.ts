// Public statistics (SPEC.md §2 Dashboard, §3 "Statistic trade point", "Statistic item"; contracts/statistics.ts):
// the house account's track record (docs/server.md "Statistics").
// - A point every 5 minutes: the house's open trades at that boundary, per side their count and ROE, and the
//   bitcoin price.
// - An item per UTC day, once it has ended: the house's trades closed that day (close time in [00:00, 24:00)),
//   per side their count and realized ROE, and bitcoin's close of the day's last minute.
// ROE of a side = the side's total PNL ÷ its total initial margin × 100, 2 decimals, 0 without trades (trade-core
// decimals). The live recorder (statistics-live.ts) and the backfill's replay (statistics-replay.ts) both
// compute with the functions below; this file also stores and reads the rows.
import { and, asc, desc, eq, gt, gte, isNotNull, lt, lte, ne } from 'drizzle-orm';
import {
  TradeStatus,
  type SignalDirection,
  type StatisticTradeItem,
  type StatisticTradePoint,
} from '../../../contracts';
import type { Database } from '../db';
import {
  statisticTradeDays,
  statisticTradePoints,
  type StatisticTradeDayRow,
  type StatisticTradePointRow,
} from '../db/schema-statistics';
import { trades, type TradeRow } from '../db/schema-trades';
import { roePercent, roundDecimal, sumDecimals } from '../../../shared-core/trade-core-node';
import { PERCENT_DECIMALS, positionMargin } from '../services/trade-math';

export const STATISTIC_POINT_MS = 5 * 60_000;
export const DAY_MS = 86_400_000;
/** GET /public/get_statistic_trade_by_day/ answers this much (288 points). */
const POINT_WINDOW_MS = DAY_MS;
/** GET /public/get_statistic_trade_by_month/ answers this many complete days. */
export const ITEM_WINDOW_DAYS = 30;

/** What a statistic needs of one trade: its side, its PNL (open: current; closed: realized), its margin. */
export interface StatisticTrade {
  direction: SignalDirection;
  /** USDT, exact. */
  pnl: string;
  /** Initial margin, USDT (quantity × entry ÷ leverage). */
  margin: string;
}

interface Side {
  count: number;
  roe: string;
}

/** Count and ROE of one side; ROE 0 without trades. */
export function sideOf(list: readonly StatisticTrade[], direction: SignalDirection): Side {
  const own = list.filter((trade) => trade.direction === direction);
  if (own.length === 0) return { count: 0, roe: roundDecimal(0, PERCENT_DECIMALS) };
  const pnl = sumDecimals(own.map((trade) => trade.pnl));
  const margin = sumDecimals(own.map((trade) => trade.margin));
  return { count: own.length, roe: roundDecimal(roePercent(pnl, margin), PERCENT_DECIMALS) };
}

/** The point of a 5-minute boundary `time` (ms) from the open trades then and the bitcoin price. */
export function statisticPoint(
  time: number,
  open: readonly StatisticTrade[],
  bitcoinPrice: string,
): StatisticTradePointRow {
  const buy = sideOf(open, 'BUY');
  const sell = sideOf(open, 'SELL');
  return {
    statistic_time: new Date(time),
    trade_open_count_buy: buy.count,
    trade_open_count_sell: sell.count,
    trade_open_roe_buy: buy.roe,
    trade_open_roe_sell: sell.roe,
    current_price: bitcoinPrice,
  };
}

/** The item of the UTC day starting at `dayStart` (ms) from the trades closed that day and bitcoin's close. */
export function statisticItem(
  dayStart: number,
  closed: readonly StatisticTrade[],
  bitcoinPrice: string,
): StatisticTradeDayRow {
  const buy = sideOf(closed, 'BUY');
  const sell = sideOf(closed, 'SELL');
  return {
    statistic_date: utcDate(dayStart),
    trade_close_count_buy: buy.count,
    trade_close_count_sell: sell.count,
    trade_close_roe_buy: buy.roe,
    trade_close_roe_sell: sell.roe,
    current_price: bitcoinPrice,
  };
}

/** YYYY-MM-DD of the UTC day holding `time`. */
export const utcDate = (time: number): string => new Date(time).toISOString().slice(0, 10);
/** 00:00 UTC of the day holding `time`. */
export const dayStartOf = (time: number): number => Math.floor(time / DAY_MS) * DAY_MS;

/** A stored trade as a statistic counts it (its stored PNL: realized once closed). */
export function statisticTradeOf(row: TradeRow, pnl: string = row.trade_pnl_current): StatisticTrade {
  const direction = row.trade_direction === 'SELL' ? 'SELL' : 'BUY';
  return {
    direction,
    pnl,
    margin: positionMargin({
      trade_direction: direction,
      trade_open_price: row.trade_open_price!,
      trade_quantity: row.trade_quantity!,
      trade_leverage: row.trade_leverage,
    }),
  };
}

/** A user's trades closed in [from, to) with a known position, for a day's item. */
export async function closedTradesBetween(
  db: Database,
  userUuid: string,
  from: number,
  to: number,
): Promise<TradeRow[]> {
  return db
    .select()
    .from(trades)
    .where(
      and(
        eq(trades.user_uuid, userUuid),
        ne(trades.trade_status, TradeStatus.OPEN),
        isNotNull(trades.trade_open_price),
        isNotNull(trades.trade_quantity),
        gte(trades.trade_close_timestamp, new Date(from)),
        lt(trades.trade_close_timestamp, new Date(to)),
      ),
    );
}

// ------------------------------------------------------------------------------------------------ storing

/** Rows per INSERT (6 parameters each). */
const INSERT_CHUNK_ROWS = 2000;

/** Stores points; a boundary stored before is kept as it was. */
export async function storePoints(db: Database, rows: readonly StatisticTradePointRow[]): Promise<void> {
  for (let from = 0; from < rows.length; from += INSERT_CHUNK_ROWS) {
    await db
      .insert(statisticTradePoints)
      .values(rows.slice(from, from + INSERT_CHUNK_ROWS))
      .onConflictDoNothing();
  }
}

/** Stores items; a day stored before is kept as it was. */
export async function storeItems(db: Database, rows: readonly StatisticTradeDayRow[]): Promise<void> {
  for (let from = 0; from < rows.length; from += INSERT_CHUNK_ROWS) {
    await db
      .insert(statisticTradeDays)
      .values(rows.slice(from, from + INSERT_CHUNK_ROWS))
      .onConflictDoNothing();
  }
}

/** Points older than this are deleted at each day's roll-over: the routes never answer them. */
const POINT_RETENTION_MS = ITEM_WINDOW_DAYS * DAY_MS;

export async function prunePoints(db: Database, now: number): Promise<void> {
  await db
    .delete(statisticTradePoints)
    .where(lt(statisticTradePoints.statistic_time, new Date(now - POINT_RETENTION_MS)));
}

/** The newest stored day (YYYY-MM-DD), if any. */
export async function lastStoredDay(db: Database): Promise<string | undefined> {
  const [row] = await db
    .select({ day: statisticTradeDays.statistic_date })
    .from(statisticTradeDays)
    .orderBy(desc(statisticTradeDays.statistic_date))
    .limit(1);
  return row?.day;
}

// ------------------------------------------------------------------------------------------------ reading

const toNumber = (value: string): number => Number(value);

/** The points of the last 24 hours before `now`, oldest first (SPEC.md §7 get_statistic_trade_by_day). */
export async function pointsOfLastDay(db: Database, now: number): Promise<StatisticTradePoint[]> {
  const rows = await db
    .select()
    .from(statisticTradePoints)
    .where(
      and(
        gt(statisticTradePoints.statistic_time, new Date(now - POINT_WINDOW_MS)),
        lte(statisticTradePoints.statistic_time, new Date(now)),
      ),
    )
    .orderBy(asc(statisticTradePoints.statistic_time));
  return rows.map((row) => ({
    statistic_time: row.statistic_time.toISOString(),
    trade_open_count_buy: row.trade_open_count_buy,
    trade_open_count_sell: row.trade_open_count_sell,
    trade_open_roe_buy: toNumber(row.trade_open_roe_buy),
    trade_open_roe_sell: toNumber(row.trade_open_roe_sell),
    current_price: toNumber(row.current_price),
  }));
}

/** The items of the last 30 complete UTC days before `now`, oldest first (get_statistic_trade_by_month). */
export async function itemsOfLastMonth(db: Database, now: number): Promise<StatisticTradeItem[]> {
  const today = dayStartOf(now);
  const rows = await db
    .select()
    .from(statisticTradeDays)
    .where(
      and(
        gte(statisticTradeDays.statistic_date, utcDate(today - ITEM_WINDOW_DAYS * DAY_MS)),
        lt(statisticTradeDays.statistic_date, utcDate(today)),
      ),
    )
    .orderBy(asc(statisticTradeDays.statistic_date));
  return rows.map((row) => ({
    statistic_date: row.statistic_date,
    trade_close_count_buy: row.trade_close_count_buy,
    trade_close_count_sell: row.trade_close_count_sell,
    trade_close_roe_buy: toNumber(row.trade_close_roe_buy),
    trade_close_roe_sell: toNumber(row.trade_close_roe_sell),
    current_price: toNumber(row.current_price),
  }));
}
