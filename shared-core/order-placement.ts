// Whether the exchange would take a trade's market order (issue 53): the quantity a margin and leverage make
// at a price (SPEC.md §5, orderQuantity) against the symbol's filters (LOT_SIZE minQty, the market order's
// maxQty, MIN_NOTIONAL), and the smallest margin that passes. All in trade-core's exact decimals, composed
// from its primitives. The signal card and auto-open ask with a price allowance (the price moves between the
// card and the order); the open itself asks at the live price with none, refusing only what must fail.
// The leverage bracket is not checked here: its table needs a signed read (binance-fapi.md §7).
import { PLATFORM_PREFERENCE_BOUNDS } from '../contracts/preferences';
import {
  addDecimals,
  compareDecimals,
  divDecimals,
  mulDecimals,
  notional,
  orderQuantity,
  roundDecimal,
  subDecimals,
  type DecimalText,
} from './trade-core';

type D = string | number;

export interface OrderFilters {
  symbol_quantity_precision: number;
  symbol_min_quantity?: string | null;
  symbol_max_quantity?: string | null;
  symbol_min_notional?: string | null;
}

export const PlacementProblem = {
  /** The quantity is below minQty or its notional below MIN_NOTIONAL: more margin would do. */
  TOO_SMALL: 'too_small',
  /** The quantity is above the market order's maxQty: less margin (or leverage) would do. */
  TOO_LARGE: 'too_large',
} as const;
export type PlacementProblem = (typeof PlacementProblem)[keyof typeof PlacementProblem];

export interface Placement {
  quantity: DecimalText;
  notional: DecimalText;
  /** Absent when the order passes every filter. */
  problem?: PlacementProblem;
  /**
   * The smallest margin on the margin preference's step (0.25 $, at least its minimum) that passes at every
   * price within the allowance; absent when it is above the preference's maximum.
   */
  minimum_margin?: DecimalText;
}

const MARGIN = PLATFORM_PREFERENCE_BOUNDS.trade_margin;
/** Places kept by the intermediate divisions. */
const WORKING_DECIMALS = 18;

/** The price allowance of a card and of auto-open: 1 % either way of the price they see. */
export const PLACEMENT_PRICE_ALLOWANCE_PERCENT = 1;

/** The smallest multiple of `step` that is ≥ value (value ≥ 0). */
function ceilToStep(value: D, step: D): DecimalText {
  const steps = divDecimals(value, step, 0, 'toward-zero');
  const floor = mulDecimals(steps, step);
  return compareDecimals(floor, value) < 0 ? addDecimals(floor, step) : floor;
}

const stepOf = (precision: number): DecimalText => divDecimals(1, 10 ** precision, precision);

/** The smallest quantity the filters allow at `price`: minQty, or MIN_NOTIONAL ÷ price up to the step. */
function smallestQuantity(filters: OrderFilters, price: D): DecimalText {
  const step = stepOf(filters.symbol_quantity_precision);
  const byNotional = filters.symbol_min_notional
    ? ceilToStep(
        divDecimals(filters.symbol_min_notional, price, WORKING_DECIMALS, 'half-away-from-zero'),
        step,
      )
    : step;
  const minimum = filters.symbol_min_quantity ?? step;
  return compareDecimals(byNotional, minimum) > 0 ? byNotional : minimum;
}

/**
 * The quantity and notional of a market order with `margin` × `leverage` at `price`, whether the filters take
 * it at every price within ±`allowancePercent` %, and the smallest margin that would.
 */
export function orderPlacement(input: {
  margin: D;
  leverage: D;
  price: D;
  filters: OrderFilters;
  allowancePercent?: number;
}): Placement {
  const { margin, leverage, price, filters } = input;
  const allowance = input.allowancePercent ?? 0;
  const quantity = orderQuantity({
    margin,
    leverage,
    entryPrice: price,
    quantityPrecision: filters.symbol_quantity_precision,
  });
  const placement: Placement = { quantity, notional: notional(quantity, price) };
  const prices =
    allowance > 0
      ? [
          mulDecimals(price, divDecimals(subDecimals(100, allowance), 100, WORKING_DECIMALS)),
          String(price),
          mulDecimals(price, divDecimals(addDecimals(100, allowance), 100, WORKING_DECIMALS)),
        ]
      : [String(price)];
  // margin ≥ q*(p) × p ÷ leverage makes orderQuantity at p at least q*(p): the largest over the prices.
  const needed = prices
    .map((p) => divDecimals(mulDecimals(smallestQuantity(filters, p), p), leverage, WORKING_DECIMALS))
    .reduce((a, b) => (compareDecimals(a, b) >= 0 ? a : b));
  const minimum = ceilToStep(needed, MARGIN.step);
  const smallest = compareDecimals(minimum, MARGIN.min) < 0 ? String(MARGIN.min) : minimum;
  if (compareDecimals(smallest, MARGIN.max) <= 0) placement.minimum_margin = roundDecimal(smallest, 2);
  if (compareDecimals(margin, needed) < 0) placement.problem = PlacementProblem.TOO_SMALL;
  else if (filters.symbol_max_quantity && compareDecimals(quantity, filters.symbol_max_quantity) > 0) {
    placement.problem = PlacementProblem.TOO_LARGE;
  }
  return placement;
}
