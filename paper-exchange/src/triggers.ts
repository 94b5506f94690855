// What happens on every mark-price tick: conditional orders trigger by the mark price (reference §6 rules),
// resting limit orders fill when the mark crosses them (maker), GTD orders expire, and positions are
// liquidated when the mark crosses their liquidation price (reference §12: margin balance <= maintenance).
import { triggerAlgo } from './algo-orders.js';
import { ApiError } from './errors.js';
import { orderTradeUpdate } from './events.js';
import type { ExchangeCore } from './exchange-core.js';
import { addIncome, fill, reducibleQty } from './execution.js';
import { D, ZERO, type Dec } from './num.js';
import {
  checkExecution,
  executeFill,
  finishOrder,
  isTriggered,
  takerPrice,
  trailingTriggered,
} from './orders.js';
import type { AccountRecord, OrderRecord, PositionRecord, TradeRecord } from './state.js';
import { findSymbol, type SymbolSpec } from './market/symbols.js';

function triggerLegacy(core: ExchangeCore, account: AccountRecord, order: OrderRecord): void {
  const spec = findSymbol(order.symbol) as SymbolSpec;
  order.triggered = true;
  order.updateTime = core.now();
  core.saveOrder(order);
  const marketType = order.origType !== 'STOP' && order.origType !== 'TAKE_PROFIT';
  let qty = new D(order.origQty);
  if (order.closePosition) qty = reducibleQty(core, account, order.symbol, order.side, order.positionSide);
  try {
    if (marketType) {
      const price = takerPrice(core, order.symbol, order.side);
      const executed = checkExecution(core, account, spec, order, qty, price);
      executeFill(core, account, order, executed, price, false);
      return;
    }
    workLimit(core, account, order, true);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    finishOrder(core, order, 'EXPIRED');
  }
}

/**
 * A working LIMIT: a stop-limit that is marketable when it triggers takes the book (taker, best price);
 * a resting limit fills at its own price as maker once the mark's bid/ask crosses it.
 */
function workLimit(core: ExchangeCore, account: AccountRecord, order: OrderRecord, taker: boolean): void {
  const spec = findSymbol(order.symbol) as SymbolSpec;
  const price = new D(order.price);
  const ask = takerPrice(core, order.symbol, 'BUY');
  const bid = takerPrice(core, order.symbol, 'SELL');
  const crossed = order.side === 'BUY' ? ask.lessThanOrEqualTo(price) : bid.greaterThanOrEqualTo(price);
  if (!crossed) return;
  const qty = new D(order.origQty).minus(order.executedQty);
  const fillPrice = taker ? (order.side === 'BUY' ? ask : bid) : price;
  const executed = checkExecution(core, account, spec, order, qty, fillPrice, !taker);
  executeFill(core, account, order, executed, fillPrice, !taker);
}

function processOrder(core: ExchangeCore, order: OrderRecord, mark: Dec, now: number): void {
  const account = core.accounts.get(order.accountId);
  if (!account) return;
  if (order.timeInForce === 'GTD' && order.goodTillDate > 0 && now >= order.goodTillDate) {
    finishOrder(core, order, 'EXPIRED');
    return;
  }
  if (order.origType === 'LIMIT' || order.triggered) {
    try {
      workLimit(core, account, order, false);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      finishOrder(core, order, 'EXPIRED');
    }
    return;
  }
  let fire: boolean;
  if (order.trailing) {
    const before = JSON.stringify(order.trailing);
    fire = trailingTriggered(order.trailing, order.side, order.activatePrice, order.priceRate ?? '1', mark);
    if (JSON.stringify(order.trailing) !== before) core.store.touch('orders', order.orderId);
  } else {
    fire = isTriggered(order, mark);
  }
  if (fire) triggerLegacy(core, account, order);
}

/** Closes a position at the mark with a LIQUIDATION order (execution type CALCULATED, reference §9). */
function liquidate(
  core: ExchangeCore,
  account: AccountRecord,
  position: PositionRecord,
): { order: OrderRecord; trade: TradeRecord } {
  const now = core.now();
  const amt = new D(position.positionAmt);
  const mark = core.market.mark(position.symbol);
  for (const order of core.openOrdersOf(account.id, position.symbol)) finishOrder(core, order, 'CANCELED');
  const order: OrderRecord = {
    orderId: core.store.nextId('orderId'),
    accountId: account.id,
    symbol: position.symbol,
    clientOrderId: `autoclose-${now}`,
    side: amt.greaterThan(0) ? 'SELL' : 'BUY',
    positionSide: position.positionSide,
    type: 'LIQUIDATION',
    origType: 'LIQUIDATION',
    timeInForce: 'IOC',
    origQty: amt.abs().toString(),
    price: mark.toString(),
    stopPrice: '0',
    reduceOnly: true,
    closePosition: false,
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    status: 'FILLED',
    executedQty: '0',
    cumQuote: '0',
    avgPrice: '0',
    activatePrice: undefined,
    priceRate: undefined,
    trailing: undefined,
    triggered: false,
    goodTillDate: 0,
    algoId: undefined,
    time: now,
    updateTime: now,
  };
  const { trade } = fill(core, account, order, amt.abs(), mark, false, now);
  core.saveOrder(order);
  return { order, trade };
}

/**
 * The remaining margin of a liquidated position goes to the insurance fund (clearance), and a loss beyond
 * it is covered by the fund: the trader loses exactly `marginAtStake`.
 */
function clear(
  core: ExchangeCore,
  account: AccountRecord,
  walletBefore: Dec,
  marginAtStake: Dec,
  symbol: string,
  tradeId: number,
): void {
  const loss = walletBefore.minus(account.walletBalance);
  const clearance = marginAtStake.minus(loss);
  account.walletBalance = new D(account.walletBalance).minus(clearance).toString();
  addIncome(core, account, 'INSURANCE_CLEAR', clearance.negated(), symbol, String(tradeId), core.now());
}

function checkLiquidations(core: ExchangeCore, accountId: number): void {
  const account = core.accounts.get(accountId);
  if (!account) return;
  const metrics = core.metrics(account);
  const liquidated: { order: OrderRecord; trade: TradeRecord; position: PositionRecord }[] = [];
  for (const p of metrics.positions) {
    if (!p.isolated || p.isolatedWallet.plus(p.pnl).greaterThan(p.maint.margin)) continue;
    const walletBefore = new D(account.walletBalance);
    const result = liquidate(core, account, p.record);
    clear(core, account, walletBefore, p.isolatedWallet, p.record.symbol, result.trade.id);
    liquidated.push({ ...result, position: p.record });
  }
  const cross = metrics.positions.filter((p) => !p.isolated);
  const crossLiquidation =
    cross.length > 0 &&
    metrics.crossWallet.plus(metrics.crossPnl).lessThanOrEqualTo(metrics.crossMaintMargin);
  if (crossLiquidation) {
    // Cross: every cross position goes and the whole cross wallet is at stake.
    const walletBefore = new D(account.walletBalance);
    let last: TradeRecord | undefined;
    for (const p of cross) {
      const result = liquidate(core, account, p.record);
      last = result.trade;
      liquidated.push({ ...result, position: p.record });
    }
    if (last) clear(core, account, walletBefore, D.max(metrics.crossWallet, ZERO), last.symbol, last.id);
  }
  if (liquidated.length === 0) return;
  core.store.touch('accounts', account.id);
  const now = core.now();
  for (const { order, trade } of liquidated)
    core.emit(account.id, orderTradeUpdate(order, 'CALCULATED', now, trade));
  core.emitAccountUpdate(
    account,
    'ORDER',
    liquidated.map((l) => l.position),
  );
}

/** Runs the trading model for the symbols whose mark changed. */
export function onMarks(core: ExchangeCore, symbols: Set<string>): void {
  const now = core.now();
  for (const order of [...core.openOrders.values()]) {
    if (!symbols.has(order.symbol) || !core.openOrders.has(order.orderId)) continue;
    processOrder(core, order, core.market.mark(order.symbol), now);
  }
  for (const algo of [...core.openAlgos.values()]) {
    if (!symbols.has(algo.symbol) || algo.algoStatus !== 'NEW') continue;
    triggerAlgo(core, algo, core.market.mark(algo.symbol), now);
  }
  for (const accountId of core.accountsWithPositions()) checkLiquidations(core, accountId);
}
