import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loader, Modal, ModalSize } from '../../../components/ui';
import { loadSignalDetail } from '../signals-store';
import { SIGNAL_DETAIL_PARAM } from './signal-card';
import './signals.css';
import { usePreloadWhenIdle } from '../../../lib/preload-when-idle';
import { useDetailParam } from '../../../lib/use-detail-param';
import { lazyChunk } from '../../../lib/lazy-chunk';

// The body draws a nivo chart: never in the initial bundle; loaded when the page is idle (or when the modal
// first opens, if that comes first).
const loadSignalTrendContent = () => import('./signal-trend-content');
const SignalTrendContent = lazyChunk(() =>
  loadSignalTrendContent().then((module) => ({ default: module.SignalTrendContent })),
);

/**
 * 'Signal Trend Data' (SPEC.md §2): a wide modal that is open while ?signal_detail_uuid is in the address;
 * closing removes the parameter. Each opening reads the signal's trend data and history.
 */
export function SignalTrendModal() {
  const { t } = useTranslation();
  usePreloadWhenIdle(loadSignalTrendContent);
  const { value: signalUuid, close } = useDetailParam(SIGNAL_DETAIL_PARAM);
  // The last uuid stays shown while the modal plays its closing state.
  const [shownUuid, setShownUuid] = useState(signalUuid);
  if (signalUuid !== undefined && signalUuid !== shownUuid) setShownUuid(signalUuid);

  useEffect(() => {
    if (signalUuid) void loadSignalDetail(signalUuid);
  }, [signalUuid]);

  return (
    <Modal
      isOpen={signalUuid !== undefined}
      onClose={close}
      title={t('signal.modal_title')}
      size={ModalSize.XL}
    >
      {shownUuid ? (
        <Suspense fallback={<Loader fill />}>
          <SignalTrendContent signalUuid={shownUuid} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
