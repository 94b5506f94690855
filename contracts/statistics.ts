// Public statistics (SPEC.md §2 Dashboard, §3 "Statistic trade point", "Statistic item", §7
// /public/get_statistic_trade_by_day/ and /public/get_statistic_trade_by_month/). They are the track record of
// the house paper account, which follows every signal with the default preferences (docs/server.md
// "Statistics"). ROE values are percents with 2 decimals computed with trade-core: the ROE of one side (buy or
// sell) is that side's total PNL ÷ its total initial margin × 100, 0 when the side has no trade.
import { z } from 'zod';
import { resultOf } from './common';

const count = z.number().int().min(0);

/** One point every 5 minutes: the house's open trades at that moment and the bitcoin price. */
export const statisticTradePoint = z
  .object({
    /** The 5-minute boundary the point was taken at (ISO-8601). */
    statistic_time: z.string(),
    trade_open_count_buy: count,
    trade_open_count_sell: count,
    /** Unrealized ROE of the open BUY trades, percent. */
    trade_open_roe_buy: z.number(),
    trade_open_roe_sell: z.number(),
    /** Bitcoin price (USD) at that moment. */
    current_price: z.number().positive(),
  })
  .meta({ id: 'StatisticTradePoint' });
export type StatisticTradePoint = z.infer<typeof statisticTradePoint>;

/** GET /public/get_statistic_trade_by_day/: the points of the last 24 hours, oldest first (at most 288). */
export const statisticTradeByDayAnswer = resultOf(
  z.object({ statistic_trade_by_day_list: z.array(statisticTradePoint) }),
);

/** One item per UTC day: the house's trades closed that day and the bitcoin price at the day's end. */
export const statisticTradeItem = z
  .object({
    /** The UTC day, YYYY-MM-DD. */
    statistic_date: z.string(),
    trade_close_count_buy: count,
    trade_close_count_sell: count,
    /** Realized ROE of the BUY trades closed that day, percent. */
    trade_close_roe_buy: z.number(),
    trade_close_roe_sell: z.number(),
    /** Bitcoin price (USD) at the end of the day. */
    current_price: z.number().positive(),
  })
  .meta({ id: 'StatisticTradeItem' });
export type StatisticTradeItem = z.infer<typeof statisticTradeItem>;

/** GET /public/get_statistic_trade_by_month/: the items of the last 30 complete days, oldest first. */
export const statisticTradeByMonthAnswer = resultOf(
  z.object({ statistic_trade_by_month_list: z.array(statisticTradeItem) }),
);

/** The settings a house trade was opened with (as its trade row stores them). */
export const houseTradeSettings = z
  .object({
    trade_margin: z.number(),
    trade_leverage: z.number().int(),
    trade_stop_loss_percent: z.number(),
    trade_take_profit_percent: z.number(),
    trade_treiling_stop_percent: z.number(),
  })
  .meta({ id: 'HouseTradeSettings' });
export type HouseTradeSettings = z.infer<typeof houseTradeSettings>;

/**
 * GET /public/get_house_record/: on what terms the public record is made (issue 42). The house trades with the
 * new-trader defaults, so a change of the defaults changes the record from the day it is deployed; this says
 * from which day the house's trades carry today's settings and booked fees. Days are UTC, YYYY-MM-DD.
 */
export const houseRecord = z
  .object({
    /** The house's settings today (the defaults); null without a house (EXCHANGE_URL names a real exchange). */
    house_settings: houseTradeSettings
      .extend({ minimal_accuracy: z.number(), trade_exits_on_exchange: z.boolean() })
      .nullable(),
    /** The day of the first house trade opened with today's settings since the last opened with others. */
    settings_since: z.string().nullable(),
    /** The settings of the newest house trade opened with others; null when every trade had today's. */
    previous_settings: houseTradeSettings.nullable(),
    /** The day of the first house trade with a booked fee since the last without one; null: none yet. */
    fees_since: z.string().nullable(),
  })
  .meta({ id: 'HouseRecord' });
export type HouseRecord = z.infer<typeof houseRecord>;
export const houseRecordAnswer = resultOf(houseRecord);
