// Close (×) on an open trade asks first (issue 39): a market order closes the whole position, and a mis-click
// next to the chart button must not do that. The question names the trade and its PNL now; a tick turns on
// one-click close (trade_one_click_close, also in Trade Preferences), after which Close acts at once.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Modal, ModalSize } from '../../../components/ui';
import { PNL_DECIMALS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { closeTrade } from '../trades-actions';
import { closeConfirmStore, tradesStore } from '../trades-store';
import { preferencesStore, saveTradePreferences } from '../../../stores/preferences-store';

export function CloseConfirmDialog() {
  const { t } = useTranslation();
  const { trade_uuid } = useSnapshot(closeConfirmStore);
  const trades = useSnapshot(tradesStore.trade_by_uuid_dict);
  const trade = trade_uuid ? trades[trade_uuid] : undefined;
  const [oneClick, setOneClick] = useState(false);
  const dismiss = () => {
    closeConfirmStore.trade_uuid = null;
    setOneClick(false);
  };
  const confirm = () => {
    if (!trade) return;
    const tradeUuid = trade.trade_uuid;
    const preferences = preferencesStore.trade_preferences;
    if (oneClick && preferences) void saveTradePreferences({ ...preferences, trade_one_click_close: 1 });
    dismiss();
    void closeTrade(tradeUuid);
  };
  return (
    <Modal
      isOpen={trade !== undefined}
      onClose={dismiss}
      title={t('trades.confirm_close.title')}
      size={ModalSize.S}
      footer={
        <>
          <button type="button" className="button is-ghost" onClick={dismiss}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button is-danger" onClick={confirm} data-testid="close-confirm">
            {t('trades.confirm_close.confirm')}
          </button>
        </>
      }
    >
      <div className="close-confirm" data-testid="close-confirm-dialog">
        <p>
          {/* Issue 53: the net beside the gross, as the row shows it (a gross gain can be a net loss). */}
          {trade
            ? t(trade.trade_pnl_net != null ? 'trades.confirm_close.body_net' : 'trades.confirm_close.body', {
                pair: trade.symbol.symbol_pair,
                direction: t(`trades.direction.${trade.trade_direction}`),
                pnl: formatFixed(trade.trade_pnl_current, PNL_DECIMALS),
                net: trade.trade_pnl_net != null ? formatFixed(trade.trade_pnl_net, PNL_DECIMALS) : '',
              })
            : null}
        </p>
        <label className="checkbox-line">
          <input
            type="checkbox"
            checked={oneClick}
            onChange={(event) => setOneClick(event.target.checked)}
            data-testid="close-confirm-one-click"
          />
          <span>{t('trades.confirm_close.one_click')}</span>
        </label>
      </div>
    </Modal>
  );
}
