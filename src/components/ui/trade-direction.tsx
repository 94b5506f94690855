import { useTranslation } from 'react-i18next';
import { SignalDirection } from '../../../contracts';
import { compareDecimals } from '../../../shared-core/trade-core';

/** Green for 0 and above, red below (exact comparison of the decimal string; SPEC.md §9 PNL colours). */
export function signTone(value: string): 'is-positive' | 'is-negative' {
  return compareDecimals(value, 0) >= 0 ? 'is-positive' : 'is-negative';
}

/** BUY / SELL with their colour; anything else (history) reads FLET. */
export function TradeDirection({ direction }: { direction: string }) {
  const { t } = useTranslation();
  const known = direction === SignalDirection.BUY || direction === SignalDirection.SELL;
  const tone = direction === SignalDirection.BUY ? 'is-buy' : known ? 'is-sell' : 'is-flet';
  return (
    <span className={`trade-direction ${tone}`} data-testid="trade-direction">
      {known ? t(`trades.direction.${direction}`) : t('trades.direction.FLET')}
    </span>
  );
}
