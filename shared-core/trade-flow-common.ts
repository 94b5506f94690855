// What the open and the close paths of trade-flow share (SPEC.md §4): the signal's client order ids, the
// exchange's codes and statuses they act on, and small steps (a quiet cancel, concurrent calls). Imported by
// trade-flow.ts, trade-close.ts and trade-fees.ts; imports none of them.
import type { SignalDirection } from '../contracts';
import { ExchangeError } from './exchange-client';
import type { ExchangeClient, OrderSide, StopOrderState } from './exchange-client';
import { compareDecimals } from './trade-core';

/** -2022: ReduceOnly Order is rejected, i.e. there is no position left to reduce (binance-fapi.md §3). */
export const REDUCE_ONLY_REJECTED = -2022;
/** -4116: clientOrderId is duplicated, i.e. an open order with this id exists already. */
export const DUPLICATED_CLIENT_ID = -4116;
export const UNFILLED_FINAL_STATUSES = ['CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'REJECTED'];
export const FIRED_STOP_STATUSES = ['FILLED', 'PARTIALLY_FILLED', 'TRIGGERED', 'TRIGGERING', 'FINISHED'];

/**
 * The client order ids of a signal's trade (at most 36 characters, binance-fapi.md §6): `sdo` for the market
 * order that opens it, `sds` for its stop, `sdc` for the market order that closes it, each followed by the
 * signal_uuid without dashes (35 characters for a UUID).
 */
export function clientOrderIds(signalUuid: string): {
  open: string;
  stop: string;
  close: string;
  takeProfit: string;
  trailing: string;
  backstop: string;
} {
  const key = signalUuid.replace(/-/g, '');
  return {
    open: `sdo${key}`,
    stop: `sds${key}`,
    close: `sdc${key}`,
    // The exits the exchange holds (issue 35), on the Algo Order API.
    takeProfit: `sdt${key}`,
    trailing: `sdr${key}`,
    // The stop's market backstop (issue 54), on the Algo Order API.
    backstop: `sdb${key}`,
  };
}

/** Cancels an exit by its id; false when the exchange refused (-2011: none open, it fired or was cancelled). */
/**
 * Whether a client id is one Signaldesk gives the orders that close a trade (its stop, take profit or trailing
 * stop, or the stop's backstop: clientOrderIds' sds, sdt, sdr and sdb): when a new trade opens on the symbol (one trade per symbol: no other
 * of ours is open there), such an open order is left over from a trade that has ended, and would act on the
 * next position there.
 */
export const isClosingOrderId = (clientId: string): boolean => /^sd[strb][0-9a-f]{32}$/.test(clientId);

export async function cancelExitQuietly(client: ExchangeClient, clientId: string): Promise<boolean> {
  try {
    await client.cancelExitOrder(clientId);
    return true;
  } catch (error) {
    if (error instanceof ExchangeError) return false;
    throw error;
  }
}

/**
 * Runs calls together (their requests are in flight at once) and answers their results in order; when any
 * failed, throws the failure of the first in list order, so the error a trader sees does not depend on which
 * answer came back first.
 */
export async function allOrFirstFailure<T extends readonly unknown[]>(
  calls: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(calls);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

export const opposite = (side: SignalDirection): OrderSide => (side === 'BUY' ? 'SELL' : 'BUY');

/** A decimal string above zero ("0.00000" is "no fill"). */
export const isPositive = (value: string): boolean => compareDecimals(value, '0') > 0;
export const positive = (value: string): string | undefined => (isPositive(value) ? value : undefined);

/** The stop fired (the position was closed by it, or is being closed). */
export const hasFired = (stop: StopOrderState): boolean =>
  FIRED_STOP_STATUSES.includes(stop.status) || stop.avgPrice !== undefined;

/** For .catch of a look-up that may fail: an exchange failure reads as "not known", anything else throws. */
export function unlessExchangeError(error: unknown): undefined {
  if (error instanceof ExchangeError) return undefined;
  throw error;
}

/** Cancels a stop; true when it was cancelled, false when it could not be (gone already, or no answer). */
export async function cancelQuietly(
  client: ExchangeClient,
  symbol: string,
  stopId: string,
): Promise<boolean> {
  try {
    await client.cancelStopOrder(symbol, stopId);
    return true;
  } catch (error) {
    if (error instanceof ExchangeError) return false;
    throw error;
  }
}
