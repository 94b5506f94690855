// Signals and neurons (SPEC.md §2 "Signals", §3 Signal and Neuron, §7 /signal/*). The accuracy rule, the hit
// rule and the neurons are documented in docs/server.md "Market and signals".
import { z } from 'zod';
import { resultOf, trendMoment } from './common';

/** signal_direction_created (SPEC.md §3). */
export const SignalDirection = { BUY: 'BUY', SELL: 'SELL' } as const;
export type SignalDirection = (typeof SignalDirection)[keyof typeof SignalDirection];
export const signalDirection = z.enum([SignalDirection.BUY, SignalDirection.SELL]);

/** How a resolved signal ended: 'hit' when the price moved its way by the hit threshold first. */
export const SignalOutcome = { HIT: 'hit', MISS: 'miss' } as const;
export type SignalOutcome = (typeof SignalOutcome)[keyof typeof SignalOutcome];
export const signalOutcome = z.enum([SignalOutcome.HIT, SignalOutcome.MISS]);

export const neuron = z.object({ neuron_uuid: z.uuid(), neuron_tag_name: z.string() }).meta({ id: 'Neuron' });
export type Neuron = z.infer<typeof neuron>;

/** The platform chip of a signal card (SPEC.md §2 "Platform chip"). */
export const signalPlatform = z.object({
  platform_uuid: z.uuid(),
  platform_name: z.string(),
  platform_background: z.string(),
});

/** SPEC.md §3: symbol (symbol_uuid, symbol_name, symbol_price_precision); symbol_pair added for the ticker. */
export const signalSymbol = z.object({
  symbol_uuid: z.uuid(),
  symbol_name: z.string(),
  symbol_pair: z.string(),
  symbol_price_precision: z.number().int().min(0),
});

/** A signal as it reaches a trader (SPEC.md §3). signal_accuracy is a fraction 0..1, never a constant. */
export const signal = z
  .object({
    signal_uuid: z.uuid(),
    platform_uuid: z.uuid(),
    platform: signalPlatform,
    symbol: signalSymbol,
    signal_direction_created: signalDirection,
    /** Close of the 1-minute candle the signal was made on, in USDT. */
    signal_price_enter: z.number().positive(),
    /** Hits ÷ resolved over the neuron's last resolved signals on this symbol. */
    signal_accuracy: z.number().min(0).max(1),
    trend_moment: trendMoment,
    neuron: neuron.optional(),
    /** ISO-8601 time the signal was made (the candle's close). */
    signal_created_at: z.string(),
  })
  .meta({ id: 'Signal' });
export type Signal = z.infer<typeof signal>;

/** signal_by_uuid of signal_from_core (SPEC.md §3 store name), keyed by signal_uuid. */
export const signalByUuid = z.record(z.string(), signal);
export type SignalByUuid = z.infer<typeof signalByUuid>;

/**
 * A stored signal with its outcome. signal_accuracy is null for a signal made while its neuron had too few
 * resolved signals on the symbol: such a signal only builds the track record and is never sent to traders.
 */
export const signalRecord = z
  .object({
    signal_uuid: z.uuid(),
    platform_uuid: z.uuid(),
    symbol_uuid: z.uuid(),
    neuron_uuid: z.uuid(),
    signal_direction_created: signalDirection,
    signal_price_enter: z.number().positive(),
    signal_accuracy: z.number().min(0).max(1).nullable(),
    trend_moment: trendMoment,
    signal_created_at: z.string(),
    signal_resolved_at: z.string().nullable(),
    signal_outcome: signalOutcome.nullable(),
    /** Price at resolution: the threshold price that was reached, or the close at the horizon. */
    signal_price_exit: z.number().positive().nullable(),
  })
  .meta({ id: 'SignalRecord' });
export type SignalRecord = z.infer<typeof signalRecord>;

export const signalUuidParams = z.object({ signal_uuid: z.uuid() });

/** One 1-minute candle of a chart; time is the candle's open time in ms since the epoch. */
export const candlePoint = z
  .object({
    time: z.number().int(),
    open: z.number(),
    high: z.number(),
    low: z.number(),
    close: z.number(),
  })
  .meta({ id: 'CandlePoint' });
export type CandlePoint = z.infer<typeof candlePoint>;

/** GET /signal/get_signal_trend_by_uuid/{signal_uuid}/: the price around a signal ('Signal Trend Data'). */
export const signalTrendData = z
  .object({
    signal: signalRecord,
    symbol_pair: z.string(),
    neuron: neuron,
    /** The hit rule the signal is judged by: a move of hit_threshold_percent within horizon_minutes. */
    hit_threshold_percent: z.number().positive(),
    horizon_minutes: z.number().int().positive(),
    /** Entry moved by the threshold in the signal's direction (a hit) and against it (a miss). */
    price_target: z.number().positive(),
    price_stop: z.number().positive(),
    /** Candles from an hour before the signal to its resolution (or its horizon, or now), oldest first. */
    trend_data_list: z.array(candlePoint),
  })
  .meta({ id: 'SignalTrendData' });
export type SignalTrendData = z.infer<typeof signalTrendData>;
export const getSignalTrendAnswer = resultOf(signalTrendData);

/**
 * GET /signal/get_signal_history_by_uuid/{signal_uuid}/: the track record behind a signal's accuracy — the
 * neuron's last resolved signals on the same symbol and platform up to the signal's creation, newest first.
 * For a signal sent to traders, hit_count ÷ resolved_count equals its signal_accuracy.
 */
export const signalHistory = z
  .object({
    signal: signalRecord,
    neuron: neuron,
    resolved_count: z.number().int().min(0),
    hit_count: z.number().int().min(0),
    /** Size of the rolling window the accuracy is measured over. */
    accuracy_window: z.number().int().positive(),
    signal_history_list: z.array(signalRecord),
  })
  .meta({ id: 'SignalHistory' });
export type SignalHistory = z.infer<typeof signalHistory>;
export const getSignalHistoryAnswer = resultOf(signalHistory);

/** Query of GET /signal/get_recent_signal_list/: how many signals, newest first (1 … 100, default 20). */
export const recentSignalListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type RecentSignalListQuery = z.infer<typeof recentSignalListQuery>;

/**
 * GET /signal/get_recent_signal_list/: the newest stored signals the trader would have been sent (an accuracy
 * reaching their minimal_accuracy, on a platform they can trade) and has not traded yet, newest first, so a
 * page that (re)connects shows the cards whose 99 s countdown is still running. server_time is the server's
 * clock when it answered: a card's age is measured on it, so a browser with a wrong clock counts right.
 */
export const recentSignalList = z
  .object({ signal_list: z.array(signal), server_time: z.string() })
  .meta({ id: 'RecentSignalList' });
export type RecentSignalList = z.infer<typeof recentSignalList>;
export const getRecentSignalListAnswer = resultOf(recentSignalList);
