// The shapes of the exchange's answers and of the orders sent to it (exchange-client.ts), prices and quantities
// as decimal strings. Re-exported by exchange-client.ts.

export type OrderSide = 'BUY' | 'SELL';

/** GET /fapi/v2/positionRisk item 0 (one-way mode: one line per symbol), as the exchange's decimal strings. */
export interface PositionRisk {
  entryPrice: string;
  markPrice: string;
  /** Signed: negative for a short, "0…" when flat. */
  positionAmt: string;
}

export interface MarketOrderInput {
  symbol: string;
  side: OrderSide;
  quantity: string;
  newClientOrderId: string;
  reduceOnly?: boolean;
}

/** An order's state; avgPrice is "0…" until it fills. */
export interface OrderResult {
  avgPrice: string;
  executedQty: string;
  status: string;
  clientOrderId: string;
  /** The exchange's id of the order (its fills are found by it); absent when the answer had none. */
  orderId?: number;
}

/** One fill of an order (GET /fapi/v1/userTrades), as the exchange's decimal strings. */
export interface OrderFill {
  price: string;
  qty: string;
  /** The commission charged for the fill, as a cost (≥ 0; Binance's samples write it negative). */
  commission: string;
  /** The asset it was charged in: the margin asset (USDT), or BNB when the account pays fees in BNB. */
  commissionAsset: string;
}

/** One leverage bracket of a symbol (GET /fapi/v1/leverageBracket), its numbers as decimal text. */
export interface LeverageBracket {
  /** Notional (USDT) from which the bracket applies, inclusive. */
  notionalFloor: string;
  /** Notional up to which it applies, exclusive. */
  notionalCap: string;
  /** Maintenance margin rate, a fraction (0.004 = 0.4 %). */
  maintMarginRatio: string;
  /** Maintenance amount (USDT): maintenance margin = notional × rate − cum (binance-fapi.md §12). */
  cum: string;
  /**
   * The highest leverage a position in this bracket may have; absent when the exchange did not say. A position
   * at leverage L may hold at most the largest notionalCap among brackets with initialLeverage ≥ L (-2027).
   */
  initialLeverage?: number;
}

/** A reduce-only STOP (stop-limit) order: it triggers at stopPrice and becomes a limit order at price. */
export interface StopOrderInput {
  symbol: string;
  side: OrderSide;
  quantity: string;
  stopPrice: string;
  price: string;
  /** newClientOrderId on /fapi/v1/order, clientAlgoId on the Algo Order API. */
  clientId: string;
}

/**
 * An exit the exchange holds for a trade (issue 35): a reduce-only TAKE_PROFIT_MARKET at `triggerPrice`, or a
 * TRAILING_STOP_MARKET from `activatePrice` with `callbackRate` (percent of the best price, 0.1 to 10), both on
 * the Algo Order API and triggered by the mark price, as the trade monitor reads it.
 */
export type ExitOrderInput = {
  symbol: string;
  side: OrderSide;
  quantity: string;
  /** clientAlgoId. */
  clientId: string;
} & (
  | { type: 'TAKE_PROFIT_MARKET'; triggerPrice: string }
  | { type: 'TRAILING_STOP_MARKET'; activatePrice: string; callbackRate: string }
  /**
   * The stop's backstop (issue 54): a market stop just beyond the stop-limit's limit price, triggered by the
   * contract (last) price as the stop is, so a gap through the limit still closes the position.
   */
  | { type: 'STOP_MARKET'; triggerPrice: string }
);

export interface StopOrderState {
  /**
   * The order statuses (NEW, PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED, REJECTED …). An algo order answers
   * NEW, CANCELED, EXPIRED or REJECTED while it has not fired; once fired, the status of the order it placed,
   * or TRIGGERED when that order cannot be seen.
   */
  status: string;
  /** Average fill price when it filled (above zero), else undefined. */
  avgPrice?: string;
  /** The exchange's id of the order that filled (for an algo order: the order it placed), when known. */
  orderId?: number;
}
