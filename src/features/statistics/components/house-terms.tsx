import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { HouseTradeSettings } from '../../../../contracts';
import { formatFixed } from '../../../lib/format';
import { statisticsStore } from '../statistics-store';

/** A setting as the preferences show it: whole numbers bare, halves with one decimal. */
const shown = (value: number) => formatFixed(value, Number.isInteger(value) ? 0 : 1);

const settingsValues = (settings: HouseTradeSettings) => ({
  margin: shown(settings.trade_margin),
  leverage: String(settings.trade_leverage),
  stop: shown(settings.trade_stop_loss_percent),
  take: shown(settings.trade_take_profit_percent),
  trailing: shown(settings.trade_treiling_stop_percent),
});

/**
 * On what terms the public record is made (issue 42): the settings the house trades with (the new-trader
 * defaults), since which UTC day its trades carry them and what they were before, that a change of the defaults
 * changes the record from that day on, and since which day the house's trades book fees. Nothing without a house.
 */
export function HouseTerms() {
  const { t } = useTranslation('insights');
  const { house_record: record } = useSnapshot(statisticsStore);
  const settings = record?.house_settings;
  if (!record || !settings) return null;
  const previous = record.previous_settings;
  const since = record.settings_since;
  return (
    <section className="panel house-terms" aria-labelledby="house-terms-title" data-testid="house-terms">
      <div className="panel-header">
        <h2 id="house-terms-title" className="panel-title">
          {t('dashboard.house_terms_title')}
        </h2>
      </div>
      <div className="panel-body">
        <p data-testid="house-terms-settings">
          {t(
            settings.trade_exits_on_exchange
              ? 'dashboard.house_settings_exchange'
              : 'dashboard.house_settings',
            {
              ...settingsValues(settings),
              accuracy: shown(settings.minimal_accuracy),
            },
          )}
        </p>
        <p data-testid="house-terms-since">
          {previous
            ? t(since ? 'dashboard.house_settings_since' : 'dashboard.house_settings_next', {
                day: since,
                ...settingsValues(previous),
              })
            : since
              ? t('dashboard.house_settings_always', { day: since })
              : t('dashboard.house_settings_no_trade')}{' '}
          {t('dashboard.house_defaults_change')}
        </p>
        <p data-testid="house-terms-fees">
          {record.fees_since
            ? t('dashboard.house_fees_since', { day: record.fees_since })
            : t('dashboard.house_fees_none')}
        </p>
      </div>
    </section>
  );
}
