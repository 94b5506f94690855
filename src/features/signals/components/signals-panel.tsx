import { Link } from 'react-router-dom';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ensureWhatIf } from '../../../stores/what-if-store';
import { useSnapshot } from 'valtio';
import { preferencesStore } from '../../../stores/preferences-store';
import type { OpenTradeFromSignal } from '../trade-from-signal';
import { useLiveSignals, useSignalsPanelPresence } from '../use-live-signals';
import { signalsStore } from '../signals-store';
import { SignalCard } from './signal-card';
import { SignalFeed } from './signal-feed';
import './signals.css';

/**
 * The panel of signal cards (SPEC.md §2 "Signals"), newest first. It redraws every second for the
 * countdowns; removal at 0 and auto-open run in the session's signal clock (useSignalTimers). `onTrade` is what a
 * card's trade button does (the app's openTradeFromSignal).
 */
export function SignalsPanel({ onTrade }: { onTrade: OpenTradeFromSignal }) {
  const { t } = useTranslation();
  const { trade_preferences } = useSnapshot(preferencesStore);
  const { signal_by_uuid } = useSnapshot(signalsStore);
  const cards = useLiveSignals();
  // The replayed win rate beside each card's accuracy (issue 42): one replay per platform of the cards shown.
  const platforms = [...new Set(cards.map((card) => signal_by_uuid[card.signalUuid]?.platform_uuid ?? ''))]
    .sort()
    .join(',');
  useEffect(() => {
    for (const platformUuid of platforms.split(',').filter(Boolean)) ensureWhatIf(platformUuid);
  }, [platforms]);
  // The every-page signal toasts stand aside while the cards are on the page.
  useSignalsPanelPresence();
  const autoOpenDelay = trade_preferences?.trade_auto_open_delay ?? 0;
  return (
    <section
      className="panel signals-panel"
      aria-labelledby="signals-panel-title"
      data-testid="signals-panel"
    >
      <div className="panel-header">
        <h2 id="signals-panel-title" className="panel-title">
          {t('signal.panel_title')}
          <span className="signals-count numeric" data-testid="signals-count">
            {cards.length}
          </span>
        </h2>
        <Link
          to="/trade_preferences"
          className="signals-auto-open muted"
          data-testid="signals-auto-open-setting"
        >
          {autoOpenDelay > 0 ? t('signal.auto_open_on', { n: autoOpenDelay }) : t('signal.auto_open_off')}
        </Link>
      </div>
      <div className="panel-body">
        {cards.length === 0 ? (
          <p className="muted signals-empty" data-testid="signals-empty">
            {t('signal.empty')}
          </p>
        ) : (
          <div className="signals-grid">
            {cards.map((card) => (
              <SignalCard key={card.signalUuid} {...card} onTrade={onTrade} />
            ))}
          </div>
        )}
        <SignalFeed />
      </div>
    </section>
  );
}
