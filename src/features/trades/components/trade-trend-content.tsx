import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { CandleChart } from '../../../components/charts/candle-chart';
import { Loader, signTone, TradeDirection } from '../../../components/ui';
import { StatusBadge } from '../../../components/ui/status-badge';
import { MARGIN_DECIMALS, PNL_DECIMALS } from '../../../config/constants';
import { formatFixed } from '../../../lib/format';
import { formatDateTime, formatTimeOfDay } from '../../../lib/i18n';
import { tradeLines, tradeMarkers } from '../trade-chart-lines';
import { tradeDetailCache, tradesStore } from '../trades-store';
import { useCachedDataHold } from '../../../lib/unused-data';

/**
 * Body of 'Trade Trend Data': the trade's figures and the 1-minute candles around it (the chart of /trading)
 * with its open price, take-profit price, current trailing-stop price, exchange-side stop price, liquidation
 * price when known, and where it opened.
 */
export function TradeTrendContent({ tradeUuid }: { tradeUuid: string }) {
  const { t } = useTranslation();
  useCachedDataHold(tradeDetailCache, tradeUuid);
  const { trade_trend_data, detail_loading_by_uuid, detail_error_by_uuid } = useSnapshot(tradesStore);
  const trend = trade_trend_data[tradeUuid];
  const error = detail_error_by_uuid[tradeUuid];

  if (!trend) {
    if (detail_loading_by_uuid[tradeUuid] || !error) return <Loader fill />;
    return (
      <p className="form-error" role="alert" data-testid="trade-detail-error">
        {t('common.error')}: {error}
      </p>
    );
  }

  const trade = trend.trade;
  const decimals = trade.symbol.symbol_price_precision;
  const pair = trade.symbol.symbol_pair;
  const price = (value: string) => formatFixed(value, decimals);
  // The chart's lines and marker from the same exact strings as the figures below (trade-chart-lines.ts).
  const lines = tradeLines(
    {
      ...trade,
      trade_take_profit_price: trend.trade_take_profit_price,
      trade_treiling_stop_price: trend.trade_treiling_stop_price,
    },
    t,
  );
  const markers = tradeMarkers([trade], t);
  const figures: [string, ReactNode, string?][] = [
    [t('signal.symbol'), pair],
    [t('signal.direction_label'), <TradeDirection key="d" direction={trade.trade_direction} />],
    [t('trades.detail.open_price'), price(trade.trade_open_price)],
    [
      trade.trade_close_price === null ? t('trades.detail.current_price') : t('trades.detail.close_price'),
      price(trade.trade_close_price ?? trade.trade_current_price),
    ],
    [t('trades.column.margin'), formatFixed(trade.trade_margin, MARGIN_DECIMALS)],
    [t('trades.detail.leverage'), `${trade.trade_leverage}×`],
    [t('trades.column.quantity'), trade.trade_quantity],
    [
      t('trades.column.pnl'),
      formatFixed(trade.trade_pnl_current, PNL_DECIMALS),
      signTone(trade.trade_pnl_current),
    ],
    [
      t('trades.column.roe'),
      formatFixed(trade.trade_roe_current, PNL_DECIMALS),
      signTone(trade.trade_roe_current),
    ],
    [t('trades.detail.take_profit_price'), price(trend.trade_take_profit_price)],
    [t('trades.detail.treiling_stop_price'), price(trend.trade_treiling_stop_price)],
    [t('trades.detail.stop_price'), price(trade.trade_stop_price)],
    [
      t('trades.detail.status'),
      <span key="s">
        <StatusBadge status={trade.trade_status} />
        {trade.trade_close_cause ? ` ${t(`trade_close_cause.${trade.trade_close_cause}`)}` : null}
      </span>,
    ],
  ];
  return (
    <div className="trade-trend" data-testid="trade-trend-content">
      <dl className="stat-grid">
        {figures.map(([label, value, tone]) => (
          <div className="stat" key={label}>
            <dt>{label}</dt>
            <dd className={`stat-value numeric ${tone ?? ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted trade-trend-note">
        {t('trades.detail.opened_at', { created: formatDateTime(trade.trade_create_timestamp) })}
      </p>
      <section className="chart-section">
        <h3 className="section-heading">{t('trades.detail.chart_title', { pair })}</h3>
        {trend.trend_data_list.length > 0 ? (
          <CandleChart
            candles={trend.trend_data_list}
            lines={lines}
            markers={markers}
            decimals={decimals}
            label={t('trades.detail.chart_title', { pair })}
            formatTime={formatTimeOfDay}
            height={300}
          />
        ) : (
          <p className="muted">{t('trades.detail.no_trend_data')}</p>
        )}
      </section>
    </div>
  );
}
