// The exchange steps of opening and closing a trade (SPEC.md §4 "Opening a trade", "Closing a trade"), written
// once and run by the SPA in client mode and by the server in server mode with an ExchangeClient. Quantities
// and prices come from trade-core's exact decimal math. Failure semantics are documented in docs/decisions.md
// "Trading" and on each function.
// INTERFACE FIRST: the bodies are filled in by the exchange-client work of issue 7.
import type { ClosingTradeStatus, SignalDirection } from '../../contracts';
import type { ExchangeClient, ExchangeError } from './exchange-client';

export interface OpenPositionInput {
  /** Exchange symbol, e.g. BTCUSDT. */
  symbol_pair: string;
  trade_direction: SignalDirection;
  /** USDT, as the preference stores it (1.5 … 1000). */
  trade_margin: number;
  trade_leverage: number;
  trade_stop_loss_percent: number;
  symbol_price_precision: number;
  symbol_quantity_precision: number;
  /**
   * Unique per trader and signal (see clientOrderIds): the market order is placed with it, so a retried open
   * finds the order already placed instead of opening a second position.
   */
  signal_uuid: string;
}

export interface OpenedPosition {
  /** Entry price of the position after the fill (positionRisk entryPrice). */
  trade_open_price: string;
  trade_quantity: string;
  trade_order_id: string;
  /** Null only when the stop could not be placed AND the position could not be closed (stop_missing). */
  trade_stop_order_id: string | null;
  trade_stop_price: string;
  /** The error that left the position without its stop, when trade_stop_order_id is null. */
  stop_error?: ExchangeError;
}

/**
 * Why an open failed after the market order was sent, so the caller can tell the trader exactly what
 * happened to their money.
 * - STOP_REJECTED_POSITION_CLOSED: the stop was refused; the position was closed again at once (nothing open).
 * - ORDER_UNCONFIRMED: the market order's answer never came and the order could not be looked up: the
 *   position may or may not exist (the caller records an open_incomplete trade for repair).
 */
export const OpenFailure = {
  STOP_REJECTED_POSITION_CLOSED: 'STOP_REJECTED_POSITION_CLOSED',
  ORDER_UNCONFIRMED: 'ORDER_UNCONFIRMED',
} as const;
export type OpenFailure = (typeof OpenFailure)[keyof typeof OpenFailure];

export class TradeOpenError extends Error {
  constructor(
    readonly failure: OpenFailure,
    readonly cause: ExchangeError,
    /** What was known when it failed (quantity, order id …), for an open_incomplete record. */
    readonly partial: Partial<OpenedPosition>,
  ) {
    super(`${failure}: ${cause.message}`);
    this.name = 'TradeOpenError';
  }
}

/**
 * Opens a position: leverage, margin type ISOLATED (-4046 ignored), one-way mode (-4059 ignored), the mark
 * price from positionRisk, the quantity with trade-core (margin × leverage ÷ price, toward zero), a MARKET order,
 * the entry price from positionRisk, the stop price with trade-core, then the STOP order (reduce-only), falling
 * back to the Algo Order API on -4120. Throws ExchangeError when nothing was opened, TradeOpenError when the
 * market order was sent.
 */
export async function openPosition(
  _client: ExchangeClient,
  _input: OpenPositionInput,
): Promise<OpenedPosition> {
  throw new Error('openPosition: not implemented yet');
}

export interface ClosePositionInput {
  symbol_pair: string;
  trade_direction: SignalDirection;
  trade_quantity: string;
  trade_leverage: number;
  trade_stop_order_id: string | null;
  /** The status the close is for; a position already gone turns into stop_loss when its stop filled. */
  trade_status: ClosingTradeStatus;
}

export interface ClosedPosition {
  /** The status to record: the requested one, or stop_loss when the exchange-side stop had closed it. */
  trade_status: ClosingTradeStatus;
  /** Average fill price of the closing order, or of the stop that fired; undefined when unknown. */
  trade_close_price: string | undefined;
  /** The stop order was cancelled by this close ('Position Stop Loss cancelled'). */
  stop_cancelled: boolean;
}

/**
 * Closes a position (SPEC.md §4 "Closing a trade"): leverage, ISOLATED, one-way, an opposite reduce-only MARKET
 * order for the quantity, then cancelling the stop by its id (on the route it was placed on). When the position
 * is already gone, it reports how it ended instead of failing.
 */
export async function closePosition(
  _client: ExchangeClient,
  _input: ClosePositionInput,
): Promise<ClosedPosition> {
  throw new Error('closePosition: not implemented yet');
}

export interface PositionCheckInput {
  trade_uuid: string;
  symbol_pair: string;
  trade_direction: SignalDirection;
  trade_stop_order_id: string | null;
  /** The market order's client id, to learn whether an unconfirmed open was filled. */
  trade_order_id: string | null;
}

export type PositionCheck =
  | { trade_uuid: string; state: 'open'; trade_open_price: string; trade_quantity: string }
  | {
      trade_uuid: string;
      state: 'closed';
      trade_status: ClosingTradeStatus;
      trade_close_price: string | undefined;
    }
  /** The market order was never filled: nothing was opened. */
  | { trade_uuid: string; state: 'never_opened' };

/** Reconciles open trades of one platform with the exchange's positions and orders. */
export async function checkPositions(
  _client: ExchangeClient,
  _trades: readonly PositionCheckInput[],
): Promise<PositionCheck[]> {
  throw new Error('checkPositions: not implemented yet');
}
