import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PIN_CODE_LENGTH } from '../../../config/constants';
import { translateError } from '../../../lib/i18n';
import { addNotification, NotificationType } from '../../../stores/notifications-store';
import { pinCodeStore } from '../../../stores/pin-code-store';
import { TradeTokenError } from '../../../stores/trade-tokens-store';

/**
 * PIN panel of SPEC.md §2: 'Enter PIN Code' without a PIN; with one, the PIN as stars with 'Change PIN Code'
 * and 'Remove PIN Code'. The form's Save is enabled only for exactly PIN_CODE_LENGTH characters.
 */
export interface PinCodePanelProps {
  platformUuid: string;
  /** Saves the PIN (the app's savePinCode: the balance follows); throws for the form. */
  onSave: (platformUuid: string, pinCode: string) => Promise<void>;
  /** Forgets the PIN (the app's forgetPinCode). */
  onRemove: (platformUuid: string) => Promise<void>;
}

export function PinCodePanel({ platformUuid, onSave, onRemove }: PinCodePanelProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const { pin_code_by_platform_uuid } = useSnapshot(pinCodeStore);
  const hasPin = pin_code_by_platform_uuid[platformUuid] !== undefined;
  const [isEditing, setIsEditing] = useState(false);
  const [value, setValue] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  const cancel = () => {
    setIsEditing(false);
    setValue('');
  };

  const save = async () => {
    setIsBusy(true);
    try {
      await onSave(platformUuid, value);
      cancel();
    } catch (error) {
      addNotification(
        NotificationType.ERROR,
        error instanceof TradeTokenError ? error.key : translateError(error),
      );
    } finally {
      setIsBusy(false);
    }
  };

  if (isEditing) {
    return (
      <form
        className="pin-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (value.length === PIN_CODE_LENGTH) void save();
        }}
      >
        <label className="visually-hidden" htmlFor={inputId}>
          {t('pin.placeholder')}
        </label>
        <input
          id={inputId}
          className="input pin-input"
          type="password"
          inputMode="text"
          autoComplete="off"
          placeholder={t('pin.placeholder')}
          maxLength={PIN_CODE_LENGTH}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          data-testid="pin-input"
        />
        <button
          type="submit"
          className="button is-primary"
          disabled={value.length !== PIN_CODE_LENGTH || isBusy}
        >
          {t('common.save')}
        </button>
        <button type="button" className="button" onClick={cancel} disabled={isBusy}>
          {t('common.cancel')}
        </button>
      </form>
    );
  }

  if (!hasPin) {
    return (
      <button type="button" className="button is-primary" onClick={() => setIsEditing(true)}>
        {t('pin.enter')}
      </button>
    );
  }

  return (
    <div className="pin-row">
      <span className="pin-mask" aria-label={t('pin.is_set')} data-testid="pin-mask">
        {'*'.repeat(PIN_CODE_LENGTH)}
      </span>
      <button type="button" className="button is-small" onClick={() => setIsEditing(true)}>
        {t('pin.change')}
      </button>
      <button type="button" className="button is-small is-danger" onClick={() => void onRemove(platformUuid)}>
        {t('pin.remove')}
      </button>
    </div>
  );
}
