import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, ModalSize } from '../../../components/ui';
import { repairFailureText, repairTradeErrors } from '../trade-repair';
import './trades.css';

type RepairState =
  | { phase: 'idle' }
  | { phase: 'running' }
  | { phase: 'done'; count: number }
  | { phase: 'failed'; text: string };

/**
 * 'Repair error trades' (SPEC.md §2 Trade preferences): a 'Repair' button, a confirm modal, then the count of
 * repaired trades or the failure in red.
 */
export function RepairTradesBox() {
  const { t } = useTranslation();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [state, setState] = useState<RepairState>({ phase: 'idle' });

  const repair = async () => {
    setConfirmOpen(false);
    setState({ phase: 'running' });
    try {
      setState({ phase: 'done', count: await repairTradeErrors() });
    } catch (error) {
      console.error(error);
      setState({ phase: 'failed', text: repairFailureText(error, t) });
    }
  };

  const isRunning = state.phase === 'running';
  return (
    <section className="panel repair-box" aria-labelledby="repair-box-title" data-testid="repair-box">
      <div className="panel-header">
        <h2 id="repair-box-title" className="panel-title">
          {t('repair.title')}
        </h2>
      </div>
      <div className="panel-body">
        <p className="muted repair-help">{t('repair.help')}</p>
        <button
          type="button"
          className="button"
          onClick={() => setConfirmOpen(true)}
          disabled={isRunning}
          aria-busy={isRunning}
          data-testid="repair-button"
        >
          {isRunning ? t('repair.running') : t('repair.button')}
        </button>
        {state.phase === 'done' ? (
          <p className="repair-result" role="status" data-testid="repair-result">
            {t('repair.result', { count: state.count })}
          </p>
        ) : null}
        {state.phase === 'failed' ? (
          <p className="form-error" role="alert" data-testid="repair-error">
            {state.text}
          </p>
        ) : null}
      </div>
      <Modal
        isOpen={isConfirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={t('repair.title')}
        size={ModalSize.S}
        footer={
          <>
            <button type="button" className="button" onClick={() => setConfirmOpen(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button is-primary"
              onClick={() => void repair()}
              data-testid="repair-confirm"
            >
              {t('repair.button')}
            </button>
          </>
        }
      >
        <p>{t('repair.confirm')}</p>
      </Modal>
    </section>
  );
}
