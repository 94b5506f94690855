import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { tradeDurationMinutes, type Trade } from '../../../contracts';
import { Loader, signTone, TradeDirection } from '../../components/ui';
import { StatusBadge, StatusLegend } from '../../components/ui/status-badge';
import { MARGIN_DECIMALS, PNL_DECIMALS } from '../../config/constants';
import { formatFixed } from '../../lib/format';
import { formatDate, formatDateTime } from '../../lib/i18n';
import { compareDecimals } from '../../../shared-core/trade-core';
import {
  historyStore,
  loadTradeHistory,
  resetHistoryDayToToday,
  resetHistoryStore,
  shiftHistoryDay,
} from '../../features/history/history-store';
import { HistoryExport } from '../../features/history/components/history-export';
import '../../features/history/components/history.css';
import { TradeOrigin } from '../../features/trades/components/trade-origin';
import { PUSH_TRADE_PARAM, usePushTarget } from '../../features/push/use-push-target';
import { useSearchParams } from 'react-router-dom';

/** Whole minutes from open to close, rounded; undefined while the trade is open (the export's too). */
export const durationMinutes = tradeDurationMinutes;

function DaySwitcher() {
  const { t } = useTranslation();
  const { date_range } = useSnapshot(historyStore);
  const day = formatDate('day', new Date(date_range.start_date));
  return (
    <div className="day-switcher" role="group" aria-label={t('history.day_switcher')}>
      <button
        type="button"
        className="icon-button"
        onClick={() => shiftHistoryDay(-1)}
        aria-label={t('history.previous_day')}
        title={t('history.previous_day')}
        data-testid="history-previous-day"
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M10 3L5 8l5 5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
      <button
        type="button"
        className="button is-small"
        onClick={resetHistoryDayToToday}
        title={t('history.today')}
        data-testid="history-day"
      >
        {day}
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={() => shiftHistoryDay(1)}
        aria-label={t('history.next_day')}
        title={t('history.next_day')}
        data-testid="history-next-day"
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
          <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}

/**
 * 'Realized PNL for this page' (SPEC.md §2): SPEC.md's figure under its name — Σ trade_pnl_current of the listed
 * trades, green above 0, red otherwise — and the net beside it (issue 40). The tooltip defines both, and the
 * export of the same days carries the same two (realized_pnl, realized_pnl_net): one definition everywhere.
 */
function RealizedPnlBadge() {
  const { t } = useTranslation();
  const { realized_pnl, realized_pnl_net } = useSnapshot(historyStore);
  const tone = compareDecimals(realized_pnl, 0) > 0 ? 'is-positive' : 'is-negative';
  return (
    <span
      className={`realized-pnl numeric ${tone}`}
      title={t('history.realized_pnl_tooltip')}
      data-testid="realized-pnl"
    >
      <span className="realized-pnl-label">{t('history.realized_pnl')}</span>
      <span data-testid="realized-pnl-gross">{formatFixed(realized_pnl, PNL_DECIMALS)} $</span>
      <span className="realized-pnl-net" data-testid="realized-pnl-net">
        {t('history.realized_pnl_net', { net: formatFixed(realized_pnl_net, PNL_DECIMALS) })}
      </span>
    </span>
  );
}

/** Realized PNL net of the commissions the exchange charged, and below it the net ROE (issue 18). */
function HistoryNetCell({ pnl, roe }: { pnl: string | null | undefined; roe: string | null | undefined }) {
  const { t } = useTranslation();
  if (pnl === null || pnl === undefined) {
    return (
      <td
        className="is-numeric"
        data-testid="history-pnl-net"
        data-col="net"
        data-label={t('history.column.net')}
      >
        —
      </td>
    );
  }
  return (
    <td
      className={`is-numeric ${signTone(pnl)}`}
      title={t('history.net_tooltip')}
      data-testid="history-pnl-net"
      data-col="net"
      data-label={t('history.column.net')}
    >
      {formatFixed(pnl, PNL_DECIMALS)}
      {roe === null || roe === undefined ? null : (
        <span className="history-sub">
          {t('trades.cost.roe', { percent: formatFixed(roe, PNL_DECIMALS) })}
        </span>
      )}
    </td>
  );
}

function HistoryRow({ trade }: { trade: Trade }) {
  const { t } = useTranslation();
  const precision = trade.symbol.symbol_price_precision;
  const minutes = durationMinutes(trade);
  return (
    <tr data-testid="history-row" data-trade-uuid={trade.trade_uuid}>
      <td data-col="coin">
        <span className="trade-coin">
          <span className="trade-coin-name" title={trade.symbol.symbol_pair}>
            {trade.symbol.symbol_name}
          </span>
          <TradeDirection direction={trade.trade_direction} />
        </span>
        <span className="trade-chips">
          <TradeOrigin trade={trade} />
        </span>
      </td>
      <td className="is-numeric" data-col="open" data-label={t('history.column.open')}>
        {formatFixed(trade.trade_open_price, precision)}
      </td>
      <td className="is-numeric" data-col="close" data-label={t('history.column.close')}>
        {trade.trade_close_price === null ? '—' : formatFixed(trade.trade_close_price, precision)}
      </td>
      <td className="is-numeric" data-col="margin" data-label={t('history.column.margin')}>
        {formatFixed(trade.trade_margin, MARGIN_DECIMALS)}
      </td>
      {/* Issue 53: in the row's own coin (the header's ₿ read wrong on a DOGE row). */}
      <td className="is-numeric" data-col="quantity" data-label={t('history.column.quantity')}>
        {trade.trade_quantity} <span className="muted">{trade.symbol.symbol_name}</span>
      </td>
      <td
        className={`is-numeric ${signTone(trade.trade_pnl_current)}`}
        data-col="pnl"
        data-label={t('history.column.pnl')}
        data-testid="history-pnl"
      >
        {formatFixed(trade.trade_pnl_current, PNL_DECIMALS)}
      </td>
      <td
        className={`is-numeric ${signTone(trade.trade_roe_current)}`}
        data-col="roe"
        data-label={t('history.column.roe')}
      >
        {formatFixed(trade.trade_roe_current, PNL_DECIMALS)}
      </td>
      <HistoryNetCell pnl={trade.trade_pnl_net} roe={trade.trade_roe_net} />
      <td data-col="start" data-label={t('history.column.start')}>
        {formatDateTime(trade.trade_create_timestamp)}
      </td>
      <td data-col="finish" data-label={t('history.column.finish')}>
        {trade.trade_close_timestamp ? formatDateTime(trade.trade_close_timestamp) : '—'}
        {minutes === undefined ? null : (
          <span className="muted history-duration" data-testid="history-duration">
            {t('history.duration_min', { n: minutes })}
          </span>
        )}
      </td>
      <td data-col="status">
        <StatusBadge status={trade.trade_status} testId="history-status" />
        {trade.trade_close_cause ? (
          // Issue 37: why the exchange closed it outside Signaldesk (by hand, liquidation, ADL).
          <span className="muted history-cause" data-testid="history-close-cause">
            {t(`trade_close_cause.${trade.trade_close_cause}`)}
          </span>
        ) : null}
        {trade.trade_orders_left ? (
          // Issue 54: what the close left on the exchange, until the page or the PIN cancels it.
          <span className="history-orders-left" data-testid="history-orders-left">
            {t('history.orders_left', { count: trade.trade_orders_left })}
          </span>
        ) : null}
      </td>
    </tr>
  );
}

function HistoryTable() {
  const { t } = useTranslation();
  const { trade_list, is_loading } = useSnapshot(historyStore);
  if (is_loading) return <Loader fill />;
  if (trade_list.length === 0) {
    return (
      <p className="muted history-empty" data-testid="history-empty">
        {t('history.empty')}
      </p>
    );
  }
  // Scrolls sideways on a phone and has nothing focusable: focusable and named, so a keyboard can scroll it.
  return (
    <div className="trades-table-scroll" tabIndex={0} role="region" aria-labelledby="history-title">
      <table className="trades-table" data-testid="history-table">
        <thead>
          <tr>
            <th scope="col">{t('history.column.coin')}</th>
            <th scope="col" className="is-numeric">
              {t('history.column.open')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.close')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.margin')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.quantity')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.pnl')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.roe')}
            </th>
            <th scope="col" className="is-numeric">
              {t('history.column.net')}
            </th>
            <th scope="col">{t('history.column.start')}</th>
            <th scope="col">{t('history.column.finish')}</th>
            <th scope="col">{t('history.column.status')}</th>
          </tr>
        </thead>
        <tbody>
          {trade_list.map((trade) => (
            <HistoryRow key={trade.trade_uuid} trade={trade} />
          ))}
        </tbody>
      </table>
      <StatusLegend statuses={trade_list.map((trade) => trade.trade_status)} testId="history-status-legend" />
    </div>
  );
}

const historyRowOf = (uuid: string) =>
  document.querySelector(`[data-testid="history-row"][data-trade-uuid="${CSS.escape(uuid)}"]`);

/**
 * ?trade=<uuid> (a trade's notification, issue 41): its row outlined. A page already open reads the day again
 * first when the trade is not listed (it closed after the list was read).
 */
function TradePushTarget() {
  const [searchParams] = useSearchParams();
  const uuid = searchParams.get(PUSH_TRADE_PARAM);
  useEffect(() => {
    if (!uuid || historyStore.is_loading) return;
    if (!historyStore.trade_list.some((trade) => trade.trade_uuid === uuid)) void loadTradeHistory();
  }, [uuid]);
  usePushTarget(
    PUSH_TRADE_PARAM,
    {
      find: historyRowOf,
      known: (tradeUuid) => historyStore.trade_list.some((trade) => trade.trade_uuid === tradeUuid),
      settled: () => !historyStore.is_loading,
    },
    'push.trade_not_listed',
  );
  return null;
}

/**
 * /trade_history (SPEC.md §2): a day switcher, the realized PNL of the listed trades and the table. Opening
 * the page shows today; ?trade=<uuid> outlines that trade's row (issue 41).
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const { date_range } = useSnapshot(historyStore);
  useEffect(() => {
    resetHistoryStore();
  }, []);
  useEffect(() => {
    void loadTradeHistory();
  }, [date_range.start_date]);
  return (
    <div className="page">
      <div className="history-head">
        <h1 className="page-title">{t('nav.trade_history')}</h1>
        <RealizedPnlBadge />
      </div>
      <TradePushTarget />
      <HistoryExport day={date_range.start_date} />
      <section className="panel" aria-labelledby="history-title">
        <div className="panel-header">
          <h2 id="history-title" className="panel-title">
            {t('history.title')}
          </h2>
          <DaySwitcher />
        </div>
        <div className="panel-body">
          <HistoryTable />
        </div>
      </section>
    </div>
  );
}
