// Websocket events of SPEC.md §7, as { event, message } frames.
import { z } from 'zod';
import { trendMoment } from './common';
import { bitcoinPublicInformation } from './public';
import { signalByUuid } from './signals';
import { tradeCalculated } from './trades';

/**
 * Milliseconds since the epoch at which the server serialised the frame (fractional). Optional: for measuring
 * delivery latency (bench/ws-throughput), and the SPA measures a signal's age on it (signals-store.ts).
 */
const sentAt = z.number().optional();

export const bitcoinPublicInformationEvent = z.object({
  event: z.literal('bitcoin_public_information_from_core'),
  message: z.object({ bitcoin_public_information: bitcoinPublicInformation }),
});

/** Symbol price item (SPEC.md §3): the exchange's mark price as a number, and the symbol's trend. */
export const symbolPriceBase = z
  .object({
    symbol_uuid: z.uuid(),
    symbol_name: z.string(),
    symbol_pair: z.string(),
    current_price: z.number().positive(),
    trend_moment: trendMoment,
    /**
     * The exchange's time of this mark price, ms since the epoch (its event time). Optional: a chart puts the
     * price into the minute of the exchange's candles by it, whatever the browser's clock says.
     */
    price_time: z.number().int().optional(),
  })
  .meta({ id: 'SymbolPriceBase' });
export type SymbolPriceBase = z.infer<typeof symbolPriceBase>;

export const symbolPriceBaseEvent = z.object({
  event: z.literal('symbol_price_base_from_core'),
  message: z.object({
    symbol_price_base: symbolPriceBase,
    trend_moment: trendMoment,
    sent_at: sentAt,
  }),
});

/** New signals of one symbol for this trader (SPEC.md §7); trend_moment is that symbol's trend. */
export const signalEvent = z.object({
  event: z.literal('signal_from_core'),
  message: z.object({ signal_by_uuid: signalByUuid, trend_moment: trendMoment, sent_at: sentAt }),
});

/**
 * A trade's recalculated fields (SPEC.md §7), sent to its owner: in answer to
 * update_trade_by_current_price_from_client, when the trade monitor sets a UI status, and when the trade is
 * closed (trade_status no longer open).
 */
export const tradeUpdatedEvent = z.object({
  event: z.literal('trade_updated_response_from_core'),
  message: z.object({ trade_uuid: z.uuid(), trade_update_calculated: tradeCalculated }),
});

export const badEvent = z.object({
  event: z.literal('bad_event'),
  message: z.object({ detail: z.string() }),
});

/** Every event the server sends; the SPA parses frames with this union. */
export const serverEvent = z.discriminatedUnion('event', [
  bitcoinPublicInformationEvent,
  symbolPriceBaseEvent,
  signalEvent,
  tradeUpdatedEvent,
  badEvent,
]);
export type ServerEvent = z.infer<typeof serverEvent>;

/** SPEC.md §7: sent when a price arrives for a symbol with an open trade. */
export const updateTradeByCurrentPriceEvent = z.object({
  event: z.literal('update_trade_by_current_price_from_client'),
  message: z.object({ trade_uuid: z.uuid() }),
});

/** Every event a client may send; anything else is answered with bad_event. */
export const clientEvent = z.discriminatedUnion('event', [updateTradeByCurrentPriceEvent]);
export type ClientEvent = z.infer<typeof clientEvent>;
