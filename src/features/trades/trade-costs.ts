// The cockpit's figures of an open trade that move with the price (issue 18): the distance from the current
// price to the liquidation price. The liquidation price, the commissions and the net PNL/ROE come from the
// server (trade-core, server/src/services/trade-costs.ts); this is trade-core's exact decimal math too.
import type { Trade } from '../../../contracts';
import { compareDecimals, divDecimals, mulDecimals, subDecimals } from '../../../shared-core/trade-core';

/** Places of the distance to liquidation, percent. */
export const LIQUIDATION_DISTANCE_DECIMALS = 2;

/**
 * How far the price may move against the trade before it is liquidated, in percent of the current price:
 * (current − liquidation) ÷ current × 100 for a long, (liquidation − current) ÷ current × 100 for a short.
 * Undefined when there is no liquidation price ("0": the position cannot be liquidated, or it is unknown).
 */
export function liquidationDistancePercent(
  trade: Pick<Trade, 'trade_direction' | 'trade_current_price' | 'trade_liquidation_price'>,
): string | undefined {
  const liquidation = trade.trade_liquidation_price;
  const current = trade.trade_current_price;
  if (!liquidation || compareDecimals(liquidation, '0') <= 0 || compareDecimals(current, '0') <= 0) {
    return undefined;
  }
  const move =
    trade.trade_direction === 'SELL' ? subDecimals(liquidation, current) : subDecimals(current, liquidation);
  return divDecimals(mulDecimals(move, '100'), current, LIQUIDATION_DISTANCE_DECIMALS);
}
