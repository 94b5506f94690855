import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { pushDeviceStore, readPushDeviceState, turnPushOff, turnPushOn } from '../push-device';

/**
 * This device's Web Push (issue 41): its state (not supported / blocked / off / on) and Turn on or Turn off;
 * a failure says which step failed, in the page's language.
 */
export function PushDeviceRow() {
  const { t, i18n } = useTranslation();
  const { state, busy, error, error_detail } = useSnapshot(pushDeviceStore);

  useEffect(() => {
    void readPushDeviceState();
  }, []);

  return (
    <div className="push-device" data-testid="push-device" data-state={state ?? 'checking'}>
      <span className="preference-label">{t('push.device')}</span>
      <span className="push-device-state" data-testid="push-device-state">
        {t(`push.state.${state ?? 'checking'}`)}
      </span>
      {state === 'off' || state === 'on' ? (
        <button
          type="button"
          className="button is-small"
          disabled={busy}
          data-testid="push-toggle"
          onClick={() => void (state === 'on' ? turnPushOff() : turnPushOn(i18n.language))}
        >
          {state === 'on' ? t('push.turn_off') : t('push.turn_on')}
        </button>
      ) : null}
      {error ? (
        <span className="preference-hint is-warning push-error" role="alert" data-testid="push-error">
          {t(`push.error.${error}`, { detail: error_detail ?? '' })}
        </span>
      ) : null}
    </div>
  );
}
