// Display formatting (SPEC.md §9 decimals). Rounding goes through trade-core's exact decimal rounding,
// never through binary floating point (Number.prototype.toFixed rounds 1.005 to "1.00").
import { roundDecimal } from './trade-core';

/** `value` rounded half away from zero to `decimals` places, as a fixed-point string. */
export function formatFixed(value: number | string, decimals: number): string {
  return roundDecimal(value, decimals);
}
