// Closing a trade (SPEC.md §4 "Closing a trade") and checking trades against the exchange's positions
// (Repair, the reconciler): the close path of trade-flow, run by the SPA in client mode and by the server.
import type { ClosingTradeStatus, SignalDirection } from '../contracts';
import { ExchangeError } from './exchange-client';
import type { ExchangeClient, OrderResult, PositionRisk } from './exchange-client';
import { compareDecimals, subDecimals } from './trade-core';
import { orderCommission } from './trade-fees';
import {
  REDUCE_ONLY_REJECTED,
  allOrFirstFailure,
  cancelExitQuietly,
  cancelQuietly,
  hasFired,
  isPositive,
  opposite,
  positive,
  unlessExchangeError,
} from './trade-flow-common';

export interface ClosePositionInput {
  symbol_pair: string;
  trade_direction: SignalDirection;
  trade_quantity: string;
  trade_leverage: number;
  trade_stop_order_id: string | null;
  /** The opening market order's id (`sdo…`): names the closing order `sdc…` when the stop id is null. */
  trade_order_id?: string | null;
  /** The status the close is for; a position already gone turns into stop_loss when its stop filled. */
  trade_status: ClosingTradeStatus;
  /**
   * The exchange holds this trade's take profit and trailing stop (issue 35): the close cancels them, and a
   * position already gone may have been closed by one of them (take_profit / treiling_stop).
   */
  trade_exits_held?: boolean;
}

export interface ClosedPosition {
  /** The status to record: the requested one, or stop_loss when the exchange-side stop had closed it. */
  trade_status: ClosingTradeStatus;
  /** Average fill price of the closing order, or of the stop that fired; undefined when unknown. */
  trade_close_price: string | undefined;
  /** Commission the exchange charged for that fill (USDT, orderCommission); undefined when unknown. */
  trade_close_commission?: string;
  /** The stop order was cancelled by this close ('Position Stop Loss cancelled'). */
  stop_cancelled: boolean;
}

/**
 * Closes a position (SPEC.md §4 "Closing a trade") in two round trips before its MARKET order is acknowledged:
 * leverage, ISOLATED and one-way together, then an opposite reduce-only MARKET order for the quantity; then the
 * stop is cancelled by its id (on the route it was placed on). When the position is already gone, it reports
 * how it ended instead of failing.
 */
export async function closePosition(
  client: ExchangeClient,
  input: ClosePositionInput,
): Promise<ClosedPosition> {
  const { symbol_pair: symbol, trade_stop_order_id: stopId } = input;
  const closeId = closeOrderId(input);
  await allOrFirstFailure([
    client.setLeverage(symbol, input.trade_leverage),
    client.setMarginTypeIsolated(symbol),
    client.setOneWayMode(),
  ]);
  let order: OrderResult | undefined;
  try {
    order = await client.placeMarketOrder({
      symbol,
      side: opposite(input.trade_direction),
      quantity: input.trade_quantity,
      newClientOrderId: closeId,
      reduceOnly: true,
    });
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    if (error.code === REDUCE_ONLY_REJECTED) return closedBefore(client, input, closeId);
    if (!error.outcomeUnknown) throw error;
    // The answer was lost: the close counts only when the exchange shows the order filled.
    order = await client.getOrder(symbol, closeId).catch(unlessExchangeError);
    if (!order || !isPositive(order.executedQty)) throw error;
  }
  // The stop is cancelled and the fill's commission read together (issue 18).
  const filled = order;
  const exits = exitIds(input);
  const [stop_cancelled, trade_close_commission] = await Promise.all([
    stopId === null ? false : cancelQuietly(client, symbol, stopId),
    orderCommission(client, symbol, filled.orderId),
    ...(exits ? exits.map(([id]) => cancelExitQuietly(client, id)) : []),
  ]);
  return {
    trade_status: input.trade_status,
    trade_close_price: positive(filled.avgPrice),
    trade_close_commission,
    stop_cancelled,
  };
}

/**
 * The position was gone when the close came (-2022): the exchange-side stop closed it (stop_loss at the
 * stop's fill price), or an exit the exchange held (issue 35: take_profit / treiling_stop at its fill), or
 * something else did (the requested status; the price of our own closing order when an earlier attempt of this
 * close filled, else unknown). A stop or an exit still waiting is cancelled.
 */
async function closedBefore(
  client: ExchangeClient,
  input: ClosePositionInput,
  closeId: string,
): Promise<ClosedPosition> {
  const { symbol_pair: symbol, trade_stop_order_id: stopId } = input;
  const stop = stopId === null ? undefined : await client.getStopOrder(symbol, stopId);
  const stopFired = stop !== undefined && hasFired(stop);
  // An exit the exchange held may have closed it (issue 35); the exits left waiting are cancelled either way.
  const byExit = await settleExits(client, symbol, exitIds(input), stopFired);
  if (stopFired) {
    return {
      trade_status: 'stop_loss',
      trade_close_price: stop.avgPrice,
      trade_close_commission: await orderCommission(client, symbol, stop.orderId),
      stop_cancelled: false,
    };
  }
  const stop_cancelled =
    stopId !== null && stop?.status === 'NEW' ? await cancelQuietly(client, symbol, stopId) : false;
  if (byExit) return { ...byExit, stop_cancelled };
  const earlier = await client.getOrder(symbol, closeId).catch(unlessExchangeError);
  const filled = earlier && isPositive(earlier.executedQty) ? earlier : undefined;
  return {
    trade_status: input.trade_status,
    trade_close_price: filled && positive(filled.avgPrice),
    trade_close_commission: filled && (await orderCommission(client, symbol, filled.orderId)),
    stop_cancelled,
  };
}

type ExitClose = Omit<ClosedPosition, 'stop_cancelled'>;

/**
 * The exits the exchange held for a trade whose position is gone (issue 35): the first that fired names the
 * close (its fill's price and commission); those still waiting are cancelled, as they would act on a later
 * position of the symbol. When the stop fired they are cancelled unread. Undefined when no exit closed it.
 */
async function settleExits(
  client: ExchangeClient,
  symbol: string,
  exits: [string, ClosingTradeStatus][] | undefined,
  stopFired: boolean,
): Promise<ExitClose | undefined> {
  if (!exits) return undefined;
  if (stopFired) {
    await Promise.all(exits.map(([id]) => cancelExitQuietly(client, id)));
    return undefined;
  }
  const states = await Promise.all(exits.map(([id]) => client.getStopOrder(symbol, id)));
  await Promise.all(
    exits.filter((_, i) => states[i]?.status === 'NEW').map(([id]) => cancelExitQuietly(client, id)),
  );
  const fired = states.findIndex((state) => state !== undefined && hasFired(state));
  if (fired < 0) return undefined;
  const state = states[fired]!;
  return {
    trade_status: exits[fired]![1],
    trade_close_price: state.avgPrice,
    trade_close_commission: state.orderId ? await orderCommission(client, symbol, state.orderId) : undefined,
  };
}

/**
 * The ids of the orders the exchange holds beside the trade's stop, with the status each closes with
 * (clientOrderIds): its exits (issue 35), and always the stop's backstop (issue 54: whatever the record says,
 * one that may be there is looked up and cancelled — a close never leaves it behind; a trade without one costs
 * a refused cancel). None when the ids are unknown (a trade from before them).
 */
function exitIds(input: OrderIds): [string, ClosingTradeStatus][] | undefined {
  const close = closeOrderId(input);
  if (!/^sdc[0-9a-f]{32}$/.test(close)) return undefined;
  const key = close.slice(3);
  const ids: [string, ClosingTradeStatus][] = [
    ...(input.trade_exits_held
      ? ([
          [`sdt${key}`, 'take_profit'],
          [`sdr${key}`, 'treiling_stop'],
        ] as [string, ClosingTradeStatus][])
      : []),
    [`sdb${key}`, 'stop_loss'],
  ];
  return ids;
}

type OrderIds = {
  trade_order_id?: string | null;
  trade_stop_order_id: string | null;
  trade_exits_held?: boolean;
};

/** The `sdc` id of the trade's signal, known from its market order's or its stop's id (clientOrderIds). */
function closeOrderId(input: OrderIds): string {
  for (const [id, prefix] of [
    [input.trade_order_id, 'sdo'],
    [input.trade_stop_order_id, 'sds'],
  ] as const) {
    if (id?.startsWith(prefix)) return `sdc${id.slice(prefix.length)}`;
  }
  // A trade from before these ids: a fresh id, so a lost answer can still be looked up.
  return `sdc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

export interface PositionCheckInput {
  trade_uuid: string;
  symbol_pair: string;
  trade_direction: SignalDirection;
  trade_stop_order_id: string | null;
  /** The market order's client id, to learn whether an unconfirmed open was filled. */
  trade_order_id: string | null;
  /** The exchange holds the trade's take profit and trailing stop (issue 35; ClosePositionInput). */
  trade_exits_held?: boolean;
}

export type PositionCheck =
  | { trade_uuid: string; state: 'open'; trade_open_price: string; trade_quantity: string }
  | {
      trade_uuid: string;
      state: 'closed';
      trade_status: ClosingTradeStatus;
      trade_close_price: string | undefined;
      /** Commission of the fill that closed it, when that fill is known (its stop's). */
      trade_close_commission?: string;
    }
  /** The market order was never filled: nothing was opened. */
  | { trade_uuid: string; state: 'never_opened' };

/**
 * Reconciles open trades of one platform with the exchange's positions and orders. A trade the exchange closed
 * by its stop or by an exit it held (issue 35) is reported with that fill; its other orders still waiting (the
 * stop, the exits) are cancelled.
 */
export async function checkPositions(
  client: ExchangeClient,
  trades: readonly PositionCheckInput[],
): Promise<PositionCheck[]> {
  const symbols = [...new Set(trades.map((trade) => trade.symbol_pair))];
  const risks = new Map(
    await Promise.all(symbols.map(async (symbol) => [symbol, await client.getPositionRisk(symbol)] as const)),
  );
  const checks: PositionCheck[] = [];
  for (const trade of trades) checks.push(await checkPosition(client, trade, risks.get(trade.symbol_pair)));
  return checks;
}

async function checkPosition(
  client: ExchangeClient,
  trade: PositionCheckInput,
  risk: PositionRisk | undefined,
): Promise<PositionCheck> {
  const { trade_uuid, symbol_pair: symbol } = trade;
  const amount = risk?.positionAmt ?? '0';
  const sign = compareDecimals(amount, '0');
  // A position on the trade's side is the trade's (one-way mode keeps one position per symbol).
  if (risk && sign === (trade.trade_direction === 'BUY' ? 1 : -1)) {
    const trade_quantity = sign < 0 ? subDecimals('0', amount) : amount;
    return { trade_uuid, state: 'open', trade_open_price: risk.entryPrice, trade_quantity };
  }
  if (trade.trade_order_id !== null) {
    const order = await client.getOrder(symbol, trade.trade_order_id);
    if (!order || !isPositive(order.executedQty)) return { trade_uuid, state: 'never_opened' };
  }
  const stop =
    trade.trade_stop_order_id === null
      ? undefined
      : await client.getStopOrder(symbol, trade.trade_stop_order_id);
  const stopFired = stop !== undefined && hasFired(stop);
  const byExit = await settleExits(client, symbol, exitIds(trade), stopFired);
  if (stopFired) {
    return {
      trade_uuid,
      state: 'closed',
      trade_status: 'stop_loss',
      trade_close_price: stop.avgPrice,
      trade_close_commission: await orderCommission(client, symbol, stop.orderId),
    };
  }
  if (byExit) {
    if (trade.trade_stop_order_id !== null && stop?.status === 'NEW') {
      await cancelQuietly(client, symbol, trade.trade_stop_order_id);
    }
    return { trade_uuid, state: 'closed', ...byExit };
  }
  // Closed by something else (by hand on the exchange): a stop still waiting protects nothing any more and,
  // reduce-only on the trade's closing side, would act on a later position of the symbol. It is cancelled.
  if (trade.trade_stop_order_id !== null && stop?.status === 'NEW') {
    await cancelQuietly(client, symbol, trade.trade_stop_order_id);
  }
  return {
    trade_uuid,
    state: 'closed',
    trade_status: 'manual_close',
    trade_close_price: undefined,
  };
}
