// Display formatting (SPEC.md §9 decimals). Rounding goes through trade-core's exact decimal rounding,
// never through binary floating point (Number.prototype.toFixed rounds 1.005 to "1.00").
import { mulDecimals, roundDecimal } from '../../shared-core/trade-core';

/** `value` rounded half away from zero to `decimals` places, as a fixed-point string. */
export function formatFixed(value: number | string, decimals: number): string {
  return roundDecimal(value, decimals);
}

/** Like formatFixed, with the integer digits grouped by threes with a space: 97123.4 → '97 123'. */
export function formatGrouped(value: number | string, decimals: number): string {
  const fixed = formatFixed(value, decimals);
  const [whole = '', fraction] = fixed.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/** A fraction (0.6789) as a percent with `decimals` places ('67.89'), computed in exact decimals. */
export function formatFractionAsPercent(fraction: number, decimals: number): string {
  return formatFixed(mulDecimals(fraction, 100), decimals);
}
