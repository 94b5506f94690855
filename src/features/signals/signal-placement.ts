// Whether a signal's trade is placeable with the trader's settings (issue 53): the signal card, auto-open and
// the open itself ask shared-core's orderPlacement with the platform's margin and leverage and the symbol's
// filters. The card and auto-open ask at the latest price the page has (else the signal's entry) with a 1 %
// allowance (the price moves before the order); the open asks with none, refusing only what must fail.
import type { TFunction } from 'i18next';
import type { PlatformPreferences, Signal, SymbolInfo } from '../../../contracts';
import type { LeverageBracket } from '../../../shared-core/exchange-types';
import {
  PLACEMENT_PRICE_ALLOWANCE_PERCENT,
  PlacementProblem,
  orderPlacement,
  type Placement,
} from '../../../shared-core/order-placement';

export { PlacementProblem, type Placement };

/** What the card and auto-open ask (the signal's entry, the allowance); undefined while anything is unknown. */
export function signalPlacement(
  signal: Pick<Signal, 'signal_price_enter'>,
  preferences: Pick<PlatformPreferences, 'trade_margin' | 'trade_leverage'> | undefined,
  symbol: SymbolInfo | undefined,
  options: {
    price?: string | number;
    allowancePercent?: number;
    /** The account's brackets for the symbol (stores/brackets-store.ts), when read. */
    brackets?: readonly LeverageBracket[];
  } = {},
): Placement | undefined {
  if (!preferences || !symbol) return undefined;
  return orderPlacement({
    margin: preferences.trade_margin,
    leverage: preferences.trade_leverage,
    price: options.price ?? signal.signal_price_enter,
    filters: symbol,
    allowancePercent: options.allowancePercent ?? PLACEMENT_PRICE_ALLOWANCE_PERCENT,
    ...(options.brackets && { brackets: options.brackets }),
  });
}

/**
 * The one click's margin that the exchange takes (issue 53): the smallest that passes a refused small order,
 * the largest within the leverage's bracket; undefined when there is none or none is needed.
 */
export function fittingMargin(placement: Placement | undefined): string | undefined {
  if (placement?.problem === PlacementProblem.TOO_SMALL) return placement.minimum_margin;
  if (placement?.problem === PlacementProblem.ABOVE_BRACKET) return placement.maximum_margin;
  return undefined;
}

/** Placeable, or not known to be refused (settings or symbol not known yet: the exchange decides). */
export const isPlaceable = (placement: Placement | undefined): boolean => placement?.problem === undefined;

/** Why the exchange would refuse it and what margin would do, in the trader's language. */
export function placementLine(
  t: TFunction,
  placement: Placement,
  leverage: number,
  symbol: Pick<SymbolInfo, 'symbol_name' | 'symbol_min_notional' | 'symbol_max_quantity'>,
): string {
  if (placement.problem === PlacementProblem.ABOVE_BRACKET) {
    return placement.maximum_margin !== undefined
      ? t('signal.placement.above_bracket', {
          margin: placement.maximum_margin,
          leverage,
          notional: placement.maximum_notional ?? '',
        })
      : t('signal.placement.above_bracket_at_any_margin', { leverage });
  }
  if (placement.problem === PlacementProblem.TOO_LARGE) {
    return t('signal.placement.too_large', {
      max: symbol.symbol_max_quantity ?? '',
      asset: symbol.symbol_name,
    });
  }
  const minimum = symbol.symbol_min_notional ?? '—';
  return placement.minimum_margin !== undefined
    ? t('signal.placement.too_small', { margin: placement.minimum_margin, leverage, notional: minimum })
    : t('signal.placement.too_small_at_any_margin', { leverage, notional: minimum });
}
