// The trading model of orders (reference §6, issue item 4): market fills at the mark price plus or minus a
// small spread, limit orders that rest until the mark crosses them, conditional orders waiting for their
// trigger, with the margin (-2019), reduce-only (-2022), position (-2027) and symbol-status (-4140) checks.
// Every check runs before the first mutation, so a rejected order leaves no trace.
import crypto from 'node:crypto';
import { Errors } from './errors.js';
import { orderTradeUpdate } from './events.js';
import type { ExchangeCore } from './exchange-core.js';
import { fill, reducibleQty, targetSide } from './execution.js';
import { maxNotionalForLeverage, TAKER_FEE_RATE, type SymbolSpec } from './market/symbols.js';
import { D, ZERO, type Dec } from './num.js';
import { isConditional, type OrderRequest } from './order-params.js';
import type { AccountRecord, OrderRecord, OrderType, Side, TrailingState } from './state.js';

/** Maximum open orders per symbol (MAX_NUM_ORDERS filter). */
const MAX_OPEN_ORDERS = 200;

export function randomClientId(): string {
  return crypto
    .randomBytes(16)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 22);
}

/** Taker price: the ask (mark + half spread) for a buy, the bid for a sell. */
export function takerPrice(core: ExchangeCore, symbol: string, side: Side): Dec {
  const mark = core.market.mark(symbol);
  const half = core.market.halfSpread(symbol);
  return side === 'BUY' ? mark.plus(half) : mark.minus(half);
}

/** Conditions of reference §6: STOP buys above, sells below; TAKE_PROFIT the other way; trailing by rate. */
export function isTriggered(
  order: { side: Side; origType: OrderType; stopPrice: string },
  mark: Dec,
): boolean {
  const stop = new D(order.stopPrice);
  const stopLike = order.origType === 'STOP' || order.origType === 'STOP_MARKET';
  if (stopLike) return order.side === 'BUY' ? mark.greaterThanOrEqualTo(stop) : mark.lessThanOrEqualTo(stop);
  return order.side === 'BUY' ? mark.lessThanOrEqualTo(stop) : mark.greaterThanOrEqualTo(stop);
}

/** Trailing stop (reference §6): arm at the activation price, then trigger on a callbackRate % retreat. */
export function trailingTriggered(
  trailing: TrailingState,
  side: 'BUY' | 'SELL',
  activatePrice: string | undefined,
  callbackRate: string,
  mark: Dec,
): boolean {
  if (!trailing.activated) {
    const activation = new D(activatePrice ?? '0');
    trailing.activated =
      side === 'SELL' ? mark.greaterThanOrEqualTo(activation) : mark.lessThanOrEqualTo(activation);
    if (!trailing.activated) return false;
    trailing.extreme = mark.toString();
  }
  const extreme = new D(trailing.extreme);
  const rate = new D(callbackRate).div(100);
  if (side === 'SELL') {
    if (mark.greaterThan(extreme)) trailing.extreme = mark.toString();
    return mark.lessThanOrEqualTo(new D(trailing.extreme).times(D.sub(1, rate)));
  }
  if (mark.lessThan(extreme)) trailing.extreme = mark.toString();
  return mark.greaterThanOrEqualTo(new D(trailing.extreme).times(D.add(1, rate)));
}

export function checkClientIdFree(
  core: ExchangeCore,
  account: AccountRecord,
  clientId: string | undefined,
): void {
  if (!clientId) return;
  const existing = core.orderByClient(account.id, clientId);
  if (existing && core.openOrders.has(existing.orderId)) throw Errors.duplicatedClientOrderId();
}

export function checkOpenOrderLimit(core: ExchangeCore, account: AccountRecord, symbol: string): void {
  const count = core.openOrdersOf(account.id, symbol).length + core.openAlgosOf(account.id, symbol).length;
  if (count >= MAX_OPEN_ORDERS) throw Errors.maxOpenOrders();
}

/**
 * Checks an execution of qty at price: -4140 when it opens on a symbol that is not trading, -2019 when the
 * opening part's initial margin plus commission exceeds the available balance, -2027 above the position
 * limit of the leverage. Returns the quantity that will actually execute (reduce-only is capped).
 * marginReserved: the order is a resting limit whose margin is already set aside.
 */
export function checkExecution(
  core: ExchangeCore,
  account: AccountRecord,
  spec: SymbolSpec,
  order: {
    side: Side;
    positionSide: OrderRecord['positionSide'];
    reduceOnly: boolean;
    closePosition: boolean;
  },
  qty: Dec,
  price: Dec,
  marginReserved = false,
): Dec {
  const reducible = reducibleQty(core, account, spec.symbol, order.side, order.positionSide);
  const closing = order.reduceOnly || order.closePosition;
  if (closing && reducible.isZero()) throw Errors.reduceOnlyReject();
  const hedgeClose = account.dualSidePosition && !reducible.isZero();
  if (hedgeClose && qty.greaterThan(reducible) && !order.closePosition) throw Errors.reduceOnlyReject();
  const executed = closing ? D.min(qty, reducible) : qty;
  const opening = executed.minus(D.min(executed, reducible));
  if (opening.greaterThan(0)) {
    if (core.market.status(spec.symbol) !== 'TRADING') throw Errors.symbolStatus();
    const settings = core.accounts.settings(account, spec.symbol);
    const metrics = core.metrics(account);
    const required = opening
      .times(price)
      .div(settings.leverage)
      .plus(executed.times(price).times(TAKER_FEE_RATE));
    // A resting limit order reserved its margin when it was placed (openOrderInitialMargin).
    if (!marginReserved && required.greaterThan(metrics.available)) throw Errors.marginInsufficient();
    const current = core.amount(account.id, spec.symbol, targetSide(account, order.positionSide)).abs();
    const after = current.minus(D.min(current, reducible)).plus(opening);
    if (after.times(price).greaterThan(maxNotionalForLeverage(spec, settings.leverage)))
      throw Errors.maxLeverageRatio();
  }
  return executed;
}

/** Fills `qty` of an order now and sends ORDER_TRADE_UPDATE (TRADE) and ACCOUNT_UPDATE (reason ORDER). */
export function executeFill(
  core: ExchangeCore,
  account: AccountRecord,
  order: OrderRecord,
  qty: Dec,
  price: Dec,
  maker: boolean,
): void {
  const now = core.now();
  const result = fill(core, account, order, qty, price, maker, now);
  const done = new D(order.executedQty).greaterThanOrEqualTo(order.origQty) || order.closePosition;
  order.status = done ? 'FILLED' : 'EXPIRED';
  if (order.closePosition) order.origQty = order.executedQty;
  core.saveOrder(order);
  core.emit(account.id, orderTradeUpdate(order, 'TRADE', now, result.trade));
  core.emitAccountUpdate(account, 'ORDER', result.positions);
}

export function finishOrder(core: ExchangeCore, order: OrderRecord, status: 'CANCELED' | 'EXPIRED'): void {
  const now = core.now();
  order.status = status;
  order.updateTime = now;
  core.saveOrder(order);
  core.emit(order.accountId, orderTradeUpdate(order, status === 'CANCELED' ? 'CANCELED' : 'EXPIRED', now));
}

export interface NewOrderOptions {
  clientOrderId?: string;
  algoId?: number;
}

/** Validates against the account state, records the order and works it; returns the ACK view and the order. */
export function submitOrder(
  core: ExchangeCore,
  account: AccountRecord,
  req: OrderRequest,
  options: NewOrderOptions = {},
): { order: OrderRecord; ack: OrderRecord } {
  const now = core.now();
  const { spec } = req;
  const clientOrderId = options.clientOrderId ?? req.clientId ?? randomClientId();
  checkClientIdFree(core, account, clientOrderId);
  checkOpenOrderLimit(core, account, spec.symbol);
  const conditional = isConditional(req.type);
  const mark = core.market.mark(spec.symbol);
  let executeQty: Dec | undefined;
  let executePrice: Dec | undefined;
  const qty = req.quantity ?? ZERO;

  if (req.type === 'MARKET') {
    executePrice = takerPrice(core, spec.symbol, req.side);
    executeQty = checkExecution(core, account, spec, req, qty, executePrice);
  } else if (req.type === 'LIMIT') {
    const ask = takerPrice(core, spec.symbol, 'BUY');
    const bid = takerPrice(core, spec.symbol, 'SELL');
    const price = req.price as Dec;
    const marketable = req.side === 'BUY' ? price.greaterThanOrEqualTo(ask) : price.lessThanOrEqualTo(bid);
    if (marketable && req.timeInForce === 'GTX') {
      throw Errors.postOnlyRejected();
    }
    if (marketable) {
      executePrice = req.side === 'BUY' ? ask : bid;
      executeQty = checkExecution(core, account, spec, req, qty, executePrice);
    } else if (req.timeInForce !== 'IOC' && req.timeInForce !== 'FOK') {
      // A resting order reserves its margin: check it as if it executed at its limit price.
      checkExecution(core, account, spec, req, qty, price);
    }
  } else if (conditional) {
    if (req.reduceOnly || req.closePosition) {
      // Reduce-only conditional orders may wait for a position that does not exist yet.
    } else if (core.market.status(spec.symbol) !== 'TRADING') {
      throw Errors.symbolStatus();
    }
    if (
      req.type !== 'TRAILING_STOP_MARKET' &&
      isTriggered({ side: req.side, origType: req.type, stopPrice: (req.stopPrice as Dec).toString() }, mark)
    ) {
      throw Errors.wouldTrigger();
    }
  }

  const order: OrderRecord = {
    orderId: core.store.nextId('orderId'),
    accountId: account.id,
    symbol: spec.symbol,
    clientOrderId,
    side: req.side,
    positionSide: req.positionSide,
    type: req.type,
    origType: req.type,
    timeInForce: req.timeInForce,
    origQty: qty.toString(),
    price: (req.price ?? ZERO).toString(),
    stopPrice: (req.stopPrice ?? ZERO).toString(),
    reduceOnly: req.reduceOnly,
    closePosition: req.closePosition,
    workingType: req.workingType,
    priceProtect: req.priceProtect,
    status: 'NEW',
    executedQty: '0',
    cumQuote: '0',
    avgPrice: '0',
    activatePrice: req.activatePrice?.toString(),
    priceRate: req.callbackRate?.toString(),
    trailing:
      req.type === 'TRAILING_STOP_MARKET'
        ? { activated: req.activatePrice === undefined, extreme: mark.toString() }
        : undefined,
    triggered: false,
    goodTillDate: req.goodTillDate,
    algoId: options.algoId,
    time: now,
    updateTime: now,
  };
  core.saveOrder(order);
  const ack = structuredClone(order);
  core.emit(account.id, orderTradeUpdate(order, 'NEW', now));
  if (executeQty && executePrice) {
    executeFill(core, account, order, executeQty, executePrice, false);
  } else if (order.type === 'LIMIT' && (order.timeInForce === 'IOC' || order.timeInForce === 'FOK')) {
    finishOrder(core, order, 'EXPIRED');
  }
  return { order, ack };
}
