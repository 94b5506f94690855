// User data stream payloads (reference §9): ORDER_TRADE_UPDATE, ACCOUNT_UPDATE, ALGO_UPDATE and
// ACCOUNT_CONFIG_UPDATE, with Binance's one-letter keys and value types.
import type { PositionMetrics } from './account-state.js';
import { findSymbol, type SymbolSpec } from './market/symbols.js';
import { ZERO } from './num.js';
import type { AlgoOrderRecord, OrderRecord, PositionRecord, TradeRecord } from './state.js';
import { money, priceText, qtyText } from './views.js';

export type ExecutionType = 'NEW' | 'CANCELED' | 'CALCULATED' | 'EXPIRED' | 'TRADE' | 'AMENDMENT';

export function orderTradeUpdate(
  order: OrderRecord,
  execution: ExecutionType,
  now: number,
  trade?: TradeRecord,
): Record<string, unknown> {
  const spec = findSymbol(order.symbol) as SymbolSpec;
  // After a conditional order triggers, the matching engine works it as MARKET or LIMIT ("o"), origType stays.
  const workingType = order.triggered
    ? order.origType === 'STOP' || order.origType === 'TAKE_PROFIT'
      ? 'LIMIT'
      : 'MARKET'
    : order.type;
  const o: Record<string, unknown> = {
    s: order.symbol,
    c: order.clientOrderId,
    S: order.side,
    o: workingType,
    f: order.timeInForce,
    q: qtyText(spec, order.origQty),
    p: priceText(spec, order.price),
    ap: priceText(spec, order.avgPrice),
    sp: priceText(spec, order.stopPrice),
    x: execution,
    X: order.status,
    i: order.orderId,
    l: qtyText(spec, trade?.qty ?? '0'),
    z: qtyText(spec, order.executedQty),
    L: priceText(spec, trade?.price ?? '0'),
    T: now,
    t: trade?.id ?? 0,
    b: '0',
    a: '0',
    m: trade?.maker ?? false,
    R: order.reduceOnly,
    wt: order.workingType,
    ot: order.origType,
    ps: order.positionSide,
    cp: order.closePosition,
    rp: money(trade?.realizedPnl ?? '0'),
    pP: order.priceProtect,
    si: 0,
    ss: 0,
    V: 'EXPIRE_MAKER',
    pm: 'NONE',
    gtd: order.goodTillDate,
  };
  if (trade) {
    o.N = 'USDT';
    o.n = money(trade.commission);
  }
  if (order.origType === 'TRAILING_STOP_MARKET') {
    o.AP = priceText(spec, order.activatePrice ?? '0');
    o.cr = order.priceRate ?? '0';
  }
  return { e: 'ORDER_TRADE_UPDATE', E: now, T: now, o };
}

export function accountUpdate(
  reason: string,
  wallet: string,
  crossWallet: string,
  positions: PositionRecord[],
  metrics: Map<string, PositionMetrics>,
  marginTypeOf: (symbol: string) => 'isolated' | 'cross',
  now: number,
  balanceChange = '0',
): Record<string, unknown> {
  return {
    e: 'ACCOUNT_UPDATE',
    E: now,
    T: now,
    a: {
      m: reason,
      B: [{ a: 'USDT', wb: money(wallet), cw: money(crossWallet), bc: money(balanceChange) }],
      P: positions.map((position) => {
        const spec = findSymbol(position.symbol) as SymbolSpec;
        const m = metrics.get(position.key);
        return {
          s: position.symbol,
          pa: qtyText(spec, position.positionAmt),
          ep: money(position.entryPrice),
          bep: money(m?.breakEvenPrice ?? ZERO),
          cr: money(position.accumulatedRealized),
          up: money(m?.pnl ?? ZERO),
          mt: marginTypeOf(position.symbol),
          iw: money(position.isolatedWallet),
          ps: position.positionSide,
          ma: 'USDT',
        };
      }),
    },
  };
}

export function algoUpdate(
  algo: AlgoOrderRecord,
  actual: OrderRecord | undefined,
  now: number,
  reason?: string,
) {
  const spec = findSymbol(algo.symbol) as SymbolSpec;
  const o: Record<string, unknown> = {
    caid: algo.clientAlgoId,
    aid: algo.algoId,
    at: 'CONDITIONAL',
    o: algo.orderType,
    s: algo.symbol,
    S: algo.side,
    ps: algo.positionSide,
    f: algo.timeInForce,
    q: qtyText(spec, algo.quantity),
    X: algo.algoStatus,
    ai: algo.actualOrderId === undefined ? '' : String(algo.actualOrderId),
    tp: priceText(spec, algo.triggerPrice),
    p: priceText(spec, algo.price),
    V: 'EXPIRE_MAKER',
    wt: algo.workingType,
    pm: 'NONE',
    cp: algo.closePosition,
    pP: algo.priceProtect,
    R: algo.reduceOnly,
    tt: algo.triggerTime,
    gtd: algo.goodTillDate,
  };
  if (actual) {
    o.ap = priceText(spec, actual.avgPrice);
    o.aq = qtyText(spec, actual.executedQty);
    o.act = actual.type;
  }
  if (reason) o.rm = reason;
  return { e: 'ALGO_UPDATE', T: now, E: now, o };
}

export function leverageUpdate(symbol: string, leverage: number, now: number) {
  return { e: 'ACCOUNT_CONFIG_UPDATE', E: now, T: now, ac: { s: symbol, l: leverage } };
}
