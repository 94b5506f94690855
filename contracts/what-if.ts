// The what-if replay (issue 42; docs/server.md "The what-if replay"): what the stored signals of a range would
// have done with a trader's settings — GET /trade_preferences/get_what_if/. The settings are the trader's saved
// ones; a query field replaces one of them (the page asks with the values being edited, before they are saved).
// Money is exact decimal text from trade-core; percents have 2 decimals.
import { z } from 'zod';
import { apiDateTime, resultOf } from './common';
import { bounded, PLATFORM_PREFERENCE_BOUNDS as P, TRADE_PREFERENCE_BOUNDS as T } from './preferences';
import { decimalString } from './trades';

/** The default range: the last 30 days. */
export const WHAT_IF_DEFAULT_DAYS = 30;
/** The longest range (the server keeps 31 days of candles). */
export const WHAT_IF_MAX_DAYS = 31;
const DAY_MS = 86_400_000;
export const WHAT_IF_RANGE_INVERTED = 'end_date must be after start_date';
export const WHAT_IF_RANGE_TOO_LONG = `The range must not be longer than ${WHAT_IF_MAX_DAYS} days`;
/** Most points of the equity curve (a curve of more closes is thinned evenly, the last close kept). */
export const WHAT_IF_CURVE_POINTS = 400;

/** A number of the query string, bounded like the preference it replaces. */
const queryValue = (bound: Parameters<typeof bounded>[0]) =>
  z.coerce.number().pipe(bounded(bound)).optional();

export const whatIfQuery = z
  .object({
    platform_uuid: z.uuid(),
    /** Default: WHAT_IF_DEFAULT_DAYS before end_date. */
    start_date: apiDateTime.optional(),
    /**
     * Default: now (the last whole minute). With start_date alone the range runs to now and is held to
     * WHAT_IF_MAX_DAYS by the route (the server's clock; the refinements below see both ends only).
     */
    end_date: apiDateTime.optional(),
    trade_margin: queryValue(P.trade_margin),
    trade_leverage: queryValue(P.trade_leverage),
    trade_stop_loss_percent: queryValue(P.trade_stop_loss_percent),
    trade_take_profit_percent: queryValue(P.trade_take_profit_percent),
    trade_treiling_stop_percent: queryValue(P.trade_treiling_stop_percent),
    minimal_accuracy: queryValue(T.minimal_accuracy),
    trade_exits_on_exchange: queryValue(T.trade_exits_on_exchange),
    trade_max_open_trades: queryValue(T.trade_max_open_trades),
    trade_daily_loss_limit: queryValue(T.trade_daily_loss_limit),
  })
  .refine(
    (query) =>
      !query.start_date || !query.end_date || Date.parse(query.end_date) > Date.parse(query.start_date),
    { message: WHAT_IF_RANGE_INVERTED, path: ['end_date'] },
  )
  .refine(
    (query) =>
      !query.start_date ||
      !query.end_date ||
      Date.parse(query.end_date) - Date.parse(query.start_date) <= WHAT_IF_MAX_DAYS * DAY_MS,
    { message: WHAT_IF_RANGE_TOO_LONG, path: ['end_date'] },
  );
export type WhatIfQuery = z.infer<typeof whatIfQuery>;

/** How the closed trades of a group came out (net of fees). */
export const whatIfTally = z.object({
  /** Trades opened. */
  trades: z.number().int(),
  /** Closed with a net PNL above 0 / below 0. */
  won: z.number().int(),
  lost: z.number().int(),
  /** won ÷ closed × 100, 2 decimals; null with no closed trade. */
  win_rate: decimalString.nullable(),
  /** Realized PNL of the closed trades, net of both fees (USDT). */
  pnl_net: decimalString,
});
export type WhatIfTally = z.infer<typeof whatIfTally>;

export const whatIfResult = z
  .object({
    start_date: z.string(),
    end_date: z.string(),
    /** The settings replayed (saved values, query fields applied) and the fee rate. */
    settings: z.object({
      trade_margin: z.number(),
      trade_leverage: z.number().int(),
      trade_stop_loss_percent: z.number(),
      trade_take_profit_percent: z.number(),
      trade_treiling_stop_percent: z.number(),
      minimal_accuracy: z.number(),
      trade_exits_on_exchange: z.union([z.literal(0), z.literal(1)]),
      trade_max_open_trades: z.number().int(),
      trade_daily_loss_limit: z.number(),
      /** Taker rate of both fills: the trader's last charged rate on the platform, else Binance's base rate. */
      taker_rate: decimalString,
    }),
    total: whatIfTally.extend({
      /** Trades still open at the end (not in the PNL). */
      open: z.number().int(),
      closed: z.number().int(),
      /** Closed trades by closing status. */
      by_status: z.object({
        take_profit: z.number().int(),
        stop_loss: z.number().int(),
        treiling_stop: z.number().int(),
        reverse_signal: z.number().int(),
      }),
      /** Realized PNL before fees, and the fees of the closed trades (USDT). */
      pnl_gross: decimalString,
      fees: decimalString,
      /** pnl_net ÷ the closed trades' margins × 100, 2 decimals; null with no closed trade. */
      roe_net: decimalString.nullable(),
      /** The largest fall of the net realized PNL from a high, in close order (USDT, ≥ 0). */
      max_drawdown: decimalString,
      /** The most closed trades in a row with a net loss. */
      longest_losing_run: z.number().int(),
      /** Trades opened per day of the range, 2 decimals. */
      trades_per_day: decimalString,
    }),
    /** Signals that reached the minimal accuracy but opened nothing, by reason. */
    skipped: z.object({
      symbol_busy: z.number().int(),
      exchange_minimum: z.number().int(),
      max_open_trades: z.number().int(),
      daily_loss_limit: z.number().int(),
    }),
    by_neuron: z.array(whatIfTally.extend({ neuron_uuid: z.uuid(), neuron_tag_name: z.string() })),
    by_symbol: z.array(whatIfTally.extend({ symbol_uuid: z.uuid(), symbol_name: z.string() })),
    /** The net realized PNL after each close (thinned to WHAT_IF_CURVE_POINTS), ms since the epoch. */
    equity: z.array(z.object({ time: z.number(), pnl_net: decimalString })),
    /** What the replay read: 1-minute candles and signals of the range. */
    data: z.object({ candles: z.number().int(), signals: z.number().int() }),
  })
  .meta({ id: 'WhatIfResult' });
export type WhatIfResult = z.infer<typeof whatIfResult>;
export const whatIfAnswer = resultOf(whatIfResult);
