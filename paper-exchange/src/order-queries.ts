// Order look-ups and cancellations (reference §6 "Other order endpoints"): by orderId or origClientOrderId,
// -2013 for an unknown order on GET and -2011 for one that is not open on DELETE.
import type { Params } from './auth.js';
import { Errors } from './errors.js';
import type { ExchangeCore } from './exchange-core.js';
import { requireSymbol } from './order-params.js';
import { finishOrder } from './orders.js';
import type { AccountRecord, OrderRecord } from './state.js';

export function findOrder(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): OrderRecord | undefined {
  const spec = requireSymbol(params);
  const orderId = params.get('orderId');
  const clientId = params.get('origClientOrderId');
  if (!orderId && clientId === undefined) throw Errors.eitherMandatory('orderId', 'origClientOrderId');
  let order: OrderRecord | undefined;
  if (orderId) {
    if (!/^\d{1,20}$/.test(orderId)) throw Errors.illegalChars('orderId', '^[0-9]{1,20}$');
    order = core.store.tables.orders.get(Number(orderId));
  } else {
    if (clientId === '') throw Errors.emptyOrigClientOrderId();
    order = core.orderByClient(account.id, clientId as string);
  }
  if (!order || order.accountId !== account.id || order.symbol !== spec.symbol) return undefined;
  return order;
}

export function cancelOrder(core: ExchangeCore, account: AccountRecord, params: Params): OrderRecord {
  const order = findOrder(core, account, params);
  if (!order || !core.openOrders.has(order.orderId)) throw Errors.unknownOrder();
  finishOrder(core, order, 'CANCELED');
  return order;
}

export function cancelAllOrders(core: ExchangeCore, account: AccountRecord, params: Params): void {
  const spec = requireSymbol(params);
  for (const order of core.openOrdersOf(account.id, spec.symbol)) finishOrder(core, order, 'CANCELED');
}

/** Time filters shared by allOrders, userTrades and income: startTime/endTime (ms), -1023 when reversed. */
export function timeRange(params: Params): { start: number | undefined; end: number | undefined } {
  const parse = (name: string) => {
    const text = params.get(name);
    if (text === undefined) return undefined;
    if (!/^\d{1,16}$/.test(text)) throw Errors.illegalChars(name, '^[0-9]{1,16}$');
    return Number(text);
  };
  const start = parse('startTime');
  const end = parse('endTime');
  if (start !== undefined && end !== undefined && start > end) throw Errors.startAfterEnd();
  return { start, end };
}

export function parseLimit(params: Params, fallback: number, max: number): number {
  const text = params.get('limit');
  if (text === undefined) return fallback;
  if (!/^\d{1,6}$/.test(text)) throw Errors.illegalChars('limit', '^[0-9]{1,6}$');
  return Math.max(1, Math.min(Number(text), max));
}
