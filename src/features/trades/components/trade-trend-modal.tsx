import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loader, Modal, ModalSize } from '../../../components/ui';
import { loadTradeDetail } from '../trades-store';
import { TRADE_DETAIL_PARAM } from './open-trades-table';
import './trades.css';
import { usePreloadWhenIdle } from '../../../lib/preload-when-idle';
import { useDetailParam } from '../../../lib/use-detail-param';
import { lazyChunk } from '../../../lib/lazy-chunk';

// The body draws the shared nivo price chart: never in the initial bundle; loaded when the page is idle (or when
// the modal first opens, if that comes first).
const loadTradeTrendContent = () => import('./trade-trend-content');
const TradeTrendContent = lazyChunk(() =>
  loadTradeTrendContent().then((module) => ({ default: module.TradeTrendContent })),
);

/**
 * 'Trade Trend Data' (SPEC.md §2 Trading screen): a wide modal open while ?trade_detail_uuid is in the
 * address, built like 'Signal Trend Data'; closing removes the parameter. Each opening reads the trend again.
 */
export function TradeTrendModal() {
  const { t } = useTranslation();
  usePreloadWhenIdle(loadTradeTrendContent);
  const { value: tradeUuid, close } = useDetailParam(TRADE_DETAIL_PARAM);
  // The last uuid stays shown while the modal plays its closing state.
  const [shownUuid, setShownUuid] = useState(tradeUuid);
  if (tradeUuid !== undefined && tradeUuid !== shownUuid) setShownUuid(tradeUuid);

  useEffect(() => {
    if (tradeUuid) void loadTradeDetail(tradeUuid);
  }, [tradeUuid]);

  return (
    <Modal
      isOpen={tradeUuid !== undefined}
      onClose={close}
      title={t('trades.modal_title')}
      size={ModalSize.XL}
    >
      {shownUuid ? (
        <Suspense fallback={<Loader fill />}>
          <TradeTrendContent tradeUuid={shownUuid} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
