import { useTranslation } from 'react-i18next';
import { SignalsPanel } from '../../signals/components/signals-panel';

/**
 * /trading (SPEC.md §2): the signal cards, then the open-trades table. TRADING ISSUE: the table replaces
 * the placeholder panel below.
 */
export function TradingPage() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <h1 className="page-title">{t('nav.trading')}</h1>
      <SignalsPanel />
      <section className="panel" aria-labelledby="open-trades-title" data-testid="open-trades-placeholder">
        <div className="panel-header">
          <h2 id="open-trades-title" className="panel-title">
            {t('trades.open_trades_title')}
          </h2>
        </div>
        <div className="panel-body">
          <p className="muted">{t('trades.open_trades_coming')}</p>
        </div>
      </section>
    </div>
  );
}
