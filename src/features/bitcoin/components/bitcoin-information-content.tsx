import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PriceChart } from '../../../components/charts/price-chart';
import { Chip, DirectionIcon, Loader, trendLabel, trendPalette } from '../../../components/ui';
import { BITCOIN_PRICE_DECIMALS, TREND_DECIMALS } from '../../../config/constants';
import { formatFixed, formatGrouped } from '../../../lib/format';
import { formatTimeOfDay } from '../../../lib/i18n';
import { BITCOIN_TREND_KEY, bitcoinStore, bitcoinTrendCache } from '../bitcoin-store';
import { useCachedDataHold } from '../../../lib/unused-data';

/** Body of 'Bitcoin Public Information': price, trend, forecast and the chart of the last minutes. */
export function BitcoinInformationContent() {
  const { t } = useTranslation();
  useCachedDataHold(bitcoinTrendCache, BITCOIN_TREND_KEY);
  const { information, trend_data, is_trend_data_loading, trend_data_error } = useSnapshot(bitcoinStore);
  const current = trend_data?.bitcoin_public_information ?? information;
  const points = (trend_data?.trend_data_list ?? []).map((point) => ({ x: point.time, y: point.price }));
  const prediction = current?.trend_prediction ?? 0;
  const chartTitle = t('bitcoin.chart_title', {
    pair: trend_data?.symbol_pair ?? 'BTCUSDT',
    time: points[0] ? formatTimeOfDay(points[0].x) : '—',
  });
  return (
    <div className="bitcoin-information" data-testid="bitcoin-information">
      {current ? (
        <dl className="stat-grid">
          <div className="stat">
            <dt>{t('bitcoin.current_price')}</dt>
            <dd className="stat-value numeric" data-testid="bitcoin-information-price">
              {formatGrouped(current.current_price, BITCOIN_PRICE_DECIMALS)} $
            </dd>
          </div>
          <div className="stat">
            <dt>{t('bitcoin.trend')}</dt>
            <dd className="stat-value">
              <Chip palette={trendPalette(current.trend_moment)}>
                <DirectionIcon direction={current.trend_moment} />
                {t(`trend_label.${trendLabel(current.trend_moment)}`)}
              </Chip>
            </dd>
          </div>
          <div className="stat">
            <dt>{t('bitcoin.prediction')}</dt>
            <dd className={`stat-value numeric trend-value palette-${trendPalette(prediction)}`}>
              {prediction > 0 ? '+' : ''}
              {formatFixed(prediction, TREND_DECIMALS)} %
            </dd>
            {trend_data ? (
              <dd className="muted stat-note">
                {t('bitcoin.prediction_horizon', { n: trend_data.prediction_horizon_minutes })}
              </dd>
            ) : null}
          </div>
        </dl>
      ) : null}
      <section className="chart-section" aria-busy={is_trend_data_loading}>
        <h3 className="section-heading">{chartTitle}</h3>
        {points.length > 1 ? (
          <PriceChart
            points={points}
            decimals={BITCOIN_PRICE_DECIMALS}
            label={chartTitle}
            seriesLabel={t('bitcoin.current_price')}
            formatTime={formatTimeOfDay}
            tone={
              current && current.trend_moment < 0
                ? 'red'
                : current && current.trend_moment > 0
                  ? 'green'
                  : 'accent'
            }
          />
        ) : is_trend_data_loading ? (
          <Loader fill />
        ) : trend_data_error ? (
          <p className="form-error" role="alert">
            {t('common.error')}: {trend_data_error}
          </p>
        ) : (
          <p className="muted">{t('bitcoin.no_trend_data')}</p>
        )}
      </section>
    </div>
  );
}
