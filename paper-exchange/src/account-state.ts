// Derived figures of an account at the current mark prices: per-position PNL, margins and liquidation price
// (reference §12), and the account totals of GET /fapi/v2|v3/account (reference §7).
import type { Accounts } from './accounts.js';
import type { Market } from './market/market.js';
import { findSymbol, TAKER_FEE_RATE, type SymbolSpec } from './market/symbols.js';
import { D, ZERO, type Dec } from './num.js';
import {
  breakEvenPrice,
  initialMargin,
  liquidationPrice,
  maintenance,
  notional,
  unrealizedPnl,
  type LiquidationLeg,
  type Maintenance,
} from './positions.js';
import type { AccountRecord, OrderRecord, PositionRecord, SymbolSettings } from './state.js';

export interface PositionMetrics {
  record: PositionRecord;
  spec: SymbolSpec;
  settings: SymbolSettings;
  isolated: boolean;
  amt: Dec;
  entry: Dec;
  mark: Dec;
  pnl: Dec;
  notional: Dec;
  initialMargin: Dec;
  maint: Maintenance;
  isolatedWallet: Dec;
  liquidationPrice: Dec;
  breakEvenPrice: Dec;
}

export interface AccountMetrics {
  account: AccountRecord;
  wallet: Dec;
  crossWallet: Dec;
  crossPnl: Dec;
  totalPnl: Dec;
  marginBalance: Dec;
  positionInitialMargin: Dec;
  openOrderInitialMargin: Dec;
  openOrderMarginBySymbol: Map<string, Dec>;
  maintMargin: Dec;
  crossMaintMargin: Dec;
  crossInitialMargin: Dec;
  available: Dec;
  maxWithdraw: Dec;
  positions: PositionMetrics[];
}

export interface StateView {
  accounts: Accounts;
  market: Market;
  positionsOf(accountId: number): PositionRecord[];
  openOrdersOf(accountId: number): OrderRecord[];
}

/** Margin a resting LIMIT order reserves: qty × price / leverage, reduce-only orders reserve nothing. */
export function orderInitialMargin(order: OrderRecord, leverage: number): Dec {
  if (order.reduceOnly || order.closePosition || order.type !== 'LIMIT' || order.status !== 'NEW')
    return ZERO;
  return new D(order.origQty).minus(order.executedQty).times(order.price).div(leverage);
}

export function computeAccount(view: StateView, account: AccountRecord): AccountMetrics {
  const takerRate = new D(TAKER_FEE_RATE);
  const base = view.positionsOf(account.id).map((record) => {
    const spec = findSymbol(record.symbol) as SymbolSpec;
    const settings = view.accounts.settings(account, record.symbol);
    const amt = new D(record.positionAmt);
    const entry = new D(record.entryPrice);
    const mark = view.market.mark(record.symbol);
    const value = notional(amt, mark);
    return {
      record,
      spec,
      settings,
      isolated: settings.marginType === 'ISOLATED',
      amt,
      entry,
      mark,
      pnl: unrealizedPnl(amt, entry, mark),
      notional: value,
      initialMargin: initialMargin(amt, mark, settings.leverage),
      maint: maintenance(spec, value.abs()),
      isolatedWallet: new D(record.isolatedWallet),
      liquidationPrice: ZERO,
      breakEvenPrice: breakEvenPrice(amt, entry, takerRate),
    };
  });
  const wallet = new D(account.walletBalance);
  const isolatedWallets = base.reduce((sum, p) => sum.plus(p.isolatedWallet), ZERO);
  const crossWallet = wallet.minus(isolatedWallets);
  const cross = base.filter((p) => !p.isolated);
  const crossPnl = cross.reduce((sum, p) => sum.plus(p.pnl), ZERO);
  const crossMaint = cross.reduce((sum, p) => sum.plus(p.maint.margin), ZERO);
  const crossInitial = cross.reduce((sum, p) => sum.plus(p.initialMargin), ZERO);
  for (const position of base) {
    const legs = base
      .filter((p) => p.spec === position.spec && p.isolated === position.isolated)
      .filter((p) => !position.isolated || p.record.positionSide === position.record.positionSide);
    const legInputs: LiquidationLeg[] = legs.map((p) => ({
      positionSide: p.record.positionSide,
      amt: p.amt,
      entry: p.entry,
      mark: p.mark,
    }));
    const others = position.isolated ? [] : cross.filter((p) => p.spec !== position.spec);
    position.liquidationPrice = liquidationPrice({
      spec: position.spec,
      walletBalance: position.isolated ? position.isolatedWallet : crossWallet,
      otherMaintenance: others.reduce((sum, p) => sum.plus(p.maint.margin), ZERO),
      otherPnl: others.reduce((sum, p) => sum.plus(p.pnl), ZERO),
      legs: legInputs,
    });
  }
  const openOrderMarginBySymbol = new Map<string, Dec>();
  for (const order of view.openOrdersOf(account.id)) {
    const margin = orderInitialMargin(order, view.accounts.settings(account, order.symbol).leverage);
    if (margin.isZero()) continue;
    openOrderMarginBySymbol.set(
      order.symbol,
      (openOrderMarginBySymbol.get(order.symbol) ?? ZERO).plus(margin),
    );
  }
  const openOrderInitialMargin = [...openOrderMarginBySymbol.values()].reduce((sum, m) => sum.plus(m), ZERO);
  const totalPnl = base.reduce((sum, p) => sum.plus(p.pnl), ZERO);
  const available = D.max(crossWallet.plus(crossPnl).minus(crossInitial).minus(openOrderInitialMargin), ZERO);
  return {
    account,
    wallet,
    crossWallet,
    crossPnl,
    totalPnl,
    marginBalance: wallet.plus(totalPnl),
    positionInitialMargin: base.reduce((sum, p) => sum.plus(p.initialMargin), ZERO),
    openOrderInitialMargin,
    openOrderMarginBySymbol,
    maintMargin: base.reduce((sum, p) => sum.plus(p.maint.margin), ZERO),
    crossMaintMargin: crossMaint,
    crossInitialMargin: crossInitial,
    available,
    maxWithdraw: D.max(D.min(available, crossWallet), ZERO),
    positions: base,
  };
}
