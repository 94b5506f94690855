import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { TRADE_PREFERENCE_BOUNDS, TradeSide, type TradePreferences } from '../../../../contracts/preferences';
import type { ReactNode } from 'react';
import { Loader, Stepper } from '../../../components/ui';
import {
  loadTradePreferences,
  preferencesStore,
  saveTradePreferences,
} from '../../../stores/preferences-store';
import { useDebouncedSave } from './use-debounced-save';
import './preferences.css';

const FIELDS = [
  'trade_auto_open_delay',
  'trade_auto_close_delay',
  'minimal_accuracy',
  'trade_in_server_side',
  // Risk limits (issue 18), 0 = OFF.
  'trade_max_open_trades',
  'trade_daily_loss_limit',
  // Issue 35: the exchange holds the take profit and the trailing stop (on by default).
  'trade_exits_on_exchange',
  // Issue 37: the server follows client-mode accounts while the trader is away (on by default).
  'trade_follow_when_away',
  // Issue 54: server mode, the server may sign protective orders while the trader is away (off by default).
  'trade_server_acts_when_away',
  // Issue 39: Close (×) closes at once instead of asking (off by default).
  'trade_one_click_close',
] as const;

/** The value shown for an optional preference the server did not send. */
const DEFAULT_WHEN_MISSING: Partial<Record<(typeof FIELDS)[number], number>> = {
  trade_follow_when_away: 1,
  trade_server_acts_when_away: 0,
  trade_one_click_close: 0,
};

/**
 * Global trade preferences (SPEC.md §2): delays show OFF at 0, trade_in_server_side shows Client or Server.
 * `after` draws a panel of more global preferences below it (issue 41's Notifications, composed by src/app)
 * on the same draft, so a save of one never sends the other's values from before its edit.
 */
/** What a panel composed after this one (by src/app) gets: the one draft, and its 'Saving…'. */
export interface TradePreferencesForm {
  values: TradePreferences | undefined;
  edit: <K extends keyof TradePreferences>(key: K, value: TradePreferences[K]) => void;
  saveState: ReactNode;
}

export function GlobalPreferencesPanel({
  after,
}: { after?: (form: TradePreferencesForm) => ReactNode } = {}) {
  const { t } = useTranslation();
  const { trade_preferences, is_trade_preferences_loading } = useSnapshot(preferencesStore);
  const { values, edit, isChanging, isSaved } = useDebouncedSave<TradePreferences>(
    trade_preferences,
    saveTradePreferences,
  );

  useEffect(() => {
    // The session loads them once a user exists; this covers a failed or missing first read.
    if (!preferencesStore.trade_preferences && !preferencesStore.is_trade_preferences_loading) {
      void loadTradePreferences();
    }
  }, []);

  const labels: Record<(typeof FIELDS)[number], Readonly<Record<number, string>> | undefined> = {
    trade_auto_open_delay: { 0: t('preferences.off') },
    trade_auto_close_delay: { 0: t('preferences.off') },
    minimal_accuracy: undefined,
    trade_in_server_side: {
      [TradeSide.CLIENT]: t('preferences.client'),
      [TradeSide.SERVER]: t('preferences.server'),
    },
    trade_max_open_trades: { 0: t('preferences.off') },
    trade_daily_loss_limit: { 0: t('preferences.off') },
    trade_exits_on_exchange: { 0: t('preferences.off'), 1: t('preferences.on') },
    trade_follow_when_away: { 0: t('preferences.off'), 1: t('preferences.on') },
    trade_server_acts_when_away: { 0: t('preferences.off'), 1: t('preferences.on') },
    trade_one_click_close: { 0: t('preferences.off'), 1: t('preferences.on') },
  };

  return (
    <>
      <section className="panel" aria-labelledby="global-preferences-title">
        <div className="panel-header">
          <h2 id="global-preferences-title" className="panel-title">
            {t('preferences.global_title')}
          </h2>
          <SaveState isChanging={isChanging} isSaved={isSaved} />
        </div>
        <div className="panel-body">
          {!values ? (
            is_trade_preferences_loading ? (
              <Loader fill />
            ) : (
              <p className="muted">{t('preferences.unavailable')}</p>
            )
          ) : (
            <div className="preference-grid is-global">
              {FIELDS.map((field) => {
                const bound = TRADE_PREFERENCE_BOUNDS[field];
                return (
                  <div key={field} className="preference-item" data-testid={`preference-${field}`}>
                    <span className="preference-label">{t(`preferences.field.${field}`)}</span>
                    <Stepper
                      label={t(`preferences.field.${field}`)}
                      // A preference a server from before it does not send shows its default.
                      value={values[field] ?? DEFAULT_WHEN_MISSING[field] ?? bound.min}
                      min={bound.min}
                      max={bound.max}
                      step={bound.step}
                      decimals={bound.decimals}
                      labels={labels[field]}
                      onChange={(value) => edit(field, value as TradePreferences[typeof field])}
                    />
                    <span className="preference-hint">{t(`preferences.hint.${field}`)}</span>
                    {field === 'trade_follow_when_away' && values.trade_follow_when_away === 0 && (
                      <span className="preference-hint is-warning" data-testid="follow-off-note">
                        {t('preferences.follow_off_note')}
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </section>
      {after?.({ values, edit, saveState: <SaveState isChanging={isChanging} isSaved={isSaved} /> })}
    </>
  );
}
/**
 * 'Saving…' while edits wait for the debounce, so the trader knows the change is not lost; 'Saved' once the
 * server has it (issue 53), until the next edit.
 */
export function SaveState({ isChanging, isSaved = false }: { isChanging: boolean; isSaved?: boolean }) {
  const { t } = useTranslation();
  const state = isChanging ? 'is-changing' : isSaved ? 'is-saved' : '';
  return (
    <span className={`save-state ${state}`.trim()} aria-live="polite">
      {isChanging ? t('preferences.saving') : isSaved ? t('preferences.saved') : ''}
    </span>
  );
}
