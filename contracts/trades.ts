// Trades (SPEC.md §3 Trade, Trade creation payload, Trade history state; §4 "Trade status and UI status",
// "Closing a trade", "Opening a trade"; §7 /trade/*, /trade_client/*, /trade_server/*). Money fields are exact
// decimal strings ("97012.40", "0.002"): they come from trade-core's decimal math or from the exchange and are
// never binary floating point. The rules (trailing stop, UI statuses, error trades) are documented in
// docs/server.md "Trading".
import { z } from 'zod';
import { apiDateTime, resultOf } from './common';
import { PLATFORM_PREFERENCE_BOUNDS, isOnStep, type PreferenceBound } from './preferences';
import { candlePoint, signalDirection } from './signals';

/** An exact decimal string as exchanges write them: optional minus, digits, optional fraction. */
export const decimalString = z
  .string()
  .regex(/^-?\d{1,20}(\.\d{1,18})?$/, 'Must be a decimal number such as 12.5')
  .meta({ id: 'DecimalString' });
const positiveDecimal = decimalString.refine((value) => /[1-9]/.test(value) && !value.startsWith('-'), {
  message: 'Must be above 0',
});
/** A decimal string of 0 or more (a commission: a cost). */
export const nonNegativeDecimal = decimalString.refine((value) => !value.startsWith('-'), {
  message: 'Must not be below 0',
});
/**
 * What a trade record may carry (issue 52): trade-core's decimals hold 28 significant digits, and a price or a
 * quantity below 10¹² with at most 28 digits keeps every product the row meets (quantity × price, margin, PNL,
 * fees) inside them. Binance's largest prices and quantities are far below (binance-fapi.md §6 filters).
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 12;
const MAX_AMOUNT_DIGITS = 28;
function amountFits(value: string): boolean {
  const [whole = '', fraction = ''] = value.replace('-', '').split('.');
  const significant = `${whole}${fraction}`.replace(/^0+/, '');
  return (
    whole.replace(/^0+/, '').length <= MAX_AMOUNT_INTEGER_DIGITS && significant.length <= MAX_AMOUNT_DIGITS
  );
}
const AMOUNT_MESSAGE = `Must be below 1${'0'.repeat(MAX_AMOUNT_INTEGER_DIGITS)} with at most ${MAX_AMOUNT_DIGITS} digits`;
/** A price or quantity a trade record brings in: above 0 and within trade-core's range. */
const tradeAmount = positiveDecimal.refine(amountFits, { message: AMOUNT_MESSAGE });
/** A commission a trade record brings in: 0 or more and within trade-core's range. */
const tradeCost = nonNegativeDecimal.refine(amountFits, { message: AMOUNT_MESSAGE });
/** A maintenance margin rate of a leverage bracket: a fraction, 0 ≤ rate < 1 (0.004 = 0.4 %). */
const maintMarginRate = nonNegativeDecimal.refine((value) => /^0(\.\d+)?$/.test(value), {
  message: 'Must be below 1',
});

/** trade_status (SPEC.md §4): open, then one closing status. */
export const TradeStatus = {
  OPEN: 'open',
  TAKE_PROFIT: 'take_profit',
  STOP_LOSS: 'stop_loss',
  TREILING_STOP: 'treiling_stop',
  DIRECTION_SIGNAL: 'direction_signal',
  REVERSE_SIGNAL: 'reverse_signal',
  MANUAL_CLOSE: 'manual_close',
} as const;
export type TradeStatus = (typeof TradeStatus)[keyof typeof TradeStatus];
export const tradeStatus = z.enum([
  TradeStatus.OPEN,
  TradeStatus.TAKE_PROFIT,
  TradeStatus.STOP_LOSS,
  TradeStatus.TREILING_STOP,
  TradeStatus.DIRECTION_SIGNAL,
  TradeStatus.REVERSE_SIGNAL,
  TradeStatus.MANUAL_CLOSE,
]);
/** Every status but open: the ones a close call may carry. */
export const closingTradeStatus = tradeStatus.exclude([TradeStatus.OPEN]);
export type ClosingTradeStatus = z.infer<typeof closingTradeStatus>;

/** trade_ui_status (SPEC.md §4): a temporary status shown as a pulsing button on an open trade. */
export const TradeUiStatus = {
  TAKE_PROFIT: 'TAKE_PROFIT',
  STOP_LOSS: 'STOP_LOSS',
  TREILING_STOP: 'TREILING_STOP',
  DIRECTION_SIGNAL: 'DIRECTION_SIGNAL',
  REVERSE_SIGNAL: 'REVERSE_SIGNAL',
} as const;
export type TradeUiStatus = (typeof TradeUiStatus)[keyof typeof TradeUiStatus];
export const tradeUiStatus = z.enum([
  TradeUiStatus.TAKE_PROFIT,
  TradeUiStatus.STOP_LOSS,
  TradeUiStatus.TREILING_STOP,
  TradeUiStatus.DIRECTION_SIGNAL,
  TradeUiStatus.REVERSE_SIGNAL,
]);

/** The closing status a UI status leads to when its countdown reaches zero (SPEC.md §4). */
export const CLOSING_STATUS_OF_UI_STATUS = {
  TAKE_PROFIT: TradeStatus.TAKE_PROFIT,
  STOP_LOSS: TradeStatus.STOP_LOSS,
  TREILING_STOP: TradeStatus.TREILING_STOP,
  DIRECTION_SIGNAL: TradeStatus.DIRECTION_SIGNAL,
  REVERSE_SIGNAL: TradeStatus.REVERSE_SIGNAL,
} as const satisfies Record<TradeUiStatus, ClosingTradeStatus>;

/**
 * Why a trade needs repair (DELETE /trade/delete_trade_errors/), null when it is sound:
 * - open_incomplete: the open stopped half-way (the process died or the exchange did not confirm the order);
 * - stop_missing: the position is open without its exchange-side stop loss (placing it and closing the
 *   position both failed, or completing an interrupted open could not place it);
 * - position_missing: the exchange has no position for this open trade any more (closed outside Signaldesk).
 */
export const TradeError = {
  OPEN_INCOMPLETE: 'open_incomplete',
  STOP_MISSING: 'stop_missing',
  POSITION_MISSING: 'position_missing',
  /** Its stored numbers are beyond trade-core's decimals (issue 52): the monitor leaves it out. */
  UNPRICEABLE: 'unpriceable',
} as const;
export type TradeError = (typeof TradeError)[keyof typeof TradeError];
export const tradeError = z.enum([
  TradeError.OPEN_INCOMPLETE,
  TradeError.STOP_MISSING,
  TradeError.POSITION_MISSING,
  TradeError.UNPRICEABLE,
]);

/**
 * Who holds one exit of a trade (issue 35): the exchange, as an algo order (TAKE_PROFIT_MARKET at its trigger
 * price, TRAILING_STOP_MARKET from its activation price), or Signaldesk's trade monitor, with the reason the
 * exchange could not hold it (a callback rate outside 0.1–10 %, a refusal). An exit held by Signaldesk closes
 * only while the page is open (client mode) or by the page's countdown (both modes).
 */
/** Why the exchange closed a position outside Signaldesk (issue 37; Trade.trade_close_cause). */
export const tradeCloseCause = z.enum(['by_hand', 'liquidation', 'adl']);
export type TradeCloseCause = z.infer<typeof tradeCloseCause>;

export const exitHold = z.discriminatedUnion('held_by', [
  z.object({ held_by: z.literal('exchange'), price: decimalString }),
  z.object({ held_by: z.literal('signaldesk'), reason: z.string().min(1).max(500) }),
]);
export type ExitHold = z.infer<typeof exitHold>;
export const tradeExits = z.object({ take_profit: exitHold, trailing: exitHold }).meta({ id: 'TradeExits' });
export type TradeExits = z.infer<typeof tradeExits>;

/** The exchange holds at least one of a trade's exits: its close and its check look them up and cancel them. */
export function exitsHeldByExchange(exits: TradeExits | null | undefined): boolean {
  return exits?.take_profit.held_by === 'exchange' || exits?.trailing.held_by === 'exchange';
}

/** The exchange holds the trade's stop backstop (issue 54): its close and its check look it up and cancel it. */
export function backstopHeldByExchange(backstop: ExitHold | null | undefined): boolean {
  return backstop?.held_by === 'exchange';
}

/** The symbol of a trade (SPEC.md §3), with the quantity precision the close order needs. */
export const tradeSymbol = z.object({
  symbol_uuid: z.uuid(),
  symbol_name: z.string(),
  symbol_pair: z.string(),
  symbol_price_precision: z.number().int().min(0),
  symbol_quantity_precision: z.number().int().min(0),
});

/** Direction of the last price change of a trade: 1 up, -1 down, 0 unchanged (the price-direction indicator). */
export const priceDirection = z.union([z.literal(-1), z.literal(0), z.literal(1)]);

/** The fields the trade monitor recalculates on every price (trade_update_calculated, SPEC.md §4, §7). */
export const tradeCalculated = z
  .object({
    trade_current_price: positiveDecimal,
    trade_last_update_price: priceDirection,
    /** Unrealized PNL in USDT (realized once closed), trade-core's unrealizedPnl. */
    trade_pnl_current: decimalString,
    /** Return on margin in percent, 2 decimals. */
    trade_roe_current: decimalString,
    /**
     * The trailing-stop level as a return on margin in percent: −trade_stop_loss_percent at the open; once the
     * best ROE has reached trade_treiling_stop_percent it is (best ROE − trade_treiling_stop_percent), never
     * lowered. SPEC.md §3 possible_loss is trade_margin × this × 0.01.
     */
    trade_treiling_stop_percent_current: decimalString,
    trade_status: tradeStatus,
    trade_ui_status: tradeUiStatus.nullable(),
    trade_update_timestamp: z.string(),
    // The trader's cockpit (issue 18): what a trade costs and where it ends; exact decimals from trade-core, USDT
    // unless said. Null where the figure cannot be known: a trade recorded before issue 18, an exchange that did
    // not answer the read after the MARKET order, a commission paid in another asset (BNB). Optional on the wire
    // so a producer or fixture made before issue 18 stays valid; the server always sends them.
    /**
     * Isolated liquidation price (binance-fapi.md §12) of the trade's own position at the symbol's price
     * precision: its isolated wallet (quantity × entry ÷ leverage), its maintenance bracket; "0" when it has none.
     */
    trade_liquidation_price: decimalString.nullable().optional(),
    /** Commission the exchange charged on the opening fill, as it reported it (a cost, ≥ 0). */
    trade_open_commission: nonNegativeDecimal.nullable().optional(),
    /**
     * Commission of the closing fill: while open, estimated at the current price with the opening fill's taker
     * rate (rate × quantity × price, 8 decimals); once closed, as the exchange charged it.
     */
    trade_close_commission: nonNegativeDecimal.nullable().optional(),
    /** trade_pnl_current − trade_open_commission − trade_close_commission (realized net once closed). */
    trade_pnl_net: decimalString.nullable().optional(),
    /** trade_pnl_net ÷ the position's initial margin × 100, percent, 2 decimals. */
    trade_roe_net: decimalString.nullable().optional(),
    /** Take-profit price: where the ROE reaches trade_take_profit_percent. */
    trade_take_profit_price: decimalString.optional(),
    /** Current trailing-stop price: where the ROE falls to trade_treiling_stop_percent_current. */
    trade_treiling_stop_price: decimalString.optional(),
  })
  .meta({ id: 'TradeCalculated' });
export type TradeCalculated = z.infer<typeof tradeCalculated>;

/** A trade (SPEC.md §3) with the settings it was opened with. Times are ISO-8601. */
export const trade = tradeCalculated
  .extend({
    trade_uuid: z.uuid(),
    platform_uuid: z.uuid(),
    signal_uuid: z.uuid(),
    symbol: tradeSymbol,
    trade_direction: signalDirection,
    /** 0 client mode, 1 server mode: where the trade was opened, and so how it is closed. */
    trade_in_server_side: z.union([z.literal(0), z.literal(1)]),
    trade_open_price: positiveDecimal,
    trade_close_price: positiveDecimal.nullable(),
    trade_margin: positiveDecimal,
    trade_quantity: positiveDecimal,
    trade_leverage: z.number().int().min(1),
    trade_stop_loss_percent: z.number(),
    trade_take_profit_percent: z.number(),
    trade_treiling_stop_percent: z.number(),
    /** The exchange-side stop price (SPEC.md §5), at the symbol's price precision. */
    trade_stop_price: positiveDecimal,
    /** newClientOrderId of the market order that opened the position. */
    trade_order_id: z.string().nullable(),
    /** Client id of the stop-loss order (newClientOrderId, or clientAlgoId on the Algo Order API). */
    trade_stop_order_id: z.string().nullable(),
    trade_error: tradeError.nullable(),
    /**
     * Where the take profit and the trailing stop are held (issue 35); null when Signaldesk's monitor holds both
     * (the preference trade_exits_on_exchange off, or a trade from before it). Optional on the wire so a producer
     * or fixture from before issue 35 stays valid; the server always sends it.
     */
    trade_exits: tradeExits.nullable().optional(),
    /**
     * The stop's market backstop (issue 54): a reduce-only STOP_MARKET one tick beyond the stop-limit's limit,
     * held by the exchange (at its trigger price) so a gap through the limit still closes the position; or why
     * the exchange did not take it. Null for a trade from before it, or one whose stop is missing.
     */
    trade_backstop: exitHold.nullable().optional(),
    /**
     * Why a manual_close happened when the exchange closed the position outside Signaldesk, as its user data
     * stream told (issue 37): by hand on the exchange, liquidation, or auto-deleveraging. Null otherwise.
     */
    trade_close_cause: tradeCloseCause.nullable().optional(),
    /**
     * Issue 54: how many orders of this closed trade are still on the exchange (its stop, backstop or exits that
     * its close left and no key has cancelled yet: client mode with no page, server mode without the unattended
     * option); 0 when none. Optional on the wire for producers from before it; the server always sends it.
     */
    trade_orders_left: z.number().int().min(0).optional(),
    trade_create_timestamp: z.string(),
    trade_close_timestamp: z.string().nullable(),
  })
  .meta({ id: 'Trade' });
export type Trade = z.infer<typeof trade>;

function bounded(bound: PreferenceBound) {
  const base = bound.step === 1 ? z.number().int('Must be a whole number') : z.number();
  return base
    .min(bound.min, `Must be at least ${bound.min}`)
    .max(bound.max, `Must be at most ${bound.max}`)
    .refine((value) => isOnStep(value, bound), `Must be a multiple of ${bound.step}`);
}
const P = PLATFORM_PREFERENCE_BOUNDS;

/** Trade creation payload shared by both modes (SPEC.md §3). */
export const tradeCreateBase = z.object({
  signal_uuid: z.uuid(),
  trade_margin: bounded(P.trade_margin),
  trade_leverage: bounded(P.trade_leverage),
  trade_stop_loss_percent: bounded(P.trade_stop_loss_percent),
  trade_take_profit_percent: bounded(P.trade_take_profit_percent),
  trade_treiling_stop_percent: bounded(P.trade_treiling_stop_percent),
});

/** POST /trade_client/create_trade/: the SPA opened the position itself and records it. */
export const createClientTradeBody = tradeCreateBase
  .extend({
    trade_quantity: tradeAmount,
    trade_open_price: tradeAmount,
    trade_order_id: z.string().min(1).max(64),
    /** Null when the stop could not be placed and the position could not be closed either (stop_missing). */
    trade_stop_order_id: z.string().min(1).max(64).nullable(),
    trade_stop_price: tradeAmount,
    // Read after the MARKET order (issue 18), null when the exchange did not tell. Optional: a page loaded
    // before issue 18 records the positions it opens without them, and must not be refused.
    /** Commission of the opening fill as the exchange reported it (GET /fapi/v1/userTrades). */
    trade_open_commission: tradeCost.nullable().optional(),
    /** Maintenance margin rate of the symbol's leverage bracket for the position's notional (a fraction). */
    trade_maint_margin_rate: maintMarginRate.nullable().optional(),
    /** That bracket's maintenance amount (`cum`, USDT). */
    trade_maint_amount: tradeCost.nullable().optional(),
    /**
     * Where the page placed the take profit and the trailing stop (issue 35); null or absent: Signaldesk's
     * monitor holds both (the preference off, or a page from before issue 35).
     */
    trade_exits: tradeExits.nullable().optional(),
    /** The stop's market backstop as the page placed it (issue 54; Trade.trade_backstop). */
    trade_backstop: exitHold.nullable().optional(),
  })
  .meta({ id: 'CreateClientTradeBody' });
export type CreateClientTradeBody = z.infer<typeof createClientTradeBody>;

const pinCode = z.string().length(5, 'PIN code must have 5 characters');

/** POST /trade_server/create_trade/: the server opens the position with the token opened by pin_code. */
export const createServerTradeBody = tradeCreateBase
  .extend({ pin_code: pinCode })
  .meta({ id: 'CreateServerTradeBody' });
export type CreateServerTradeBody = z.infer<typeof createServerTradeBody>;

export const tradeAnswer = resultOf(trade);

/** POST /trade_client/close_trade/: the SPA closed the position and reports it. */
export const closeClientTradeBody = z
  .object({
    trade_uuid: z.uuid(),
    trade_status: closingTradeStatus,
    /** Average fill price of the closing order (or of the stop that fired); the current price when absent. */
    trade_close_price: tradeAmount.optional(),
    /**
     * Commission of that fill as the exchange reported it (issue 18); when absent, the opening fill's taker
     * rate × quantity × the close price.
     */
    trade_close_commission: tradeCost.optional(),
  })
  .meta({ id: 'CloseClientTradeBody' });
export type CloseClientTradeBody = z.infer<typeof closeClientTradeBody>;

/**
 * POST /trade_client/set_trade_stop/ (not in SPEC.md §7): the SPA placed the missing stop of a client-mode trade
 * (Repair of a stop_missing trade, docs/server.md "Faults") and records it.
 */
export const setClientTradeStopBody = z
  .object({
    trade_uuid: z.uuid(),
    trade_stop_order_id: z.string().min(1).max(64),
    trade_stop_price: tradeAmount,
    /** The stop's market backstop the page placed beside it (issue 54; Trade.trade_backstop). */
    trade_backstop: exitHold.nullable().optional(),
  })
  .meta({ id: 'SetClientTradeStopBody' });
export type SetClientTradeStopBody = z.infer<typeof setClientTradeStopBody>;

/** POST /trade_server/close_trade/: the server closes the position with the token opened by pin_code. */
export const closeServerTradeBody = z
  .object({ trade_uuid: z.uuid(), trade_status: closingTradeStatus, pin_code: pinCode })
  .meta({ id: 'CloseServerTradeBody' });
export type CloseServerTradeBody = z.infer<typeof closeServerTradeBody>;

/**
 * POST /trade/update_trade_status/ (the update-trade-status call, SPEC.md §7): trade_status 'open' resets an
 * open trade to open with no UI status (a click on the pulsing button, or a direction_signal countdown at 0).
 * Closing statuses go through the close calls.
 */
export const updateTradeStatusBody = z
  .object({ trade_uuid: z.uuid(), trade_status: z.literal(TradeStatus.OPEN) })
  .meta({ id: 'UpdateTradeStatusBody' });
export type UpdateTradeStatusBody = z.infer<typeof updateTradeStatusBody>;

export const tradeListAnswer = resultOf(z.object({ trade_list: z.array(trade) }));

export const tradeUuidParams = z.object({ trade_uuid: z.uuid() });

/** GET /trade/get_trades_history/ query (SPEC.md §7): trades created in [start_date, end_date]. */
export const tradeHistoryQuery = z
  .object({
    start_date: apiDateTime,
    end_date: apiDateTime,
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(100_000).default(100_000),
  })
  .refine((query) => Date.parse(query.start_date) <= Date.parse(query.end_date), {
    message: 'start_date must not be after end_date',
    path: ['end_date'],
  });
export type TradeHistoryQuery = z.infer<typeof tradeHistoryQuery>;

/** GET /trade/get_trade_trend_by_uuid/{trade_uuid}/: the price around a trade ('Trade Trend Data'). */
export const tradeTrendData = z
  .object({
    trade: trade,
    /** Take-profit price: where the ROE reaches trade_take_profit_percent. */
    trade_take_profit_price: positiveDecimal,
    /** Current trailing-stop price: where the ROE falls to trade_treiling_stop_percent_current. */
    trade_treiling_stop_price: positiveDecimal,
    /** 1-minute candles from 30 minutes before the open to the close (or now), oldest first. */
    trend_data_list: z.array(candlePoint),
  })
  .meta({ id: 'TradeTrendData' });
export type TradeTrendData = z.infer<typeof tradeTrendData>;
export const tradeTrendAnswer = resultOf(tradeTrendData);

/**
 * DELETE /trade/delete_trade_errors/ body (optional): the PINs the SPA holds, so the server can reconcile
 * server-mode error trades with the exchange. Without a PIN a platform's error trades are only repaired when
 * that needs no exchange call.
 */
export const deleteTradeErrorsBody = z
  .object({ pin_code_by_platform_uuid: z.record(z.uuid(), pinCode).default({}) })
  .meta({ id: 'DeleteTradeErrorsBody' });
export const deleteTradeErrorsAnswer = resultOf(z.object({ count: z.number().int().min(0) }));

/**
 * The sentences a failed server-mode open answers with (POST /trade_server/create_trade/, `detail`), around the
 * exchange's failure ('<operation>: <text>'). The server builds them here and the SPA recognises them here to
 * show them in the trader's language (src/lib/i18n.ts translateError).
 */
export const OpenFailureText = {
  /** 502: the market order's outcome is unknown; the trade is kept as open_incomplete for Repair. */
  orderUnconfirmed: (cause: string) =>
    `The exchange did not confirm the market order (${cause}); the position may be open. ` +
    'Repair error trades will reconcile it with the exchange',
  /** 400: the stop was refused and the position closed again. */
  stopRefused: (cause: string) =>
    `The exchange refused the stop loss order (${cause}), so the position was closed again at once: ` +
    'no trade is open',
} as const;
export type OpenFailureKind = keyof typeof OpenFailureText;

/** The kind and the exchange's failure of an OpenFailureText sentence; undefined for any other text. */
export function parseOpenFailureText(text: string): { kind: OpenFailureKind; cause: string } | undefined {
  for (const kind of Object.keys(OpenFailureText) as OpenFailureKind[]) {
    const [before, after] = OpenFailureText[kind]('\u0000').split('\u0000') as [string, string];
    if (text.startsWith(before) && text.endsWith(after) && text.length > before.length + after.length) {
      return { kind, cause: text.slice(before.length, text.length - after.length) };
    }
  }
  return undefined;
}

/**
 * Orders a closed client-mode trade left waiting on the exchange (issue 37): the server's user data stream
 * recorded the close and cannot cancel them (it holds no secret); the page cancels them with the key and says
 * so with POST /trade/clear_waiting_orders/. Client order ids (`sds…` the stop, `sdt…`/`sdr…` the exits).
 */
export const waitingOrders = z
  .object({
    trade_uuid: z.uuid(),
    platform_uuid: z.uuid(),
    symbol_pair: z.string(),
    order_ids: z.array(z.string()),
  })
  .meta({ id: 'WaitingOrders' });
export type WaitingOrders = z.infer<typeof waitingOrders>;
/** GET /trade/get_waiting_orders/: the trader's closed client-mode trades with orders left waiting. */
export const waitingOrdersAnswer = resultOf(z.object({ waiting: z.array(waitingOrders) }));
/** POST /trade/clear_waiting_orders/: these orders are gone from the exchange (the page cancelled them). */
export const clearWaitingOrdersBody = z
  .object({ trade_uuid: z.uuid(), order_ids: z.array(z.string().max(64)).min(1).max(3) })
  .meta({ id: 'ClearWaitingOrdersBody' });
export type ClearWaitingOrdersBody = z.infer<typeof clearWaitingOrdersBody>;
export const clearWaitingOrdersAnswer = resultOf(
  z.object({ trade_uuid: z.uuid(), order_ids: z.array(z.string()) }),
);
