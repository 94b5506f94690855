// The signal feed of /trading (issue 18 item 5; not in SPEC.md, docs/decisions.md "The cockpit"): GET
// /signal/get_signal_feed/ answers the last hour's signals that the trader's filter (minimal_accuracy) passed,
// each with its outcome as the hit rule resolves it and its neuron's accuracy now, and how many signals the
// engine made in that hour and when its last one was, so the page shows the engine at work between live cards.
import { z } from 'zod';
import { resultOf } from './common';
import { signal } from './signals';

/** The feed covers the signals made in the last SIGNAL_FEED_WINDOW_MINUTES. */
export const SIGNAL_FEED_WINDOW_MINUTES = 60;

/** Query: how many signals at most, newest first (1 … 200, default 100). */
export const signalFeedQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export type SignalFeedQuery = z.infer<typeof signalFeedQuery>;

/** A feed signal's outcome: the hit rule's verdict, or open while the hit rule has not decided yet. */
export const FeedOutcome = { HIT: 'hit', MISS: 'miss', OPEN: 'open' } as const;
export type FeedOutcome = (typeof FeedOutcome)[keyof typeof FeedOutcome];
export const feedOutcome = z.enum([FeedOutcome.HIT, FeedOutcome.MISS, FeedOutcome.OPEN]);

export const signalFeedItem = z
  .object({
    /** The signal as signal_from_core carried it (signal_accuracy: its neuron's accuracy when it was made). */
    signal: signal,
    signal_outcome: feedOutcome,
    signal_resolved_at: z.string().nullable(),
    /** The price that decided it (a threshold reached, or the close at the horizon); null while open. */
    signal_price_exit: z.number().positive().nullable(),
    /**
     * The neuron's accuracy on the symbol now: hits ÷ resolved over its last resolved signals there (the
     * measure signal_accuracy is), null while it has too few of them.
     */
    neuron_accuracy: z.number().min(0).max(1).nullable(),
    /** How many resolved signals neuron_accuracy is measured over. */
    neuron_resolved_count: z.number().int().min(0),
    /** Whether the trader has a trade from this signal. */
    is_traded: z.boolean(),
  })
  .meta({ id: 'SignalFeedItem' });
export type SignalFeedItem = z.infer<typeof signalFeedItem>;

export const signalFeed = z
  .object({
    window_minutes: z.number().int().positive(),
    /** The trader's filter, percent (minimal_accuracy). */
    minimal_accuracy: z.number(),
    /** Signals the engine made in the window on the trader's platforms, whatever their accuracy. */
    engine_signal_count: z.number().int().min(0),
    /** When the engine made its newest signal (in the window or before it); null when it has made none. */
    engine_last_signal_at: z.string().nullable(),
    /** The window's signals that passed the filter, newest first. */
    signal_list: z.array(signalFeedItem),
    server_time: z.string(),
  })
  .meta({ id: 'SignalFeed' });
export type SignalFeed = z.infer<typeof signalFeed>;
export const signalFeedAnswer = resultOf(signalFeed);
