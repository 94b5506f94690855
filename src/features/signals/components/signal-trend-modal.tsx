import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loader, Modal, ModalSize } from '../../../components/ui';
import { loadSignalDetail } from '../signals-store';
import { SIGNAL_DETAIL_PARAM } from './signal-card';
import './signals.css';
import { useDetailParam } from '../../../lib/use-detail-param';

// The body draws a nivo chart: loaded when the modal first opens, never in the initial bundle.
const SignalTrendContent = lazy(() =>
  import('./signal-trend-content').then((module) => ({ default: module.SignalTrendContent })),
);

/**
 * 'Signal Trend Data' (SPEC.md §2): a wide modal that is open while ?signal_detail_uuid is in the address;
 * closing removes the parameter. Each opening reads the signal's trend data and history.
 */
export function SignalTrendModal() {
  const { t } = useTranslation();
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
