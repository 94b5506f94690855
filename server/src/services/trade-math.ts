// The money math of a trade, all in trade-core's exact decimals (DESIGN.md "The parts"): PNL, ROE, the
// trailing-stop level and the prices where the ROE reaches a level. The monitor and the close calls use the
// same functions, so a closed trade's realized PNL is computed exactly as its live PNL was.
import type { SignalDirection } from '../../../contracts';
import {
  addDecimals,
  compareDecimals,
  divDecimals,
  initialMargin,
  liquidationPrice,
  mulDecimals,
  notional,
  roePercent,
  roundDecimal,
  stopPrice,
  subDecimals,
  unrealizedPnl,
} from '../../../shared-core/trade-core-node';

/** ROE and percent levels are shown with 2 decimals (SPEC.md §9) and compared at that precision. */
export const PERCENT_DECIMALS = 2;
/** Places kept by an intermediate division before the final rounding to a symbol's precision. */
const WORKING_DECIMALS = 18;

export interface TradePosition {
  trade_direction: SignalDirection;
  trade_quantity: string;
  trade_open_price: string;
  trade_leverage: number;
}

/**
 * Initial margin of the position (USDT): quantity × entry ÷ leverage, what the exchange divides by for its
 * ROE. With it the ROE at the exchange-side stop price is exactly −trade_stop_loss_percent (SPEC.md §5).
 */
export const positionMargin = (p: TradePosition): string =>
  initialMargin(p.trade_quantity, p.trade_open_price, p.trade_leverage);

/** PNL (USDT, exact) and ROE (percent, 2 decimals) of the position at `price`. */
export function pnlAndRoe(
  p: TradePosition,
  price: string,
  margin: string = positionMargin(p),
): { pnl: string; roe: string } {
  const pnl = unrealizedPnl({
    direction: p.trade_direction,
    quantity: p.trade_quantity,
    entryPrice: p.trade_open_price,
    currentPrice: price,
  });
  return { pnl, roe: roundDecimal(roePercent(pnl, margin), PERCENT_DECIMALS) };
}

/** Direction of a price change for the price-direction indicator: 1 up, -1 down, 0 unchanged or first. */
export function priceDirection(previous: string | null | undefined, next: string): -1 | 0 | 1 {
  return previous ? compareDecimals(next, previous) : 0;
}

/** A percent preference as a 2-decimal string (−10 → "-10.00"). */
export const percentText = (value: number | string): string => roundDecimal(value, PERCENT_DECIMALS);

/** The trailing level at the open: −trade_stop_loss_percent (contracts/trades.ts). */
export const initialTrailingLevel = (stopLossPercent: number): string => percentText(-stopLossPercent);

/**
 * max(level, roe − trailing %) once roe − trailing % has reached 0: the trailing stop activates when the gain
 * reaches the trailing percent (from then on it protects at least break-even), then rises with the best ROE
 * and is never lowered. Before that the level stays −stop loss % (the exchange-side stop).
 */
export function raiseTrailingLevel(level: string, roe: string, trailingPercent: number): string {
  const candidate = subDecimals(roe, percentText(trailingPercent));
  if (compareDecimals(candidate, 0) < 0) return level;
  return compareDecimals(candidate, level) > 0 ? percentText(candidate) : level;
}

/**
 * The price at which the position's ROE is `roe` percent: entry × (1 ± roe ÷ (100 × leverage)), + for BUY,
 * rounded half away from zero to the symbol's price precision.
 */
export function priceAtRoe(p: TradePosition, roe: string | number, pricePrecision: number): string {
  const signed = p.trade_direction === 'BUY' ? String(roe) : mulDecimals(roe, -1);
  const move = divDecimals(
    mulDecimals(p.trade_open_price, signed),
    mulDecimals(100, p.trade_leverage),
    WORKING_DECIMALS,
  );
  return roundDecimal(addDecimals(p.trade_open_price, move), pricePrecision);
}

/** The exchange-side stop price of SPEC.md §5 (used when a trade's stop price was never learned). */
export const expectedStopPrice = (
  p: TradePosition & { trade_stop_loss_percent: number },
  pricePrecision: number,
): string =>
  stopPrice({
    direction: p.trade_direction,
    entryPrice: p.trade_open_price,
    stopLossPercent: p.trade_stop_loss_percent,
    leverage: p.trade_leverage,
    pricePrecision,
  });

// ------------------------------------------------------------------------------ the cockpit (issue 18)
// docs/decisions.md "The cockpit — fees and liquidation (issue 18)".

/** Commissions are USDT amounts with 8 decimals, as the exchange charges them (paper-exchange/src/execution.ts). */
export const COMMISSION_DECIMALS = 8;

/**
 * The taker rate of the opening fill: its commission ÷ its notional (quantity × entry), to 8 decimals. A MARKET
 * order fills as taker; the exchange rounded the commission to 8 decimals, which this rounding undoes for any
 * rate of up to 8 decimals on a notional of at least 1 USDT (Binance's minimum is 5).
 */
export function takerRateOf(openCommission: string, p: TradePosition): string {
  return divDecimals(openCommission, notional(p.trade_quantity, p.trade_open_price), COMMISSION_DECIMALS);
}

/** What the closing commission and the net figures of a trade are made of; fixed for the trade's life. */
export interface TradeFees {
  /** The opening fill's commission (USDT). */
  open: string;
  /** takerRateOf × quantity: the closing commission is this × the price, rounded to 8 decimals. */
  ratePerPrice: string;
}

/** The trade's fees, or undefined when its opening commission is unknown. */
export function tradeFees(openCommission: string | null, p: TradePosition): TradeFees | undefined {
  if (openCommission === null) return undefined;
  return {
    open: openCommission,
    ratePerPrice: mulDecimals(takerRateOf(openCommission, p), p.trade_quantity),
  };
}

/** The commission a closing fill at `price` would be charged: taker rate × quantity × price, 8 decimals. */
export const closeCommissionAt = (fees: TradeFees, price: string): string =>
  roundDecimal(mulDecimals(fees.ratePerPrice, price), COMMISSION_DECIMALS);

/** PNL net of both commissions (USDT, exact) and its ROE on the position's margin (percent, 2 decimals). */
export function netPnlAndRoe(
  pnl: string,
  openCommission: string,
  closeCommission: string,
  margin: string,
): { pnlNet: string; roeNet: string } {
  const pnlNet = subDecimals(pnl, addDecimals(openCommission, closeCommission));
  return { pnlNet, roeNet: roundDecimal(roePercent(pnlNet, margin), PERCENT_DECIMALS) };
}

/**
 * The isolated liquidation price of the trade's own position (binance-fapi.md §12, trade-core): its wallet is
 * the margin the exchange assigned it (quantity × entry ÷ leverage, positionMargin), its maintenance rate and
 * amount those of the bracket of its notional at the open; "0" when it cannot be liquidated (e.g. a long at 1×).
 * Undefined without a bracket.
 */
export function liquidationOf(
  p: TradePosition,
  maint: { rate: string | null; amount: string | null },
  pricePrecision: number,
): string | undefined {
  if (maint.rate === null || maint.amount === null) return undefined;
  return liquidationPrice({
    direction: p.trade_direction,
    quantity: p.trade_quantity,
    entryPrice: p.trade_open_price,
    walletBalance: positionMargin(p),
    maintMarginRate: maint.rate,
    maintAmount: maint.amount,
    pricePrecision,
  });
}

// ------------------------------------------------------------------------------ numbers that fit (issue 52)

/**
 * Why trade-core cannot price this position, or undefined when it can: every formula a row meets for its life
 * — its margin (the divisor of every ROE, so it must not round to 0), the PNL and ROE at its entry and at its
 * stop, the stop and take-profit prices, the fees at both — runs once here. A route refuses such a record before
 * it is stored (routes/trade_client), and the monitor leaves a stored one out instead of failing its start
 * (engine/trade-monitor.ts). The contracts' digit bounds (contracts/trades.ts tradeAmount) keep ordinary input
 * inside; this catches what their combination still breaks (a margin of 0, a product out of range).
 */
export function pricingProblem(
  p: TradePosition & { trade_stop_loss_percent: number; trade_take_profit_percent: number },
  prices: { stop?: string | null; openCommission?: string | null; pricePrecision: number },
): string | undefined {
  try {
    const margin = positionMargin(p);
    if (compareDecimals(margin, 0) <= 0) return 'the position’s margin rounds to 0';
    const stop = prices.stop ?? expectedStopPrice(p, prices.pricePrecision);
    const takeProfit = priceAtRoe(p, p.trade_take_profit_percent, prices.pricePrecision);
    const fees = tradeFees(prices.openCommission ?? null, p);
    for (const price of [p.trade_open_price, stop, takeProfit]) {
      const { pnl } = pnlAndRoe(p, price, margin);
      if (fees) netPnlAndRoe(pnl, fees.open, closeCommissionAt(fees, price), margin);
    }
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
