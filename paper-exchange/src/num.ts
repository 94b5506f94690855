// Exact decimal arithmetic for every price, quantity, balance, fee and PNL inside the exchange.
// A private Decimal clone, so the settings never leak into other parts of the process that use decimal.js.
import DecimalJs from 'decimal.js';

export const D = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Dec = InstanceType<typeof D>;

export const ZERO = new D(0);
export const ONE = new D(1);

/** Parses an exact decimal; undefined for anything that is not a plain decimal number string. */
export function parseDecimal(text: string): Dec | undefined {
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
  return new D(text);
}

export function dec(value: Dec | string | number): Dec {
  return value instanceof D ? value : new D(value);
}

/** Fixed decimals, the way Binance prints its string numbers ("0.00000000"). */
export function fixed(value: Dec | string | number, decimals: number): string {
  return dec(value).toFixed(decimals, D.ROUND_HALF_UP);
}

/** Number of decimals a filter value carries ("0.0100" → 2 significant decimals for tick 0.01). */
export function decimalsOf(step: string): number {
  const d = new D(step);
  return d.decimalPlaces();
}

/** True when value is a whole multiple of step (step 0 disables the rule, as in Binance's filters). */
export function isMultiple(value: Dec, step: Dec, base: Dec = ZERO): boolean {
  if (step.isZero()) return true;
  return value.minus(base).mod(step).isZero();
}

export function floorTo(value: Dec, step: Dec): Dec {
  return value.div(step).floor().times(step);
}

export function ceilTo(value: Dec, step: Dec): Dec {
  return value.div(step).ceil().times(step);
}

export function roundTo(value: Dec, step: Dec): Dec {
  return value.div(step).toDecimalPlaces(0, D.ROUND_HALF_UP).times(step);
}

export function maxDec(a: Dec, b: Dec): Dec {
  return a.greaterThan(b) ? a : b;
}

export function minDec(a: Dec, b: Dec): Dec {
  return a.lessThan(b) ? a : b;
}
