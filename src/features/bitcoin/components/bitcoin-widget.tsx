import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { DirectionIcon, Loader, Modal, ModalSize, trendPalette } from '../../../components/ui';
import { BITCOIN_PRICE_DECIMALS, TREND_DECIMALS } from '../../../config/constants';
import { formatFixed, formatGrouped } from '../../../lib/format';
import { bitcoinStore, loadBitcoinTrendData } from '../bitcoin-store';
import './bitcoin.css';
import { lazyChunk } from '../../../lib/lazy-chunk';

// The modal's content draws a nivo chart: loaded on first open, so nivo stays out of the initial bundle.
const BitcoinInformationContent = lazyChunk(() =>
  import('./bitcoin-information-content').then((module) => ({ default: module.BitcoinInformationContent })),
);

/**
 * Header widget (SPEC.md §2): the current bitcoin price (0 decimals) and the trend prediction (absolute, 2
 * decimals, coloured by its tier: trend.ts), each opening the large 'Bitcoin Public Information' modal; opening reads the trend data again.
 */
export function BitcoinWidget() {
  const { t } = useTranslation();
  const { information } = useSnapshot(bitcoinStore);
  const [isOpen, setIsOpen] = useState(false);
  if (!information) return null;
  const open = () => {
    setIsOpen(true);
    void loadBitcoinTrendData();
  };
  return (
    <div className="bitcoin-widget">
      <button
        type="button"
        className="chip"
        title={t('bitcoin.current_price_tooltip')}
        onClick={open}
        data-testid="bitcoin-price"
      >
        <span aria-hidden="true">₿</span>
        <span className="numeric">{formatGrouped(information.current_price, BITCOIN_PRICE_DECIMALS)} $</span>
      </button>
      <button
        type="button"
        className={`chip trend-chip palette-${trendPalette(information.trend_prediction)}`}
        title={t('bitcoin.trend_prediction_tooltip')}
        onClick={open}
        data-testid="bitcoin-trend"
      >
        {/* Issue 40: the number is the model's prediction, not the 24 h change it looks like: it says so. */}
        <span className="bitcoin-forecast-label">{t('bitcoin.forecast_label')}</span>
        {/* Issue 53: the forecast's own sign beside its absolute value (SPEC.md §2), not trend_moment's. */}
        <DirectionIcon direction={Math.sign(information.trend_prediction)} />
        <span className="numeric">
          {formatFixed(Math.abs(information.trend_prediction), TREND_DECIMALS)} %
        </span>
      </button>
      <Modal
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
        title={t('bitcoin.modal_title')}
        size={ModalSize.L}
      >
        <Suspense fallback={<Loader fill />}>
          <BitcoinInformationContent />
        </Suspense>
      </Modal>
    </div>
  );
}
