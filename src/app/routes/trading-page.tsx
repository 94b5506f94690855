import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SignalsPanel } from '../../features/signals/components/signals-panel';
import { openTradeFromSignal } from '../signal-trading';
import { countOpenTrades, loadOpenTrades, tradesStore } from '../../features/trades/trades-store';
import { OpenTradesTable } from '../../features/trades/components/open-trades-table';
import { NewTradePointer } from '../new-trade-pointer';
import { TradeTrendModal } from '../../features/trades/components/trade-trend-modal';
import '../../features/trades/components/trades.css';
import { chartFocusHandlers } from '../trading-chart/chart-focus';
import { TradingChartPanel } from '../trading-chart/trading-chart-panel';
import { signalsStore } from '../../features/signals/signals-store';
import {
  pageIsSettled,
  PUSH_SIGNAL_PARAM,
  useExpiredSignalNotice,
  usePushTarget,
} from '../../features/push/use-push-target';

/** The live card of a signal (not the feed's row of it). */
const signalCardOf = (uuid: string) =>
  document.querySelector(`[data-testid="signal-card"][data-signal-uuid="${CSS.escape(uuid)}"]`);

/**
 * ?signal=<uuid> (a signal's notification, issue 41): its card outlined, or 'That signal has expired' (also
 * for ?signal_expired, a click after its expires_at).
 */
function SignalPushTarget() {
  usePushTarget(
    PUSH_SIGNAL_PARAM,
    {
      find: signalCardOf,
      known: (uuid) => signalsStore.signal_list.includes(uuid),
      settled: pageIsSettled,
    },
    'push.signal_expired',
  );
  useExpiredSignalNotice();
  return null;
}

function OpenTradesCount() {
  const trades = useSnapshot(tradesStore);
  return (
    <span className="open-trades-count numeric" data-testid="open-trades-count">
      {countOpenTrades(trades)}
    </span>
  );
}

/**
 * /trading (SPEC.md §2): the signal cards, the chart of the symbol last hovered or clicked (issue 18), then the
 * open-trades table; ?trade_detail_uuid opens its modal, ?signal outlines a signal's card (issue 41).
 */
export function TradingPage() {
  const { t } = useTranslation();
  useEffect(() => {
    void loadOpenTrades();
  }, []);
  return (
    <div className="page" {...chartFocusHandlers}>
      <h1 className="page-title">{t('nav.trading')}</h1>
      <NewTradePointer />
      <SignalsPanel onTrade={openTradeFromSignal} />
      <SignalPushTarget />
      <TradingChartPanel />
      <section className="panel open-trades-panel" aria-labelledby="open-trades-title">
        <div className="panel-header">
          <h2 id="open-trades-title" className="panel-title">
            {t('trades.open_trades_title')}
            <OpenTradesCount />
          </h2>
        </div>
        <div className="panel-body">
          <OpenTradesTable />
        </div>
      </section>
      <TradeTrendModal />
    </div>
  );
}
