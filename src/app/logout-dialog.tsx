// Logout clears this browser's storage (SPEC.md §4), and with it the client-mode trade tokens: an open
// client-mode trade could then be closed only after the same key is added again (issue 36). With such trades
// open, logout says so first and offers to close them.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { TradeSide } from '../../contracts';
import { Modal, ModalSize } from '../components/ui';
import { closeTrade } from '../features/trades/trades-actions';
import { tradesStore } from '../features/trades/trades-store';

/** The open client-mode trades this browser alone can close. */
export function openClientTradeUuids(): string[] {
  return Object.values(tradesStore.trade_by_uuid_dict)
    .filter((trade) => trade.trade_in_server_side === TradeSide.CLIENT)
    .map((trade) => trade.trade_uuid);
}

export function LogoutDialog({
  isOpen,
  onCancel,
  onLogout,
}: {
  isOpen: boolean;
  onCancel: () => void;
  onLogout: () => void;
}) {
  const { t } = useTranslation();
  useSnapshot(tradesStore);
  const open = openClientTradeUuids();
  const [isClosing, setIsClosing] = useState(false);
  const [failed, setFailed] = useState(false);
  const closeAllThenLogout = async () => {
    setIsClosing(true);
    setFailed(false);
    let allClosed = true;
    for (const tradeUuid of openClientTradeUuids()) allClosed = (await closeTrade(tradeUuid)) && allClosed;
    setIsClosing(false);
    if (allClosed && openClientTradeUuids().length === 0) onLogout();
    else setFailed(true);
  };
  return (
    <Modal isOpen={isOpen} onClose={onCancel} title={t('logout_dialog.title')} size={ModalSize.S}>
      <div className="logout-dialog" data-testid="logout-dialog">
        <p>{t('logout_dialog.text', { count: open.length })}</p>
        {failed ? (
          <p className="form-error" role="alert">
            {t('logout_dialog.not_all_closed')}
          </p>
        ) : null}
        <div className="pin-request-actions">
          <button type="button" className="button is-ghost" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button is-ghost" onClick={onLogout} data-testid="logout-anyway">
            {t('logout_dialog.anyway')}
          </button>
          <button
            type="button"
            className="button is-primary"
            disabled={isClosing || open.length === 0}
            onClick={() => void closeAllThenLogout()}
            data-testid="logout-close-first"
          >
            {t('logout_dialog.close_first')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
