// The Algo Order API (reference §6 "Algo migration"): conditional orders live in the algo service until the
// mark price triggers them; then an actual MARKET or LIMIT order is placed in the matching engine
// (algoStatus NEW → TRIGGERED → FINISHED, or REJECTED / EXPIRED), each step pushed as ALGO_UPDATE.
import type { Params } from './auth.js';
import { ApiError, Errors } from './errors.js';
import { algoUpdate } from './events.js';
import type { ExchangeCore } from './exchange-core.js';
import { reducibleQty } from './execution.js';
import { D, type Dec } from './num.js';
import { parseOrderRequest, type OrderRequest } from './order-params.js';
import {
  checkOpenOrderLimit,
  isTriggered,
  randomClientId,
  submitOrder,
  trailingTriggered,
} from './orders.js';
import type { AccountRecord, AlgoOrderRecord, OrderRecord } from './state.js';
import { algoView } from './views.js';

function actualOrder(core: ExchangeCore, algo: AlgoOrderRecord): OrderRecord | undefined {
  return algo.actualOrderId === undefined ? undefined : core.store.tables.orders.get(algo.actualOrderId);
}

export function viewAlgo(core: ExchangeCore, algo: AlgoOrderRecord): Record<string, unknown> {
  return algoView(algo, actualOrder(core, algo));
}

function update(
  core: ExchangeCore,
  algo: AlgoOrderRecord,
  status: AlgoOrderRecord['algoStatus'],
  reason?: string,
): void {
  const now = core.now();
  algo.algoStatus = status;
  algo.updateTime = now;
  core.saveAlgo(algo);
  core.emit(algo.accountId, algoUpdate(algo, actualOrder(core, algo), now, reason));
}

/** Keeps an algo order in step with its actual order: FINISHED once that order is done. */
export function registerAlgoFollower(core: ExchangeCore): void {
  core.orderDoneListeners.add((order) => {
    if (order.algoId === undefined) return;
    const algo = core.store.tables.algoOrders.get(order.algoId);
    if (algo && algo.algoStatus === 'TRIGGERED') update(core, algo, 'FINISHED');
  });
}

export function placeAlgo(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): Record<string, unknown> {
  const req = parseOrderRequest(params, {
    dualSidePosition: account.dualSidePosition,
    algo: true,
    legacyConditional: true,
    markOf: (symbol) => core.market.mark(symbol),
  });
  const now = core.now();
  const { spec } = req;
  const clientAlgoId = req.clientId ?? randomClientId();
  const existing = core.algoByClient(account.id, clientAlgoId);
  if (existing && core.openAlgos.has(existing.algoId)) throw Errors.duplicatedClientOrderId();
  checkOpenOrderLimit(core, account, spec.symbol);
  if (!req.reduceOnly && !req.closePosition && core.market.status(spec.symbol) !== 'TRADING')
    throw Errors.symbolStatus();
  const markNow = core.market.mark(spec.symbol);
  if (
    req.type !== 'TRAILING_STOP_MARKET' &&
    isTriggered({ side: req.side, origType: req.type, stopPrice: String(req.stopPrice) }, markNow)
  ) {
    throw Errors.wouldTrigger();
  }
  const algo: AlgoOrderRecord = {
    algoId: core.store.nextId('algoId'),
    accountId: account.id,
    clientAlgoId,
    orderType: req.type as AlgoOrderRecord['orderType'],
    symbol: spec.symbol,
    side: req.side,
    positionSide: req.positionSide,
    timeInForce: req.timeInForce,
    quantity: (req.quantity ?? new D(0)).toString(),
    algoStatus: 'NEW',
    triggerPrice: (req.stopPrice ?? new D(0)).toString(),
    price: (req.price ?? new D(0)).toString(),
    workingType: req.workingType,
    closePosition: req.closePosition,
    priceProtect: req.priceProtect,
    reduceOnly: req.reduceOnly,
    activatePrice: req.activatePrice?.toString(),
    callbackRate: req.callbackRate?.toString(),
    trailing:
      req.type === 'TRAILING_STOP_MARKET'
        ? { activated: req.activatePrice === undefined, extreme: markNow.toString() }
        : undefined,
    actualOrderId: undefined,
    goodTillDate: req.goodTillDate,
    createTime: now,
    updateTime: now,
    triggerTime: 0,
  };
  core.saveAlgo(algo);
  core.emit(account.id, algoUpdate(algo, undefined, now));
  return viewAlgo(core, algo);
}

/** Fires an algo order whose condition the mark meets: places the actual order in the matching engine. */
export function triggerAlgo(core: ExchangeCore, algo: AlgoOrderRecord, mark: Dec, now: number): void {
  const account = core.accounts.get(algo.accountId);
  if (!account) return;
  let fire: boolean;
  if (algo.trailing) {
    const before = JSON.stringify(algo.trailing);
    fire = trailingTriggered(algo.trailing, algo.side, algo.activatePrice, algo.callbackRate ?? '1', mark);
    if (JSON.stringify(algo.trailing) !== before) core.store.touch('algoOrders', algo.algoId);
  } else {
    fire = isTriggered({ side: algo.side, origType: algo.orderType, stopPrice: algo.triggerPrice }, mark);
  }
  if (!fire) return;
  algo.triggerTime = now;
  const limit = algo.orderType === 'STOP' || algo.orderType === 'TAKE_PROFIT';
  let quantity: Dec = new D(algo.quantity);
  if (algo.closePosition) quantity = reducibleQty(core, account, algo.symbol, algo.side, algo.positionSide);
  if (quantity.isZero()) {
    update(core, algo, 'EXPIRED', 'No position to close');
    return;
  }
  const req: OrderRequest = {
    spec: core.market.get(algo.symbol).spec,
    side: algo.side,
    positionSide: algo.positionSide,
    type: limit ? 'LIMIT' : 'MARKET',
    timeInForce: limit ? algo.timeInForce : 'GTC',
    quantity,
    price: limit ? new D(algo.price) : undefined,
    stopPrice: undefined,
    reduceOnly: algo.reduceOnly || algo.closePosition,
    closePosition: false,
    workingType: algo.workingType,
    priceProtect: algo.priceProtect,
    clientId: undefined,
    respType: 'RESULT',
    activatePrice: undefined,
    callbackRate: undefined,
    goodTillDate: algo.goodTillDate,
  };
  update(core, algo, 'TRIGGERING');
  const taken = core.orderByClient(account.id, algo.clientAlgoId);
  const clientOrderId = taken && core.openOrders.has(taken.orderId) ? randomClientId() : algo.clientAlgoId;
  try {
    const { order } = submitOrder(core, account, req, { algoId: algo.algoId, clientOrderId });
    algo.actualOrderId = order.orderId;
    update(core, algo, 'TRIGGERED');
    if (!core.openOrders.has(order.orderId)) update(core, algo, 'FINISHED');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    update(core, algo, 'REJECTED', error.message);
  }
}

export function findAlgo(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): AlgoOrderRecord | undefined {
  const algoId = params.get('algoId');
  const clientAlgoId = params.get('clientAlgoId');
  if (!algoId && !clientAlgoId) throw Errors.eitherMandatory('algoId', 'clientAlgoId');
  if (algoId !== undefined) {
    if (!/^\d+$/.test(algoId)) throw Errors.illegalChars('algoId', '^[0-9]{1,20}$');
    const algo = core.store.tables.algoOrders.get(Number(algoId));
    return algo && algo.accountId === account.id ? algo : undefined;
  }
  return core.algoByClient(account.id, clientAlgoId as string);
}

export function cancelAlgo(
  core: ExchangeCore,
  account: AccountRecord,
  params: Params,
): Record<string, unknown> {
  const algo = findAlgo(core, account, params);
  if (!algo || algo.algoStatus !== 'NEW') throw Errors.unknownOrder();
  update(core, algo, 'CANCELED');
  return { algoId: algo.algoId, clientAlgoId: algo.clientAlgoId, code: '200', msg: 'success' };
}

export function cancelAllAlgos(core: ExchangeCore, account: AccountRecord, symbol: string): void {
  for (const algo of core.openAlgosOf(account.id, symbol))
    if (algo.algoStatus === 'NEW') update(core, algo, 'CANCELED');
}
