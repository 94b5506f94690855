// A Close pressed while the platform's token is locked (issue 36: after a reload the PIN lives only in memory,
// or a wrong one was typed) asks for the PIN here, where the trader is, instead of a disabled button: the PIN
// is saved as Trade Preferences saves it (the balance follows), and the trade is closed once the token opens.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Modal, ModalSize } from '../components/ui';
import { PIN_CODE_LENGTH } from '../config/constants';
import { translateError } from '../lib/i18n';
import { closeTrade } from '../features/trades/trades-actions';
import { closeRequestStore, tradesStore } from '../features/trades/trades-store';
import { TradeTokenLevel } from '../stores/token-level';
import { getTradeTokenLevel, TradeTokenError } from '../stores/trade-tokens-store';
import { savePinCode } from './platform-keys';

export function PinRequestDialog() {
  const { t } = useTranslation();
  const { trade_uuid } = useSnapshot(closeRequestStore);
  const trade = trade_uuid ? tradesStore.trade_by_uuid_dict[trade_uuid] : undefined;
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);
  const close = () => {
    closeRequestStore.trade_uuid = null;
    setPin('');
    setError(undefined);
  };
  const submit = async () => {
    if (!trade) return;
    setIsBusy(true);
    setError(undefined);
    try {
      await savePinCode(trade.platform_uuid, pin);
      if (getTradeTokenLevel(trade.platform_uuid) !== TradeTokenLevel.TRADE_AVAILABLE) {
        setError(t('trades.pin_dialog.wrong'));
        return;
      }
      const tradeUuid = trade.trade_uuid;
      close();
      void closeTrade(tradeUuid);
    } catch (caught) {
      setError(caught instanceof TradeTokenError ? t(caught.key) : translateError(caught));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Modal
      isOpen={trade !== undefined}
      onClose={close}
      title={t('trades.pin_dialog.title', { pair: trade?.symbol.symbol_pair ?? '' })}
      size={ModalSize.S}
    >
      <form
        className="pin-request"
        onSubmit={(event) => {
          event.preventDefault();
          if (pin.length === PIN_CODE_LENGTH && !isBusy) void submit();
        }}
        data-testid="pin-request"
      >
        <p className="muted">{t('trades.pin_dialog.text')}</p>
        <input
          className="input pin-input"
          type="password"
          autoComplete="off"
          placeholder={t('pin.placeholder')}
          aria-label={t('pin.placeholder')}
          maxLength={PIN_CODE_LENGTH}
          value={pin}
          onChange={(event) => setPin(event.target.value)}
          data-testid="pin-request-input"
          autoFocus
        />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="pin-request-actions">
          <button type="button" className="button is-ghost" onClick={close}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button is-primary"
            disabled={pin.length !== PIN_CODE_LENGTH || isBusy}
          >
            {t('trades.pin_dialog.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
