// The exchange steps of opening and closing a trade (SPEC.md §4 "Opening a trade", "Closing a trade"), written
// once and run by the SPA in client mode and by the server in server mode with an ExchangeClient. Quantities
// and prices come from trade-core's exact decimal math. Failure semantics are documented in docs/decisions.md
// "Trading" and on each function.
//
// Every order carries a client id made from the signal (clientOrderIds), so a retried open or close finds
// what an earlier attempt did instead of doing it twice.
import type { ExitHold, SignalDirection, TradeExits } from '../contracts';
import { ExchangeError, ExchangeFailure } from './exchange-client';
import type {
  ExchangeClient,
  ExitOrderInput,
  LeverageBracket,
  OrderResult,
  OrderSide,
  PositionRisk,
  StopOrderInput,
} from './exchange-client';
import { bracketCapText } from './exchange-errors';
import { maxNotionalAtLeverage } from './order-placement';
import {
  addDecimals,
  compareDecimals,
  divDecimals,
  mulDecimals,
  notional,
  orderQuantity,
  roundDecimal,
  stopPrice,
  subDecimals,
  takeProfitPrice,
  trailingActivationPrice,
  trailingCallbackRate,
} from './trade-core';
import { readOpeningCosts, type OpeningCosts } from './trade-fees';
import {
  DUPLICATED_CLIENT_ID,
  UNFILLED_FINAL_STATUSES,
  allOrFirstFailure,
  cancelExitQuietly,
  cancelQuietly,
  clientOrderIds,
  isClosingOrderId,
  isPositive,
  opposite,
  unlessExchangeError,
} from './trade-flow-common';

// The close path, fills and fees, and the shared steps live beside this file; trade-flow is still the one
// module its callers import.
export * from './trade-close';
export * from './trade-fees';
export { clientOrderIds } from './trade-flow-common';

/**
 * The stop is a stop-limit (SPEC.md §7: type STOP with price and stopPrice). Its limit price lies this
 * fraction beyond the trigger in the closing direction (below it when a long sells, above it when a short
 * buys), so that the order still fills when the price gaps through the trigger in a fast move; a limit at
 * the trigger itself would be left behind and leave the position unprotected.
 */
export const STOP_LIMIT_OFFSET = '0.01';

/**
 * After an order's answer was lost, it is looked up again once its signed request can no longer be accepted
 * (timestamp + recvWindow) plus this margin for clock skew (Binance refuses timestamps more than 1 s ahead).
 */
export const UNANSWERED_ORDER_SETTLE_MS = 2000;

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
  /**
   * The exits the exchange is to hold (issue 35): the take profit and the trailing stop, placed after the fill
   * beside the stop. Absent: none (the trade monitor alone follows them, as before).
   */
  exits?: { trade_take_profit_percent: number; trade_treiling_stop_percent: number };
}

export type { ExitHold, TradeExits };

/** Binance's callbackRate range (percent of the best price). */
export const CALLBACK_RATE_RANGE = ['0.1', '10'] as const;

/** Whether the exchange takes a TRAILING_STOP_MARKET with this callbackRate (Binance's 0.1–10 %). */
export function callbackRateFits(callbackRate: string): boolean {
  const [low, high] = CALLBACK_RATE_RANGE;
  return compareDecimals(callbackRate, low) >= 0 && compareDecimals(callbackRate, high) <= 0;
}

export interface OpenedPosition extends OpeningCosts {
  /** Entry price of the position after the fill (positionRisk entryPrice). */
  trade_open_price: string;
  trade_quantity: string;
  trade_order_id: string;
  /** Null only when the stop could not be placed AND the position could not be closed (stop_missing). */
  trade_stop_order_id: string | null;
  trade_stop_price: string;
  /** The error that left the position without its stop, when trade_stop_order_id is null. */
  stop_error?: ExchangeError;
  /** Where each exit is held, when the open was asked to place them (OpenPositionInput.exits). */
  exits?: TradeExits;
  /**
   * The stop's market backstop (issue 54): held by the exchange at its trigger price, or why the exchange did
   * not take it (the stop-limit alone may then not fill in a gap). Absent when the stop was not placed.
   */
  trade_backstop?: ExitHold;
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
    override readonly cause: ExchangeError,
    /** What was known when it failed (quantity, order id …), for an open_incomplete record. */
    readonly partial: Partial<OpenedPosition>,
  ) {
    super(`${failure}: ${cause.message}`);
    this.name = 'TradeOpenError';
  }
}

/**
 * The exchange would refuse the order with -2027 (issue 53): the position after it, at the mark price, above
 * the largest notional the leverage's brackets allow. Refused here, before the MARKET order, naming the cap.
 */
function refuseAboveBracket(
  brackets: readonly LeverageBracket[] | undefined,
  leverage: number,
  risk: Pick<PositionRisk, 'positionAmt' | 'markPrice'>,
  quantity: string,
): void {
  const cap = brackets && maxNotionalAtLeverage(brackets, leverage);
  if (cap === undefined) return;
  const held = risk.positionAmt.startsWith('-') ? risk.positionAmt.slice(1) : risk.positionAmt;
  if (compareDecimals(notional(addDecimals(held, quantity), risk.markPrice), cap) <= 0) return;
  throw new ExchangeError('openPosition', ExchangeFailure.EXCHANGE, bracketCapText(cap, leverage));
}

/**
 * Opens a position in two round trips to the exchange before its MARKET order is acknowledged: first, at
 * once, leverage, margin type ISOLATED (-4046 ignored), one-way mode (-4059 ignored), the look-up of this
 * signal's opening order (a retried open continues from it) and positionRisk (its mark price sizes the order:
 * trade-core's margin × leverage ÷ price, toward zero); then the MARKET order. SPEC.md §4 names these calls and
 * nothing in them needs another's answer. Then the STOP order (reduce-only) at trade-core's stop price from
 * the fill's average price, falling back to the Algo Order API on -4120. Throws ExchangeError when nothing was
 * opened, TradeOpenError when the market order was sent.
 */
export async function openPosition(
  client: ExchangeClient,
  input: OpenPositionInput,
): Promise<OpenedPosition> {
  const { symbol_pair: symbol, trade_direction: side, trade_leverage: leverage } = input;
  const ids = clientOrderIds(input.signal_uuid);
  const [, , , earlier, risk, openAlgoIds, openOrderIds, brackets] = await allOrFirstFailure([
    client.setLeverage(symbol, leverage),
    client.setMarginTypeIsolated(symbol),
    client.setOneWayMode(),
    client.getOrder(symbol, ids.open),
    client.getPositionRisk(symbol),
    // Not needed for the order; an exchange that cannot list them only loses the clean-up below.
    client.getOpenAlgoIds(symbol).catch(unlessExchangeError),
    // And the regular ones: a stop-limit that triggered and did not fill (a gap its backstop closed, issue 54)
    // rests there as a reduce-only limit order under the stop's id.
    client.getOpenOrderIds(symbol).catch(unlessExchangeError),
    // In the same round trip: the cap of the leverage's bracket (checked below), and the maintenance bracket
    // of the opening costs. A failed read leaves the cap to the exchange (-2027).
    client.getLeverageBrackets(symbol).catch(unlessExchangeError),
  ] as const);
  let order: OrderResult;
  if (earlier?.status === 'FILLED') {
    // ...unless this signal's position was closed again (its stop was refused, or it was closed by hand):
    // then there is nothing to continue, and a signal is traded once.
    const closed = await client.getOrder(symbol, ids.close);
    if (closed?.status === 'FILLED') {
      throw new ExchangeError(
        'openPosition',
        ExchangeFailure.EXCHANGE,
        "This signal's position was already opened and closed again; a signal is traded once",
      );
    }
    order = earlier;
  } else {
    const quantity = orderQuantity({
      margin: input.trade_margin,
      leverage,
      entryPrice: risk.markPrice,
      quantityPrecision: input.symbol_quantity_precision,
    });
    refuseAboveBracket(brackets, leverage, risk, quantity);
    const market = { symbol, side, quantity, newClientOrderId: ids.open };
    // A stop or exit of Signaldesk's still open on the symbol is left over from a trade that ended (a failed
    // open, an exit whose placement arrived late, a close recorded while no key was at hand): it would act on
    // this position, so it goes first (issue 52). Also beside a position the trader holds by hand (issue 54): the
    // leftovers would close it at the old trade's levels. The caller holds one trade per symbol, so none of
    // these belongs to an open trade of ours.
    const leftovers = (openAlgoIds ?? []).filter(isClosingOrderId);
    const resting = (openOrderIds ?? []).filter(isClosingOrderId);
    if (leftovers.length + resting.length > 0) {
      await Promise.all([
        ...leftovers.map((id) => cancelExitQuietly(client, id)),
        ...resting.map((id) => cancelQuietly(client, symbol, id)),
      ]);
    }
    order = await placeOpeningOrder(client, market, { trade_order_id: ids.open, trade_quantity: quantity });
  }
  const quantity = order.executedQty;
  const entry = await entryPriceOf(client, symbol, order);
  const stop = stopPrice({
    direction: side,
    entryPrice: entry,
    stopLossPercent: input.trade_stop_loss_percent,
    leverage,
    pricePrecision: input.symbol_price_precision,
  });
  const opened = {
    trade_open_price: entry,
    trade_quantity: quantity,
    trade_order_id: ids.open,
    trade_stop_price: stop,
  };
  const closing = opposite(side);
  // The stop first, the reads of the fill's commission and of the maintenance bracket beside it: neither is on
  // the road to the MARKET order, and none waits for another (docs/decisions.md "The cockpit").
  // The exits the exchange holds go in the same round trip (issue 35): after the fill, never before it.
  // The stop's market backstop beside it (issue 54): a gap through the stop-limit's limit still closes.
  const [stopError, trade_backstop, costs, exits] = await Promise.all([
    placeStop(client, {
      symbol,
      side: closing,
      quantity,
      stopPrice: stop,
      price: stopLimitPrice(side, stop, input.symbol_price_precision),
      clientId: ids.stop,
    }),
    placeBackstop(client, { symbol, direction: side, quantity, stop, clientId: ids.backstop }, input),
    readOpeningCosts(client, symbol, order, entry, brackets),
    input.exits && placeExits(client, input, ids, { quantity, entry }),
  ]);
  if (stopError === undefined) {
    return { ...opened, ...costs, trade_stop_order_id: ids.stop, trade_backstop, ...(exits && { exits }) };
  }
  // The position is about to be closed again: exits (and the backstop) placed beside the refused stop must not
  // wait for a later one — each of them, also one whose placement gave no answer (it may have been placed all
  // the same); and once more when no placement can still be in flight (issue 52).
  const placedBeside = [ids.backstop, ...(input.exits ? [ids.takeProfit, ids.trailing] : [])];
  const cancelBeside = () => Promise.all(placedBeside.map((id) => cancelExitQuietly(client, id)));
  await cancelBeside();
  afterInFlight(client, () => cancelBeside());
  // No stop: a leveraged position must not stay open unprotected, so it is closed again at once.
  try {
    const close = { symbol, side: closing, quantity, newClientOrderId: ids.close, reduceOnly: true };
    await client.placeMarketOrder(close);
  } catch (closeError) {
    if (!(closeError instanceof ExchangeError)) throw closeError;
    return { ...opened, ...costs, trade_stop_order_id: null, stop_error: stopError };
  }
  // A stop whose answer was lost may exist after all: it must not wait for a later position.
  if (stopError.outcomeUnknown) {
    await cancelQuietly(client, symbol, ids.stop);
    afterInFlight(client, () => cancelQuietly(client, symbol, ids.stop));
  }
  throw new TradeOpenError(OpenFailure.STOP_REJECTED_POSITION_CLOSED, stopError, opened);
}

/**
 * Places the take profit and the trailing stop the exchange is to hold for this trade's quantity, at
 * trade-core's prices (the first tick where the monitor's own rules fire). An exit the exchange cannot hold
 * (a callback rate outside 0.1–10 %, a refusal) stays with Signaldesk's monitor, with the reason; a retried
 * open finds an exit already placed under its id (-4116) or, after a lost answer, open.
 */
async function placeExits(
  client: ExchangeClient,
  input: OpenPositionInput,
  ids: ReturnType<typeof clientOrderIds>,
  fill: { quantity: string; entry: string },
): Promise<TradeExits> {
  const exits = input.exits!;
  const side = input.trade_direction;
  const common = {
    symbol: input.symbol_pair,
    side: opposite(side),
    quantity: fill.quantity,
  };
  const triggerPrice = takeProfitPrice({
    direction: side,
    entryPrice: fill.entry,
    takeProfitPercent: exits.trade_take_profit_percent,
    leverage: input.trade_leverage,
    pricePrecision: input.symbol_price_precision,
  });
  const activatePrice = trailingActivationPrice({
    direction: side,
    entryPrice: fill.entry,
    trailingPercent: exits.trade_treiling_stop_percent,
    leverage: input.trade_leverage,
    pricePrecision: input.symbol_price_precision,
  });
  const callbackRate = trailingCallbackRate(exits.trade_treiling_stop_percent, input.trade_leverage);
  const [low, high] = CALLBACK_RATE_RANGE;
  const trailingFits = callbackRateFits(callbackRate);
  const [take_profit, trailing] = await Promise.all([
    placeExit(client, {
      ...common,
      type: 'TAKE_PROFIT_MARKET',
      triggerPrice,
      clientId: ids.takeProfit,
    }).then((reason) => hold(triggerPrice, reason)),
    trailingFits
      ? placeExit(client, {
          ...common,
          type: 'TRAILING_STOP_MARKET',
          activatePrice,
          callbackRate,
          clientId: ids.trailing,
        }).then((reason) => hold(activatePrice, reason))
      : Promise.resolve<ExitHold>({
          held_by: 'signaldesk',
          reason: `The trailing stop's callback rate ${callbackRate} % is outside the exchange's ${low}–${high} %`,
        }),
  ]);
  return { take_profit, trailing };
}

/** The exchange's message, at most as long as the record keeps (contracts exitHold). */
const REASON_MAX = 500;

const hold = (price: string, refusal: string | undefined): ExitHold =>
  refusal === undefined
    ? { held_by: 'exchange', price }
    : { held_by: 'signaldesk', reason: refusal.slice(0, REASON_MAX) || 'Refused by the exchange' };

/** Places one exit; answers why the exchange did not take it, or undefined when it holds it. */
async function placeExit(client: ExchangeClient, exit: ExitOrderInput): Promise<string | undefined> {
  try {
    await client.placeExitOrder(exit);
    return undefined;
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    if (error.code === DUPLICATED_CLIENT_ID) return undefined;
    if (error.outcomeUnknown) {
      const found = await client.getStopOrder(exit.symbol, exit.clientId).catch(unlessExchangeError);
      if (found?.status === 'NEW') return undefined;
    }
    return error.message;
  }
}

/**
 * Runs `task` once a request sent now can no longer be carried out by the exchange (its recvWindow, and a
 * second to spare), beside the caller: a cancel of an order whose placement's answer was lost. Its failure
 * is the task's own (quiet cancels).
 */
function afterInFlight(client: ExchangeClient, task: () => Promise<unknown>): void {
  const timer = setTimeout(() => void task().catch(() => undefined), client.recvWindowMs + 1_000);
  (timer as { unref?: () => void }).unref?.();
}

/**
 * The opening MARKET order. When its answer is lost (outcomeUnknown), the order is looked up by its client
 * id: filled → the open continues; not there (or done without a fill) → the original error, nothing was
 * opened; still unknown → TradeOpenError ORDER_UNCONFIRMED.
 */
async function placeOpeningOrder(
  client: ExchangeClient,
  market: { symbol: string; side: OrderSide; quantity: string; newClientOrderId: string },
  partial: Partial<OpenedPosition>,
): Promise<OrderResult> {
  const sentAt = Date.now();
  let order: OrderResult | undefined;
  let cause: ExchangeError;
  try {
    order = await client.placeMarketOrder(market);
    cause = new ExchangeError('placeMarketOrder', ExchangeFailure.EXCHANGE, `Order ${order.status}`);
  } catch (error) {
    if (!(error instanceof ExchangeError) || !error.outcomeUnknown) throw error;
    cause = error;
    const found = await lookUpUnanswered(client, market.symbol, market.newClientOrderId, sentAt);
    if (found === 'unknown') throw new TradeOpenError(OpenFailure.ORDER_UNCONFIRMED, cause, partial);
    if (found === undefined) throw cause;
    order = found;
  }
  if (isPositive(order.executedQty)) return order;
  if (UNFILLED_FINAL_STATUSES.includes(order.status)) throw cause;
  throw new TradeOpenError(OpenFailure.ORDER_UNCONFIRMED, cause, partial);
}

/**
 * An order whose answer was lost: looked up now, and unless it has filled, once more after its request
 * expired (the recvWindow it was signed with, plus a margin), when the exchange can no longer accept it.
 * 'unknown' when the look-ups failed too.
 */
async function lookUpUnanswered(
  client: ExchangeClient,
  symbol: string,
  clientId: string,
  sentAt: number,
): Promise<OrderResult | undefined | 'unknown'> {
  const lookUp = async (): Promise<OrderResult | undefined | 'unknown'> => {
    try {
      return await client.getOrder(symbol, clientId);
    } catch (error) {
      unlessExchangeError(error);
      return 'unknown';
    }
  };
  const first = await lookUp();
  if (first !== 'unknown' && first !== undefined && isPositive(first.executedQty)) return first;
  const wait = sentAt + client.recvWindowMs + UNANSWERED_ORDER_SETTLE_MS - Date.now();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
  return lookUp();
}

/**
 * The trade's entry price: the average price of its own fill, as the MARKET order's answer gives it (the
 * position's entryPrice would blend in another trade of the symbol's side in one-way mode); positionRisk only
 * when the answer has no price (an order found again after a lost answer that reports none).
 */
async function entryPriceOf(client: ExchangeClient, symbol: string, order: OrderResult): Promise<string> {
  if (isPositive(order.avgPrice)) return order.avgPrice;
  const { entryPrice } = await client.getPositionRisk(symbol);
  return entryPrice;
}

/**
 * Places the stop; answers the error that kept it from being placed, or undefined when it is in place: placed
 * now, already open under its id (-4116, a retried open), or found open after its answer was lost.
 */
async function placeStop(client: ExchangeClient, stop: StopOrderInput): Promise<ExchangeError | undefined> {
  try {
    await client.placeStopOrder(stop);
    return undefined;
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    if (error.code === DUPLICATED_CLIENT_ID) return undefined;
    if (error.outcomeUnknown) {
      const found = await client.getStopOrder(stop.symbol, stop.clientId).catch(unlessExchangeError);
      if (found?.status === 'NEW') return undefined;
    }
    return error;
  }
}

export interface ProtectPositionInput {
  symbol_pair: string;
  trade_direction: SignalDirection;
  /** The position's quantity and entry price, as the exchange reports them. */
  trade_quantity: string;
  trade_open_price: string;
  trade_leverage: number;
  trade_stop_loss_percent: number;
  symbol_price_precision: number;
  /** The trade's signal: the stop is placed under its `sds…` id (clientOrderIds). */
  signal_uuid: string;
}

export interface ProtectedPosition {
  /** The stop's client id; null when the exchange refused it (stop_error says why). */
  trade_stop_order_id: string | null;
  trade_stop_price: string;
  stop_error?: ExchangeError;
  /** The stop's market backstop (issue 54), placed beside it; absent when the stop was refused. */
  trade_backstop?: ExitHold;
}

/**
 * Completes an open that stopped after its market order filled (the process running it died, or the order's
 * answer was lost): places the stop openPosition would have placed next, at the stop price of the position's
 * entry (SPEC.md §5), under the signal's stop id, so a stop that the interrupted open did place is found
 * (-4116) instead of doubled. Never closes or opens anything: when the exchange refuses the stop, the answer
 * has trade_stop_order_id null and the caller records stop_missing for the trader to decide.
 */
export async function protectPosition(
  client: ExchangeClient,
  input: ProtectPositionInput,
): Promise<ProtectedPosition> {
  const { symbol_pair: symbol, trade_direction: side } = input;
  const ids = clientOrderIds(input.signal_uuid);
  const clientId = ids.stop;
  const stop = stopPrice({
    direction: side,
    entryPrice: input.trade_open_price,
    stopLossPercent: input.trade_stop_loss_percent,
    leverage: input.trade_leverage,
    pricePrecision: input.symbol_price_precision,
  });
  const backstop = { symbol, direction: side, quantity: input.trade_quantity, stop, clientId: ids.backstop };
  const [error, trade_backstop] = await Promise.all([
    placeStop(client, {
      symbol,
      side: opposite(side),
      quantity: input.trade_quantity,
      stopPrice: stop,
      price: stopLimitPrice(side, stop, input.symbol_price_precision),
      clientId,
    }),
    placeBackstop(client, backstop, input),
  ]);
  if (error === undefined) return { trade_stop_order_id: clientId, trade_stop_price: stop, trade_backstop };
  // No stop, no backstop alone: the trader decides (stop_missing), and Repair places both.
  await cancelExitQuietly(client, ids.backstop);
  return { trade_stop_order_id: null, trade_stop_price: stop, stop_error: error };
}

export type InterruptedOpen =
  /** The market order is not there, or ended without a fill: nothing was opened. */
  | { state: 'never_opened' }
  /** It filled, and the position is gone again (closed by its closing order, its stop, or by hand). */
  | { state: 'closed' }
  /** It filled and the position is open: with its stop now, or stop_error when the exchange refused it. */
  | { state: 'open'; opened: OpenedPosition };

/**
 * An open that this browser began and did not finish (the page was closed between the market order and the
 * stop, or before the record): the trade's own market order, looked up by its client id, decides, never the
 * symbol's position alone (one-way mode merges it with other trades of that side). Filled and still open, the
 * position gets the stop openPosition would have placed next (protectPosition: a stop the open did place
 * answers -4116 and is kept, not doubled). Throws ExchangeError when the exchange cannot tell yet (an order
 * neither filled nor ended, or a failed look-up): the caller asks again later.
 */
export async function completeInterruptedOpen(
  client: ExchangeClient,
  input: Omit<ProtectPositionInput, 'trade_quantity' | 'trade_open_price'>,
): Promise<InterruptedOpen> {
  const { symbol_pair: symbol } = input;
  const ids = clientOrderIds(input.signal_uuid);
  const order = await client.getOrder(symbol, ids.open);
  if (!order || !isPositive(order.executedQty)) {
    if (!order || UNFILLED_FINAL_STATUSES.includes(order.status)) return { state: 'never_opened' };
    throw new ExchangeError('completeInterruptedOpen', ExchangeFailure.EXCHANGE, `Order ${order.status}`);
  }
  if ((await client.getOrder(symbol, ids.close))?.status === 'FILLED') return { state: 'closed' };
  const risk = await client.getPositionRisk(symbol);
  if (compareDecimals(risk.positionAmt, '0') !== (input.trade_direction === 'BUY' ? 1 : -1)) {
    return { state: 'closed' };
  }
  const quantity = order.executedQty;
  const entry = isPositive(order.avgPrice) ? order.avgPrice : risk.entryPrice;
  const [stop, costs] = await Promise.all([
    protectPosition(client, { ...input, trade_quantity: quantity, trade_open_price: entry }),
    readOpeningCosts(client, symbol, order, entry),
  ]);
  return {
    state: 'open',
    opened: {
      trade_open_price: entry,
      trade_quantity: quantity,
      trade_order_id: ids.open,
      ...stop,
      ...costs,
    },
  };
}

/**
 * The backstop's trigger (issue 54): one price tick beyond the stop-limit's limit price, in the closing
 * direction. A fall (or rise) that the limit order follows never reaches it; one that gaps past the limit does,
 * and the position closes at market. Undefined when no such price exists (a limit one tick above zero).
 */
export function backstopPrice(
  direction: SignalDirection,
  stop: string,
  pricePrecision: number,
): string | undefined {
  const limit = stopLimitPrice(direction, stop, pricePrecision);
  const tick = divDecimals(1, 10 ** pricePrecision, pricePrecision);
  const price = direction === 'BUY' ? subDecimals(limit, tick) : addDecimals(limit, tick);
  return compareDecimals(price, 0) > 0 ? roundDecimal(price, pricePrecision) : undefined;
}

/**
 * Places the stop's market backstop: a reduce-only STOP_MARKET for the trade's quantity at backstopPrice, on
 * the Algo Order API. Never fails the open: where the exchange refuses it, the trade records why.
 */
async function placeBackstop(
  client: ExchangeClient,
  backstop: { symbol: string; direction: SignalDirection; quantity: string; stop: string; clientId: string },
  input: { symbol_price_precision: number },
): Promise<ExitHold> {
  const triggerPrice = backstopPrice(backstop.direction, backstop.stop, input.symbol_price_precision);
  if (triggerPrice === undefined) return { held_by: 'signaldesk', reason: 'No price beyond the stop limit' };
  const refusal = await placeExit(client, {
    symbol: backstop.symbol,
    side: opposite(backstop.direction),
    quantity: backstop.quantity,
    type: 'STOP_MARKET',
    triggerPrice,
    clientId: backstop.clientId,
  });
  return hold(triggerPrice, refusal);
}

/** The stop-limit's limit price: STOP_LIMIT_OFFSET beyond the trigger in the closing direction. */
function stopLimitPrice(direction: SignalDirection, stop: string, pricePrecision: number): string {
  const factor =
    direction === 'BUY' ? subDecimals('1', STOP_LIMIT_OFFSET) : addDecimals('1', STOP_LIMIT_OFFSET);
  return roundDecimal(mulDecimals(stop, factor), pricePrecision);
}
