// Whether the exchange would take a trade's market order (issue 53): the quantity a margin and leverage make
// at a price (SPEC.md §5, orderQuantity) against the symbol's filters (LOT_SIZE minQty, the market order's
// maxQty, MIN_NOTIONAL), and the smallest margin that passes. All in trade-core's exact decimals, composed
// from its primitives. The signal card and auto-open ask with a price allowance (the price moves between the
// card and the order); the open itself asks at the live price with none, refusing only what must fail.
// With the account's leverage brackets (a signed read, binance-fapi.md §7) the notional is also held to the
// largest position the leverage allows (-2027).
import { PLATFORM_PREFERENCE_BOUNDS } from '../contracts/preferences';
import type { LeverageBracket } from './exchange-types';
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
  /**
   * The position would be above the largest notional the leverage bracket allows at this leverage (-2027):
   * less margin (`maximum_margin`) or a lower leverage would do.
   */
  ABOVE_BRACKET: 'above_bracket',
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
  /** ABOVE_BRACKET: the largest notional the leverage allows (USDT; "0" when no bracket allows it). */
  maximum_notional?: DecimalText;
  /** ABOVE_BRACKET: the largest margin on the step that stays within it at every price of the allowance. */
  maximum_margin?: DecimalText;
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
 * The largest position notional `leverage` allows: the largest notionalCap among the brackets whose
 * initialLeverage is ≥ it ("0" when none is; the exchange refuses such an order with -2027); undefined when
 * the brackets do not say their leverage.
 */
export function maxNotionalAtLeverage(
  brackets: readonly LeverageBracket[],
  leverage: D,
): DecimalText | undefined {
  if (brackets.length === 0 || brackets.some((bracket) => bracket.initialLeverage === undefined))
    return undefined;
  let cap: DecimalText = '0';
  for (const bracket of brackets) {
    if (
      compareDecimals(bracket.initialLeverage!, leverage) >= 0 &&
      compareDecimals(bracket.notionalCap, cap) > 0
    )
      cap = bracket.notionalCap;
  }
  return cap;
}

/** The largest multiple of `step` that is ≤ value (value ≥ 0). */
function floorToStep(value: D, step: D): DecimalText {
  return mulDecimals(divDecimals(value, step, 0, 'toward-zero'), step);
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
  /** The account's brackets for the symbol, when read: the notional is also held to the leverage's cap. */
  brackets?: readonly LeverageBracket[];
  /** The position already held on the symbol (its size, ≥ 0), which the exchange counts with the order. */
  heldQuantity?: D;
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
  const cap = input.brackets && maxNotionalAtLeverage(input.brackets, leverage);
  if (cap !== undefined && placement.problem === undefined) {
    // The exchange holds the position after the order to the cap, at its price: the highest of the allowance.
    const highest = prices[prices.length - 1]!;
    const held = input.heldQuantity ?? 0;
    const after = mulDecimals(addDecimals(held, quantity), highest);
    if (compareDecimals(after, cap) > 0) {
      placement.problem = PlacementProblem.ABOVE_BRACKET;
      placement.maximum_notional = cap;
      // margin × leverage ÷ p, down to the step, times p stays ≤ margin × leverage; the order fills up to the
      // allowance above the price it was sized at: the room left ÷ (leverage × (1 + allowance)).
      const room = subDecimals(cap, mulDecimals(held, highest));
      const per = mulDecimals(leverage, divDecimals(addDecimals(100, allowance), 100, WORKING_DECIMALS));
      const largest =
        compareDecimals(room, 0) > 0
          ? floorToStep(divDecimals(room, per, WORKING_DECIMALS), MARGIN.step)
          : '0';
      if (compareDecimals(largest, MARGIN.min) >= 0 && compareDecimals(largest, margin) < 0)
        placement.maximum_margin = roundDecimal(largest, 2);
    }
  }
  return placement;
}
