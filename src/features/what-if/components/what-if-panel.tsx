// What the settings would have done (issue 42; docs/spa.md "The what-if panel"): beside a platform's preferences,
// the replay of the last 30 days of signals with them — trades, the share won, the net PNL and ROE after fees,
// the worst drawdown — its exits by kind, and a small equity curve. It follows the saved settings: an edit is
// saved PREFERENCE_SAVE_DEBOUNCE_MS after it, and the replay is asked again a moment later.
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { Platform } from '../../../../contracts/platforms';
import { compareDecimals, mulDecimals } from '../../../../shared-core/trade-core';
import { Loader } from '../../../components/ui';
import { formatFixed } from '../../../lib/format';
import { lazyChunk } from '../../../lib/lazy-chunk';
import { preferencesStore } from '../../../stores/preferences-store';
import { useWhatIf, type WhatIfSettings } from '../use-what-if';
import './what-if.css';

const WhatIfCurve = lazyChunk(() =>
  import('./what-if-curve').then((module) => ({ default: module.WhatIfCurve })),
);

const DAY_MS = 86_400_000;
const MONEY_DECIMALS = 2;

const signed = (value: string) =>
  `${compareDecimals(value, 0) > 0 ? '+' : ''}${formatFixed(value, MONEY_DECIMALS)}`;

/**
 * Why a replay has no trade (issue 53): no market data to replay on, no signal of this platform in the range
 * (a Binance card: the engine signals the paper platform), or the settings kept every signal out.
 */
function emptyReason(result: { data: { candles: number; signals: number } }) {
  if (result.data.candles === 0) return 'no_market_data';
  if (result.data.signals === 0) return 'no_signals';
  return 'no_trades';
}

export function WhatIfPanel({ platform }: { platform: Platform }) {
  const { t } = useTranslation();
  const { platform_preferences_by_uuid, trade_preferences } = useSnapshot(preferencesStore);
  const prefs = platform_preferences_by_uuid[platform.platform_uuid];
  const settings: WhatIfSettings | undefined =
    prefs && trade_preferences
      ? {
          ...prefs,
          minimal_accuracy: trade_preferences.minimal_accuracy,
          trade_exits_on_exchange: trade_preferences.trade_exits_on_exchange,
          trade_max_open_trades: trade_preferences.trade_max_open_trades,
          trade_daily_loss_limit: trade_preferences.trade_daily_loss_limit,
        }
      : undefined;
  const { result, loading, error } = useWhatIf(platform.platform_uuid, settings);
  const total = result?.total;
  const days = result
    ? Math.round((Date.parse(result.end_date) - Date.parse(result.start_date)) / DAY_MS)
    : 30;

  return (
    <div
      className="platform-section what-if"
      data-testid="what-if"
      aria-busy={loading}
      data-state={loading ? 'loading' : result ? 'ready' : 'empty'}
    >
      <div className="platform-section-head">
        <h3 className="section-title">{t('what_if.title')}</h3>
        {loading && <span className="muted what-if-replaying">{t('what_if.replaying')}</span>}
      </div>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {!result ? (
        !error && <Loader fill />
      ) : total && total.trades > 0 ? (
        <>
          <p className="what-if-sentence" data-testid="what-if-sentence">
            {t('what_if.sentence', {
              days,
              trades: total.trades,
              won: total.win_rate === null ? '—' : formatFixed(total.win_rate, 0),
              net: signed(total.pnl_net),
              roe: total.roe_net === null ? '—' : signed(total.roe_net),
              drawdown: formatFixed(total.max_drawdown, MONEY_DECIMALS),
            })}
          </p>
          {result.equity.length > 1 && (
            <Suspense fallback={<div className="what-if-curve" />}>
              <WhatIfCurve equity={result.equity} label={t('what_if.equity')} />
            </Suspense>
          )}
          <p className="muted what-if-detail">
            {t('what_if.statuses', { ...total.by_status, open: total.open })}
          </p>
          <p className="muted what-if-detail">
            {t('what_if.runs', {
              run: total.longest_losing_run,
              per_day: formatFixed(total.trades_per_day, 1),
              fees: formatFixed(total.fees, MONEY_DECIMALS),
            })}
          </p>
        </>
      ) : (
        <p className="what-if-sentence" data-testid="what-if-sentence" data-reason={emptyReason(result)}>
          {t(`what_if.${emptyReason(result)}`, { days, platform: platform.platform_name })}
        </p>
      )}
      {result && (
        <p className="muted what-if-note">
          {t('what_if.note', { rate: formatFixed(mulDecimals(result.settings.taker_rate, 100), 3) })}
        </p>
      )}
    </div>
  );
}
