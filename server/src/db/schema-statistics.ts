// Drizzle schema of the public statistics (SPEC.md §3 "Statistic trade point", "Statistic item";
// contracts/statistics.ts): the house account's track record (docs/server.md "Statistics"). One point per
// 5-minute boundary and one item per UTC day; both keyed by their moment, so a second writer of the same
// moment (a replay stored twice, another instance) changes nothing. ROE and prices are `numeric` (exact).
import { date, integer, numeric, pgTable, timestamp } from 'drizzle-orm/pg-core';

/** The house's open trades at a 5-minute boundary, and the bitcoin price then. */
export const statisticTradePoints = pgTable('statistic_trade_points', {
  /** The 5-minute boundary (UTC) the point was taken at. */
  statistic_time: timestamp('statistic_time', { withTimezone: true }).primaryKey(),
  trade_open_count_buy: integer('trade_open_count_buy').notNull(),
  trade_open_count_sell: integer('trade_open_count_sell').notNull(),
  /** Percent, 2 decimals: the side's unrealized PNL ÷ its initial margin × 100. */
  trade_open_roe_buy: numeric('trade_open_roe_buy').notNull(),
  trade_open_roe_sell: numeric('trade_open_roe_sell').notNull(),
  /** Bitcoin price (USDT) at the boundary. */
  current_price: numeric('current_price').notNull(),
});

/** The house's trades closed during one UTC day, and the bitcoin price at the day's end. */
export const statisticTradeDays = pgTable('statistic_trade_days', {
  /** The UTC day, YYYY-MM-DD. */
  statistic_date: date('statistic_date', { mode: 'string' }).primaryKey(),
  trade_close_count_buy: integer('trade_close_count_buy').notNull(),
  trade_close_count_sell: integer('trade_close_count_sell').notNull(),
  /** Percent, 2 decimals: the side's realized PNL ÷ its initial margin × 100. */
  trade_close_roe_buy: numeric('trade_close_roe_buy').notNull(),
  trade_close_roe_sell: numeric('trade_close_roe_sell').notNull(),
  /** Bitcoin price (USDT) at the close of the day's last minute. */
  current_price: numeric('current_price').notNull(),
});

export type StatisticTradePointRow = typeof statisticTradePoints.$inferInsert;
export type StatisticTradeDayRow = typeof statisticTradeDays.$inferInsert;
