import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PUSH_KINDS, type PushKind } from '../../../../contracts/push';
import { Stepper } from '../../../components/ui';
import { PushDeviceRow } from './push-device-row';
import '../push.css';

/**
 * Trade Preferences' 'Notifications' (issue 41): this device's Web Push (PushDeviceRow), then the five kinds
 * of news as ON/OFF, each a global trade preference (ON by default) saved with the global ones.
 */
export function PushPreferencesPanel({
  values,
  edit,
  saveState,
}: {
  values: Readonly<Partial<Record<PushKind, 0 | 1>>> | undefined;
  edit: (kind: PushKind, value: 0 | 1) => void;
  saveState: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="push-preferences-title" data-testid="push-preferences">
      <div className="panel-header">
        <h2 id="push-preferences-title" className="panel-title">
          {t('push.title')}
        </h2>
        {saveState}
      </div>
      <div className="panel-body">
        <p className="muted push-intro">{t('push.intro')}</p>
        <PushDeviceRow />
        {values ? (
          <div className="preference-grid is-global">
            {PUSH_KINDS.map((kind) => (
              <div key={kind} className="preference-item" data-testid={`preference-${kind}`}>
                <span className="preference-label">{t(`push.field.${kind}`)}</span>
                <Stepper
                  label={t(`push.field.${kind}`)}
                  // ON by default: a server from before issue 41 does not send them.
                  value={values[kind] ?? 1}
                  min={0}
                  max={1}
                  step={1}
                  decimals={0}
                  labels={{ 0: t('preferences.off'), 1: t('preferences.on') }}
                  onChange={(value) => edit(kind, value as 0 | 1)}
                />
                <span className="preference-hint">{t(`push.hint.${kind}`)}</span>
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </section>
  );
}
