import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SignalDirection, SignalOutcome, type SignalRecord } from '../../../../contracts';
import { CandleChart, type CandleLine, type CandleMarker } from '../../../components/charts/candle-chart';
import { Chip, DirectionIcon, Loader, Palette, trendLabel, trendPalette } from '../../../components/ui';
import { PERCENT_DECIMALS } from '../../../config/constants';
import { formatFixed, formatFractionAsPercent } from '../../../lib/format';
import { formatDateTime, formatTimeOfDay } from '../../../lib/i18n';
import { signalDetailCache, signalsStore } from '../signals-store';
import { useCachedDataHold } from '../../../lib/unused-data';
import { neuronChipText } from './signal-card';

function OutcomeChip({ record }: { record: Pick<SignalRecord, 'signal_outcome'> }) {
  const { t } = useTranslation();
  if (record.signal_outcome === SignalOutcome.HIT) {
    return <Chip palette={Palette.GREEN}>{t('signal.outcome.hit')}</Chip>;
  }
  if (record.signal_outcome === SignalOutcome.MISS) {
    return <Chip palette={Palette.RED}>{t('signal.outcome.miss')}</Chip>;
  }
  return <Chip palette={Palette.GRAY}>{t('signal.outcome.pending')}</Chip>;
}

/** Body of 'Signal Trend Data': the signal, the price around it with entry, target and stop, its record. */
export function SignalTrendContent({ signalUuid }: { signalUuid: string }) {
  const { t } = useTranslation();
  useCachedDataHold(signalDetailCache, signalUuid);
  const {
    signal_trend_data,
    signal_history_dict,
    detail_loading_by_uuid,
    detail_error_by_uuid,
    signal_by_uuid,
  } = useSnapshot(signalsStore);
  const trend = signal_trend_data[signalUuid];
  const history = signal_history_dict[signalUuid];
  const error = detail_error_by_uuid[signalUuid];
  // The card (if it is still shown) knows the symbol's price precision; otherwise the entry's own decimals.
  const card = signal_by_uuid[signalUuid];

  if (!trend || !history) {
    if (detail_loading_by_uuid[signalUuid] || !error) return <Loader fill />;
    return (
      <p className="form-error" role="alert" data-testid="signal-detail-error">
        {t('common.error')}: {error}
      </p>
    );
  }

  const record = trend.signal;
  const decimals =
    card?.symbol.symbol_price_precision ??
    Math.max(2, (String(record.signal_price_enter).split('.')[1] ?? '').length);
  const isBuy = record.signal_direction_created === SignalDirection.BUY;
  // The chart's lines: target, entry and stop (numbers on the wire; their text is the figure drawn).
  const lines: CandleLine[] = [
    {
      id: 'target',
      price: String(trend.price_target),
      label: t('signal.target'),
      tone: 'green',
      dashed: true,
    },
    { id: 'entry', price: String(record.signal_price_enter), label: t('signal.entry_price'), tone: 'accent' },
    { id: 'stop', price: String(trend.price_stop), label: t('signal.stop'), tone: 'red', dashed: true },
  ];
  const markers: CandleMarker[] = [
    {
      id: 'made',
      time: Date.parse(record.signal_created_at),
      kind: 'open',
      label: t('signal.made_marker'),
      tone: isBuy ? 'green' : 'red',
    },
  ];
  return (
    <div className="signal-trend" data-testid="signal-trend-content">
      <dl className="stat-grid">
        <div className="stat">
          <dt>{t('signal.symbol')}</dt>
          <dd className="stat-value">{trend.symbol_pair}</dd>
        </div>
        <div className="stat">
          <dt>{t('signal.direction_label')}</dt>
          <dd className={`stat-value signal-direction ${isBuy ? 'is-buy' : 'is-sell'}`}>
            <DirectionIcon direction={isBuy ? 1 : -1} />
            {t(`signal.direction.${record.signal_direction_created}`)}
          </dd>
        </div>
        <div className="stat">
          <dt>{t('signal.entry_price')}</dt>
          <dd className="stat-value numeric">{formatFixed(record.signal_price_enter, decimals)}</dd>
        </div>
        <div className="stat">
          <dt>{t('signal.accuracy')}</dt>
          <dd className="stat-value numeric">
            {record.signal_accuracy === null
              ? '—'
              : `${formatFractionAsPercent(record.signal_accuracy, PERCENT_DECIMALS)} %`}
          </dd>
          <dd className="muted stat-note">
            {t('signal.track_record', { hits: history.hit_count, resolved: history.resolved_count })}
          </dd>
        </div>
        <div className="stat">
          <dt>{t('signal.trend')}</dt>
          <dd className="stat-value">
            <Chip palette={trendPalette(record.trend_moment)}>
              {t(`trend_label.${trendLabel(record.trend_moment)}`)}
            </Chip>
          </dd>
        </div>
        <div className="stat">
          <dt>{t('signal.neuron')}</dt>
          <dd className="stat-value">
            <Chip palette={Palette.VIOLET} title={trend.neuron.neuron_uuid}>
              {neuronChipText(trend.neuron)}
            </Chip>
          </dd>
        </div>
        <div className="stat">
          <dt>{t('signal.outcome_label')}</dt>
          <dd className="stat-value">
            <OutcomeChip record={record} />
          </dd>
        </div>
      </dl>
      <p className="muted signal-hit-rule">
        {t('signal.hit_rule', {
          threshold: formatFixed(trend.hit_threshold_percent, PERCENT_DECIMALS),
          minutes: trend.horizon_minutes,
          created: formatDateTime(record.signal_created_at),
        })}
      </p>
      <section className="chart-section">
        <h3 className="section-heading">{t('signal.chart_title', { pair: trend.symbol_pair })}</h3>
        {trend.trend_data_list.length > 0 ? (
          <CandleChart
            candles={trend.trend_data_list}
            lines={lines}
            markers={markers}
            decimals={decimals}
            label={t('signal.chart_title', { pair: trend.symbol_pair })}
            formatTime={formatTimeOfDay}
            height={300}
          />
        ) : (
          <p className="muted">{t('signal.no_trend_data')}</p>
        )}
      </section>
      <section className="signal-history">
        <h3 id="signal-history-title" className="section-heading">
          {t('signal.history_title', {
            n: history.signal_history_list.length,
            window: history.accuracy_window,
          })}
        </h3>
        {history.signal_history_list.length === 0 ? (
          <p className="muted">{t('signal.history_empty')}</p>
        ) : (
          // Scrolls sideways on a phone: focusable and named, so a keyboard can scroll it.
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="signal-history-title">
            <table className="data-table" data-testid="signal-history">
              <thead>
                <tr>
                  <th scope="col">{t('signal.history.created')}</th>
                  <th scope="col">{t('signal.direction_label')}</th>
                  <th scope="col" className="is-numeric">
                    {t('signal.entry_price')}
                  </th>
                  <th scope="col" className="is-numeric">
                    {t('signal.history.exit')}
                  </th>
                  <th scope="col">{t('signal.outcome_label')}</th>
                </tr>
              </thead>
              <tbody>
                {history.signal_history_list.map((item) => (
                  <tr key={item.signal_uuid}>
                    <td>{formatDateTime(item.signal_created_at)}</td>
                    <td>
                      <span
                        className={`signal-direction ${
                          item.signal_direction_created === SignalDirection.BUY ? 'is-buy' : 'is-sell'
                        }`}
                      >
                        {t(`signal.direction.${item.signal_direction_created}`)}
                      </span>
                    </td>
                    <td className="is-numeric numeric">{formatFixed(item.signal_price_enter, decimals)}</td>
                    <td className="is-numeric numeric">
                      {item.signal_price_exit === null ? '—' : formatFixed(item.signal_price_exit, decimals)}
                    </td>
                    <td>
                      <OutcomeChip record={item} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
