// Platform preferences and global trade preferences (SPEC.md §3, §5 tables, §7 /platform_preferences/* and
// /trade_preferences/*). The bounds are exported so the SPA's steppers and the server use one table.
import { z } from 'zod';
import { resultOf } from './common';

export interface PreferenceBound {
  min: number;
  max: number;
  step: number;
  /** Decimals shown by the stepper (SPEC.md §5). */
  decimals: number;
}

/** Binance's highest leverage; the real cap is the platform's trade_leverage_max, checked by the server. */
export const TRADE_LEVERAGE_LIMIT = 125;

/** SPEC.md §5 "Platform preference" table. trade_leverage.max is replaced by the platform's maximum. */
export const PLATFORM_PREFERENCE_BOUNDS = {
  trade_margin: { min: 1.5, max: 1000, step: 0.25, decimals: 2 },
  trade_leverage: { min: 1, max: TRADE_LEVERAGE_LIMIT, step: 1, decimals: 0 },
  trade_stop_loss_percent: { min: 5, max: 100, step: 0.5, decimals: 1 },
  trade_take_profit_percent: { min: 2, max: 100, step: 0.5, decimals: 1 },
  trade_treiling_stop_percent: { min: 2, max: 100, step: 0.5, decimals: 1 },
} as const satisfies Record<string, PreferenceBound>;

/**
 * SPEC.md §5 "Global preference" table; a delay of 0 means OFF. The risk limits (issue 18, not in SPEC.md;
 * docs/decisions.md "The cockpit") are 0 for OFF too: at most trade_max_open_trades open trades, and no new
 * trade once the day's realized loss (UTC day, USDT) reaches trade_daily_loss_limit.
 */
export const TRADE_PREFERENCE_BOUNDS = {
  trade_auto_open_delay: { min: 0, max: 60, step: 1, decimals: 0 },
  trade_auto_close_delay: { min: 0, max: 60, step: 1, decimals: 0 },
  minimal_accuracy: { min: 60, max: 100, step: 0.1, decimals: 2 },
  trade_in_server_side: { min: 0, max: 1, step: 1, decimals: 0 },
  trade_max_open_trades: { min: 0, max: 50, step: 1, decimals: 0 },
  trade_daily_loss_limit: { min: 0, max: 5000, step: 5, decimals: 0 },
  /** Issue 35: 1 the exchange holds the take profit and the trailing stop, 0 Signaldesk's monitor does. */
  trade_exits_on_exchange: { min: 0, max: 1, step: 1, decimals: 0 },
  /** Issue 37: 1 the server follows client-mode accounts while the trader is away, 0 it does not. */
  trade_follow_when_away: { min: 0, max: 1, step: 1, decimals: 0 },
  /** Issue 54: 1 the server may sign protective orders of server-mode trades while the trader is away. */
  trade_server_acts_when_away: { min: 0, max: 1, step: 1, decimals: 0 },
  /** Issue 39: 1 Close (×) closes at once, 0 (default) it asks first. */
  trade_one_click_close: { min: 0, max: 1, step: 1, decimals: 0 },
  /** Issue 41: the news sent to the trader's subscribed devices (Web Push), 1 on by default, each kind apart. */
  push_signals: { min: 0, max: 1, step: 1, decimals: 0 },
  push_trade_opened: { min: 0, max: 1, step: 1, decimals: 0 },
  push_trade_closed: { min: 0, max: 1, step: 1, decimals: 0 },
  push_unprotected: { min: 0, max: 1, step: 1, decimals: 0 },
  push_refusals: { min: 0, max: 1, step: 1, decimals: 0 },
} as const satisfies Record<string, PreferenceBound>;

/** The global preferences that are risk limits (0 = OFF). */
export const RISK_LIMIT_FIELDS = ['trade_max_open_trades', 'trade_daily_loss_limit'] as const;

/** trade_in_server_side values (SPEC.md §3). */
export const TradeSide = { CLIENT: 0, SERVER: 1 } as const;
export type TradeSide = (typeof TradeSide)[keyof typeof TradeSide];

/** Tolerance for binary floating point: 60.300000000000004 is accepted as 60.3 (a stepper's sum). */
const STEP_TOLERANCE = 1e-9;

export function isOnStep(value: number, bound: PreferenceBound): boolean {
  const steps = (value - bound.min) / bound.step;
  return Math.abs(steps - Math.round(steps)) < STEP_TOLERANCE;
}

/** The value snapped to its step, so stored values carry no floating point noise. */
export function snapToStep(value: number, bound: PreferenceBound): number {
  const snapped = bound.min + Math.round((value - bound.min) / bound.step) * bound.step;
  return Number(snapped.toFixed(Math.max(bound.decimals, 2)));
}

/** A preference value within its bound and on its step (the stepper's and the server's one rule). */
export function bounded(bound: PreferenceBound) {
  const base = Number.isInteger(bound.step) ? z.number().int('Must be a whole number') : z.number();
  return base
    .min(bound.min, `Must be at least ${bound.min}`)
    .max(bound.max, `Must be at most ${bound.max}`)
    .refine((value) => isOnStep(value, bound), `Must be a multiple of ${bound.step}`)
    .meta({ description: `From ${bound.min} to ${bound.max} in steps of ${bound.step}` });
}

const P = PLATFORM_PREFERENCE_BOUNDS;
const T = TRADE_PREFERENCE_BOUNDS;

export const platformPreferences = z
  .object({
    trade_margin: bounded(P.trade_margin),
    trade_leverage: bounded(P.trade_leverage),
    trade_stop_loss_percent: bounded(P.trade_stop_loss_percent),
    trade_take_profit_percent: bounded(P.trade_take_profit_percent),
    trade_treiling_stop_percent: bounded(P.trade_treiling_stop_percent),
  })
  .meta({ id: 'PlatformPreferences' });
export type PlatformPreferences = z.infer<typeof platformPreferences>;

export const setPlatformPreferencesBody = platformPreferences
  .extend({ platform_uuid: z.uuid() })
  .meta({ id: 'SetPlatformPreferencesBody' });
export type SetPlatformPreferencesBody = z.infer<typeof setPlatformPreferencesBody>;

export const platformPreferencesParams = z.object({ platform_uuid: z.uuid() });
export const platformPreferencesAnswer = resultOf(platformPreferences);

export const tradePreferences = z
  .object({
    trade_auto_open_delay: bounded(T.trade_auto_open_delay),
    trade_auto_close_delay: bounded(T.trade_auto_close_delay),
    minimal_accuracy: bounded(T.minimal_accuracy),
    trade_in_server_side: z.union([z.literal(TradeSide.CLIENT), z.literal(TradeSide.SERVER)]),
    /** At most this many open trades (both modes); 0 is OFF. */
    trade_max_open_trades: bounded(T.trade_max_open_trades),
    /** USDT: no new trade once today's (UTC) realized loss reaches it; 0 is OFF. */
    trade_daily_loss_limit: bounded(T.trade_daily_loss_limit),
    /**
     * Issue 35, 1 by default: the exchange holds each trade's take profit and trailing stop (algo orders placed
     * after the fill), so they close the position with no page open and no PIN given; 0 leaves them to
     * Signaldesk's monitor and the page's countdown (trade_auto_close_delay), as before.
     */
    trade_exits_on_exchange: z.union([z.literal(0), z.literal(1)]),
    /**
     * Issue 37, client mode: 1 (default) the server follows the account of each open trade on the exchange's user
     * data stream while no page is open — with the API key only, it can read the account's events and never place
     * an order — so a close by the exchange is recorded at once; 0 it does not, and such a close is recorded when
     * the trader is back. Server mode is followed always. Optional on the wire for producers from before it; the
     * server always sends it.
     */
    trade_follow_when_away: z.union([z.literal(0), z.literal(1)]).optional(),
    /**
     * Issue 54, server mode: 0 (default) the server can sign nothing without the PIN; 1 it keeps a second seal of
     * each server-mode token (made at the next call with the PIN) and may sign protective orders with it while the
     * trader is away — cancel the exits and stops of a trade it knows, place a reduce-only stop or exit of one —
     * never an opening order, a close, or a change of leverage or margin. Switched off, the seals are deleted.
     * Optional on the wire for producers from before it; the server always sends it.
     */
    trade_server_acts_when_away: z.union([z.literal(0), z.literal(1)]).optional(),
    /**
     * Issue 39: 0 (default) Close (×) on an open trade asks first; 1 "one-click close" closes at once. Optional on
     * the wire for producers from before it; the server always sends it.
     */
    trade_one_click_close: z.union([z.literal(0), z.literal(1)]).optional(),
    /**
     * Issue 41, what the trader's subscribed devices are told (Web Push; contracts/push.ts), each 1 (default) on:
     * new signals that pass minimal_accuracy, a trade opened, a trade closed (its exit and net PNL), a position
     * left without its stop, and the exchange refusing the trader's key or order. Optional on the wire for
     * producers from before them; the server always sends them.
     */
    push_signals: z.union([z.literal(0), z.literal(1)]).optional(),
    push_trade_opened: z.union([z.literal(0), z.literal(1)]).optional(),
    push_trade_closed: z.union([z.literal(0), z.literal(1)]).optional(),
    push_unprotected: z.union([z.literal(0), z.literal(1)]).optional(),
    push_refusals: z.union([z.literal(0), z.literal(1)]).optional(),
  })
  .meta({ id: 'TradePreferences' });
export type TradePreferences = z.infer<typeof tradePreferences>;
/**
 * POST /trade_preferences/set_preferences/: SPEC.md §7's four fields, and the risk limits and the exits'
 * holder, which a save that leaves them out keeps as they are (a client that knows only the four fields never
 * turns a limit or the exchange's exits off).
 */
export const setTradePreferencesBody = tradePreferences
  .partial({
    trade_max_open_trades: true,
    trade_daily_loss_limit: true,
    trade_exits_on_exchange: true,
    trade_follow_when_away: true,
    trade_server_acts_when_away: true,
    trade_one_click_close: true,
  })
  .meta({ id: 'SetTradePreferencesBody' });
export type SetTradePreferencesBody = z.infer<typeof setTradePreferencesBody>;
export const tradePreferencesAnswer = resultOf(tradePreferences);
