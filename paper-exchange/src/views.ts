// REST answer shapes (reference §6-8) with Binance's types: amounts as fixed-decimal strings, ids and
// times as numbers, flags as booleans. Decimals per field: quantities at the symbol's quantity precision,
// order prices at its price precision, USDT amounts and computed prices (entry, mark, liquidation) with 8.
import type { AccountMetrics, PositionMetrics } from './account-state.js';
import { findSymbol, maxNotionalForLeverage, type SymbolSpec } from './market/symbols.js';
import { decimalsOf, fixed, ZERO, type Dec } from './num.js';
import type { AlgoOrderRecord, OrderRecord, TradeRecord } from './state.js';

export const MONEY_DECIMALS = 8;

export const money = (value: Dec | string) => fixed(value, MONEY_DECIMALS);
export const qtyText = (spec: SymbolSpec, value: Dec | string) => fixed(value, spec.quantityPrecision);
export const priceText = (spec: SymbolSpec, value: Dec | string) => fixed(value, spec.pricePrecision);
/** Quote amounts of fills are exact with tick decimals + step decimals. */
export const quoteText = (spec: SymbolSpec, value: Dec | string) =>
  fixed(value, decimalsOf(spec.tickSize) + decimalsOf(spec.stepSize));
const avgText = (spec: SymbolSpec, value: Dec | string) => fixed(value, Math.max(5, spec.pricePrecision));
/** Binance prints a plain "0" for the figures of a flat position. */
const orZero = (value: Dec, text: (v: Dec) => string) => (value.isZero() ? '0' : text(value));

function specOf(symbol: string): SymbolSpec {
  return findSymbol(symbol) as SymbolSpec;
}

export function orderView(order: OrderRecord, withTime = true): Record<string, unknown> {
  const spec = specOf(order.symbol);
  const view: Record<string, unknown> = {
    orderId: order.orderId,
    symbol: order.symbol,
    status: order.status,
    clientOrderId: order.clientOrderId,
    price: priceText(spec, order.price),
    avgPrice: avgText(spec, order.avgPrice),
    origQty: qtyText(spec, order.origQty),
    executedQty: qtyText(spec, order.executedQty),
    cumQty: qtyText(spec, order.executedQty),
    cumQuote: quoteText(spec, order.cumQuote),
    timeInForce: order.timeInForce,
    type: order.type,
    reduceOnly: order.reduceOnly,
    closePosition: order.closePosition,
    side: order.side,
    positionSide: order.positionSide,
    stopPrice: priceText(spec, order.stopPrice),
    workingType: order.workingType,
    priceProtect: order.priceProtect,
    origType: order.origType,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'EXPIRE_MAKER',
    goodTillDate: order.goodTillDate,
    updateTime: order.updateTime,
  };
  if (order.origType === 'TRAILING_STOP_MARKET') {
    view.activatePrice = priceText(spec, order.activatePrice ?? '0');
    view.priceRate = order.priceRate ?? '0';
  }
  if (withTime) view.time = order.time;
  return view;
}

export function algoView(algo: AlgoOrderRecord, actual: OrderRecord | undefined): Record<string, unknown> {
  const spec = specOf(algo.symbol);
  const view: Record<string, unknown> = {
    algoId: algo.algoId,
    clientAlgoId: algo.clientAlgoId,
    algoType: 'CONDITIONAL',
    orderType: algo.orderType,
    symbol: algo.symbol,
    side: algo.side,
    positionSide: algo.positionSide,
    timeInForce: algo.timeInForce,
    quantity: qtyText(spec, algo.quantity),
    algoStatus: algo.algoStatus,
    actualOrderId: algo.actualOrderId === undefined ? '' : String(algo.actualOrderId),
    actualPrice: avgText(spec, actual?.avgPrice ?? '0'),
    executedQty: qtyText(spec, actual?.executedQty ?? '0'),
    triggerPrice: priceText(spec, algo.triggerPrice),
    price: priceText(spec, algo.price),
    icebergQuantity: null,
    selfTradePreventionMode: 'EXPIRE_MAKER',
    workingType: algo.workingType,
    priceMatch: 'NONE',
    closePosition: algo.closePosition,
    priceProtect: algo.priceProtect,
    reduceOnly: algo.reduceOnly,
    createTime: algo.createTime,
    updateTime: algo.updateTime,
    triggerTime: algo.triggerTime,
    goodTillDate: algo.goodTillDate,
  };
  if (algo.orderType === 'TRAILING_STOP_MARKET') {
    view.activatePrice = priceText(spec, algo.activatePrice ?? '0');
    view.callbackRate = algo.callbackRate ?? '0';
  }
  return view;
}

export function tradeView(trade: TradeRecord): Record<string, unknown> {
  const spec = specOf(trade.symbol);
  return {
    buyer: trade.side === 'BUY',
    commission: money(trade.commission),
    commissionAsset: 'USDT',
    id: trade.id,
    maker: trade.maker,
    orderId: trade.orderId,
    price: priceText(spec, trade.price),
    qty: qtyText(spec, trade.qty),
    quoteQty: quoteText(spec, trade.quoteQty),
    realizedPnl: money(trade.realizedPnl),
    side: trade.side,
    positionSide: trade.positionSide,
    symbol: trade.symbol,
    time: trade.time,
  };
}

/** Position fields shared by the v2/v3 views, for a position or a flat (default) line. */
export interface PositionLine {
  symbol: string;
  positionSide: string;
  metrics: PositionMetrics | undefined;
  leverage: number;
  isolated: boolean;
  mark: Dec;
  updateTime: number;
}

export function positionRiskV2(line: PositionLine): Record<string, unknown> {
  const spec = specOf(line.symbol);
  const m = line.metrics;
  const iw = m?.isolated ? m.isolatedWallet : ZERO;
  return {
    symbol: line.symbol,
    positionAmt: qtyText(spec, m?.amt ?? ZERO),
    entryPrice: money(m?.entry ?? ZERO),
    breakEvenPrice: money(m?.breakEvenPrice ?? ZERO),
    markPrice: money(line.mark),
    unRealizedProfit: money(m?.pnl ?? ZERO),
    liquidationPrice: orZero(m?.liquidationPrice ?? ZERO, money),
    leverage: String(line.leverage),
    maxNotionalValue: String(maxNotionalForLeverage(spec, line.leverage)),
    marginType: line.isolated ? 'isolated' : 'cross',
    isolatedMargin: money(m?.isolated ? iw.plus(m.pnl) : ZERO),
    isAutoAddMargin: 'false',
    positionSide: line.positionSide,
    notional: orZero(m?.notional ?? ZERO, money),
    isolatedWallet: orZero(iw, money),
    updateTime: line.updateTime,
  };
}

export function positionRiskV3(line: PositionLine): Record<string, unknown> {
  const spec = specOf(line.symbol);
  const m = line.metrics;
  const iw = m?.isolated ? m.isolatedWallet : ZERO;
  const notional = m?.notional ?? ZERO;
  return {
    symbol: line.symbol,
    positionSide: line.positionSide,
    positionAmt: qtyText(spec, m?.amt ?? ZERO),
    entryPrice: money(m?.entry ?? ZERO),
    breakEvenPrice: money(m?.breakEvenPrice ?? ZERO),
    markPrice: money(line.mark),
    unRealizedProfit: money(m?.pnl ?? ZERO),
    liquidationPrice: orZero(m?.liquidationPrice ?? ZERO, money),
    isolatedMargin: money(m?.isolated ? iw.plus(m.pnl) : ZERO),
    notional: money(notional),
    marginAsset: 'USDT',
    isolatedWallet: money(iw),
    initialMargin: money(m?.initialMargin ?? ZERO),
    maintMargin: money(m?.maint.margin ?? ZERO),
    positionInitialMargin: money(m?.initialMargin ?? ZERO),
    openOrderInitialMargin: '0',
    adl: m ? 1 : 0,
    bidNotional: '0',
    askNotional: '0',
    updateTime: line.updateTime,
  };
}

export function accountTotals(m: AccountMetrics): Record<string, string> {
  return {
    totalInitialMargin: money(m.positionInitialMargin.plus(m.openOrderInitialMargin)),
    totalMaintMargin: money(m.maintMargin),
    totalWalletBalance: money(m.wallet),
    totalUnrealizedProfit: money(m.totalPnl),
    totalMarginBalance: money(m.marginBalance),
    totalPositionInitialMargin: money(m.positionInitialMargin),
    totalOpenOrderInitialMargin: money(m.openOrderInitialMargin),
    totalCrossWalletBalance: money(m.crossWallet),
    totalCrossUnPnl: money(m.crossPnl),
    availableBalance: money(m.available),
    maxWithdrawAmount: money(m.maxWithdraw),
  };
}

export function assetView(m: AccountMetrics): Record<string, unknown> {
  return {
    asset: 'USDT',
    walletBalance: money(m.wallet),
    unrealizedProfit: money(m.totalPnl),
    marginBalance: money(m.marginBalance),
    maintMargin: money(m.maintMargin),
    initialMargin: money(m.positionInitialMargin.plus(m.openOrderInitialMargin)),
    positionInitialMargin: money(m.positionInitialMargin),
    openOrderInitialMargin: money(m.openOrderInitialMargin),
    crossWalletBalance: money(m.crossWallet),
    crossUnPnl: money(m.crossPnl),
    availableBalance: money(m.available),
    maxWithdrawAmount: money(m.maxWithdraw),
    marginAvailable: true,
    // ccxt skips assets whose updateTime is 0 (reference §11 item 4).
    updateTime: Math.max(m.account.updateTime, 1),
  };
}

export function balanceView(m: AccountMetrics): Record<string, unknown> {
  return {
    accountAlias: `SgAx${m.account.id.toString(36).padStart(4, '0')}`,
    asset: 'USDT',
    balance: money(m.wallet),
    crossWalletBalance: money(m.crossWallet),
    crossUnPnl: money(m.crossPnl),
    availableBalance: money(m.available),
    maxWithdrawAmount: money(m.maxWithdraw),
    marginAvailable: true,
    updateTime: Math.max(m.account.updateTime, 1),
  };
}
