// Position mathematics of reference §12 (USDⓈ-M, linear, contract multiplier 1), in exact decimals.
import { bracketFor, type SymbolSpec } from './market/symbols.js';
import { D, ZERO, type Dec } from './num.js';
import type { PositionSide } from './state.js';

/** unrealized PNL = positionAmt × (markPrice − entryPrice) [PNL]. */
export function unrealizedPnl(amt: Dec, entry: Dec, mark: Dec): Dec {
  return amt.times(mark.minus(entry));
}

/** notional = positionAmt × markPrice, signed [DM:V3]. */
export function notional(amt: Dec, mark: Dec): Dec {
  return amt.times(mark);
}

/** Initial margin with the current mark = |notional| / leverage [DM:Position_Information_V3]. */
export function initialMargin(amt: Dec, mark: Dec, leverage: number): Dec {
  return notional(amt, mark).abs().div(leverage);
}

/** ROE % = uPnL / initial margin × 100 [PNL]; 0 without margin. */
export function roePercent(pnl: Dec, margin: Dec): Dec {
  return margin.isZero() ? ZERO : pnl.div(margin).times(100);
}

export interface Maintenance {
  rate: Dec;
  amount: Dec;
  margin: Dec;
}

/** maintMargin = |notional| × MMR − cum, MMR and cum from the bracket of |notional| [MMF, LIQ]. */
export function maintenance(spec: SymbolSpec, absNotional: Dec): Maintenance {
  const bracket = bracketFor(spec, absNotional);
  const rate = new D(bracket.maintMarginRatio);
  const amount = new D(bracket.cum);
  const margin = absNotional.isZero() ? ZERO : D.max(absNotional.times(rate).minus(amount), ZERO);
  return { rate, amount, margin };
}

/** One leg of the liquidation formula: a position of this symbol, absolute size, entry and bracket. */
export interface LiquidationLeg {
  positionSide: PositionSide;
  /** Signed amount (only BOTH uses the sign: Side1BOTH). */
  amt: Dec;
  entry: Dec;
  mark: Dec;
}

export interface LiquidationInput {
  spec: SymbolSpec;
  /** WB: isolated wallet for an isolated position, cross wallet balance for cross. */
  walletBalance: Dec;
  /** TMM1: maintenance margin of all other cross positions (0 for isolated). */
  otherMaintenance: Dec;
  /** UPNL1: unrealized PNL of all other cross positions (0 for isolated). */
  otherPnl: Dec;
  legs: LiquidationLeg[];
}

/**
 * Binance's liquidation price [LIQ, reference §12]:
 * LP = (WB − TMM1 + UPNL1 + cumB + cumL + cumS − Side1BOTH·Pos1BOTH·EP1BOTH − Pos1LONG·EP1LONG + Pos1SHORT·EP1SHORT)
 *    / (Pos1BOTH·MMR_B + Pos1LONG·MMR_L + Pos1SHORT·MMR_S − Side1BOTH·Pos1BOTH − Pos1LONG + Pos1SHORT),
 * with Pos the absolute sizes. A negative or undefined result is reported as 0 (no liquidation).
 */
export function liquidationPrice(input: LiquidationInput): Dec {
  let numerator = input.walletBalance.minus(input.otherMaintenance).plus(input.otherPnl);
  let denominator = ZERO;
  for (const leg of input.legs) {
    if (leg.amt.isZero()) continue;
    const size = leg.amt.abs();
    const { rate, amount } = maintenance(input.spec, size.times(leg.mark));
    numerator = numerator.plus(amount);
    denominator = denominator.plus(size.times(rate));
    if (leg.positionSide === 'BOTH') {
      const side = leg.amt.lessThan(0) ? -1 : 1;
      numerator = numerator.minus(size.times(leg.entry).times(side));
      denominator = denominator.minus(size.times(side));
    } else if (leg.positionSide === 'LONG') {
      numerator = numerator.minus(size.times(leg.entry));
      denominator = denominator.minus(size);
    } else {
      numerator = numerator.plus(size.times(leg.entry));
      denominator = denominator.plus(size);
    }
  }
  if (denominator.isZero()) return ZERO;
  const price = numerator.div(denominator);
  return price.lessThan(0) ? ZERO : price;
}

/**
 * Break-even price: the exit price at which closing pays back the opening and the closing commission
 * (both at the taker rate): long entry·(1+r)/(1−r), short entry·(1−r)/(1+r).
 */
export function breakEvenPrice(amt: Dec, entry: Dec, takerRate: Dec): Dec {
  if (amt.isZero()) return ZERO;
  const one = new D(1);
  return amt.greaterThan(0)
    ? entry.times(one.plus(takerRate)).div(one.minus(takerRate))
    : entry.times(one.minus(takerRate)).div(one.plus(takerRate));
}
