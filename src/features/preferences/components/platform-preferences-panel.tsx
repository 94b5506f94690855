import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PLATFORM_PREFERENCE_BOUNDS, type PlatformPreferences } from '../../../../contracts/preferences';
import type { Platform } from '../../../../contracts/platforms';
import { Loader, Stepper } from '../../../components/ui';
import {
  loadPlatformPreferences,
  preferencesStore,
  savePlatformPreferences,
} from '../../../stores/preferences-store';
import { SaveState } from './global-preferences-panel';
import { formatFixed } from '../../../lib/format';
import { compareDecimals, mulDecimals } from '../../../../shared-core/trade-core';
import { roundTripFeeRoe } from '../../../../shared-core/trade-fees';
import { useDebouncedSave } from './use-debounced-save';

const FIELDS = [
  'trade_margin',
  'trade_leverage',
  'trade_stop_loss_percent',
  'trade_take_profit_percent',
  'trade_treiling_stop_percent',
] as const;

/**
 * The five platform preferences with the SPEC.md §5 table; leverage goes up to the platform's maximum. A take
 * profit at or below what the round trip's fees take at the chosen leverage (issue 36: 2 × `feeRate` × leverage,
 * as ROE) is flagged beside it: such a "take profit" closes at a loss.
 */
export function PlatformPreferencesPanel({ platform, feeRate }: { platform: Platform; feeRate: string }) {
  const { t } = useTranslation();
  const uuid = platform.platform_uuid;
  const { platform_preferences_by_uuid, platform_preferences_loading } = useSnapshot(preferencesStore);
  const loaded = platform_preferences_by_uuid[uuid];
  const { values, edit, isChanging, isSaved } = useDebouncedSave<PlatformPreferences>(loaded, (next) =>
    savePlatformPreferences(uuid, next),
  );

  useEffect(() => {
    void loadPlatformPreferences(uuid);
  }, [uuid]);

  return (
    <div className="platform-section">
      <div className="platform-section-head">
        <h3 className="section-title">{t('preferences.platform_title')}</h3>
        <SaveState isChanging={isChanging} isSaved={isSaved} />
      </div>
      {!values ? (
        platform_preferences_loading[uuid] !== false ? (
          <Loader fill />
        ) : (
          <p className="muted">{t('preferences.unavailable')}</p>
        )
      ) : (
        <div className="preference-grid">
          {FIELDS.map((field) => {
            const bound = PLATFORM_PREFERENCE_BOUNDS[field];
            const max = field === 'trade_leverage' ? platform.trade_leverage_max : bound.max;
            return (
              <div key={field} className="preference-item" data-testid={`preference-${field}`}>
                <span className="preference-label">{t(`preferences.field.${field}`)}</span>
                <Stepper
                  label={t(`preferences.field.${field}`)}
                  value={values[field]}
                  min={bound.min}
                  max={max}
                  step={bound.step}
                  decimals={bound.decimals}
                  onChange={(value) => edit(field, value)}
                />
                {field === 'trade_take_profit_percent' ? (
                  <FeeFlag
                    takeProfit={values.trade_take_profit_percent}
                    leverage={values.trade_leverage}
                    feeRate={feeRate}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** The flag of a take profit the round trip's fees eat (issue 36); nothing while it clears them. */
function FeeFlag({
  takeProfit,
  leverage,
  feeRate,
}: {
  takeProfit: number;
  leverage: number;
  feeRate: string;
}) {
  const { t } = useTranslation();
  const fees = roundTripFeeRoe(feeRate, leverage);
  if (compareDecimals(String(takeProfit), fees) > 0) return null;
  return (
    <span className="preference-flag" role="note" data-testid="fee-flag">
      {t('preferences.fee_flag', {
        fees: formatFixed(fees, 2),
        leverage,
        rate: formatFixed(mulDecimals(feeRate, '100'), 3),
      })}
    </span>
  );
}
