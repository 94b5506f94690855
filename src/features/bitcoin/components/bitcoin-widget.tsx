import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatFixed } from '../../../lib/format';
import { bitcoinStore } from '../bitcoin-store';

/** Header widget: current bitcoin price (0 decimals) and trend prediction (absolute, 2 decimals), SPEC.md §2. */
export function BitcoinWidget() {
  const { t } = useTranslation();
  const { information } = useSnapshot(bitcoinStore);
  if (!information) return null;
  const trendClass = information.trend_moment > 0 ? 'up' : information.trend_moment < 0 ? 'down' : 'flat';
  return (
    <div className="bitcoin-widget">
      <button type="button" className="chip" title={t('bitcoin.current_price_tooltip')} data-testid="bitcoin-price">
        ₿ {formatFixed(information.current_price, 0)} $
      </button>
      <button
        type="button"
        className={`chip trend-${trendClass}`}
        title={t('bitcoin.trend_prediction_tooltip')}
        data-testid="bitcoin-trend"
      >
        {formatFixed(Math.abs(information.trend_prediction), 2)} %
      </button>
    </div>
  );
}
