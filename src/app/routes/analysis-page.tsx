import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot, type Snapshot } from 'valtio';
import { ANALYSIS_MAX_RANGE_DAYS, type AnalysisResult, type LagMaxCorrelation } from '../../../contracts';
import { Loader } from '../../components/ui';
import { formatFixed } from '../../lib/format';
import {
  CLEAR_RELATION_MIN_ABS_CORR,
  CORRELATION_DECIMALS,
  lagMinutes,
  relationKind,
  signedLag,
  strongestRelation,
} from '../../features/analysis/analysis-format';
import {
  analysisRangeProblem,
  analysisStore,
  isTodayOrLater,
  resetEndDayToToday,
  resetStartDayToToday,
  shiftEndDay,
  shiftStartDay,
  type AnalysisRangeProblem,
} from '../../features/analysis/analysis-store';
import { DayPicker } from '../../features/analysis/components/day-picker';
import { useAnalysisQuery } from '../../features/analysis/components/use-analysis-query';
import '../../features/analysis/components/analysis.css';
import { lazyChunk } from '../../lib/lazy-chunk';

// The chart draws with nivo: loaded when there is something to draw, never in the initial bundle.
const CorrelationChart = lazyChunk(() =>
  import('../../features/analysis/components/correlation-chart').then((module) => ({
    default: module.CorrelationChart,
  })),
);

const PROBLEM_KEYS: Record<AnalysisRangeProblem, string> = {
  missing: 'analysis.range_missing',
  inverted: 'analysis.range_inverted',
  too_long: 'analysis.range_too_long',
};

/**
 * SPEC.md's greatest correlation of a series with its lag, and beside it (issue 40) the strongest relation — the
 * largest |r| — in numbers and in words: whether the signals came before bitcoin's move, after it, or with it.
 */
function MaxCorrelation({
  title,
  value,
  series,
  points,
  formatLag,
  testId,
}: {
  title: string;
  value: LagMaxCorrelation;
  series: 'buy' | 'sell';
  points: Snapshot<AnalysisResult>['lag_price_list'];
  formatLag: (lag: number) => string;
  testId: string;
}) {
  const { t } = useTranslation('insights');
  const strongest = strongestRelation(points, series);
  const kind = strongest ? relationKind(strongest) : 'none';
  const rising = strongest !== undefined && strongest.corr > 0;
  return (
    <div className="stat" data-testid={testId}>
      <dt>{title}</dt>
      <dd className="stat-value numeric">{formatFixed(value.max_corr, CORRELATION_DECIMALS)}</dd>
      <dd className="stat-note muted">{t('analysis.at_lag', { lag: formatLag(value.lag_at_max_corr) })}</dd>
      {strongest ? (
        <dd className="stat-note analysis-strongest" data-testid={`${testId}-strongest`} data-kind={kind}>
          {t('analysis.strongest', {
            corr: formatFixed(strongest.corr, CORRELATION_DECIMALS),
            lag: formatLag(strongest.lag),
          })}{' '}
          {t(`analysis.relation.${kind}`, {
            series: t(`analysis.relation.series_${series}`),
            move: t(rising ? 'analysis.relation.rise' : 'analysis.relation.fall'),
            moved: t(rising ? 'analysis.relation.rose' : 'analysis.relation.fell'),
            minutes: lagMinutes(Math.abs(strongest.lag)).replace('+', ''),
            threshold: CLEAR_RELATION_MIN_ABS_CORR,
          })}
        </dd>
      ) : null}
    </div>
  );
}

function AnalysisResultView({ result }: { result: Snapshot<AnalysisResult> }) {
  const { t } = useTranslation('insights');
  const formatLag = (lag: number) =>
    t('analysis.lag_value', { lag: signedLag(lag), minutes: lagMinutes(lag) });
  if (result.lag_price_list.length === 0) {
    return (
      <p className="muted analysis-empty" data-testid="analysis-empty">
        {t('analysis.no_data')}
      </p>
    );
  }
  const decimals = (value: number) => formatFixed(value, CORRELATION_DECIMALS);
  return (
    <>
      <dl className="stat-grid">
        <MaxCorrelation
          title={t('analysis.max_buy')}
          value={result.lag_buy}
          series="buy"
          points={result.lag_price_list}
          formatLag={formatLag}
          testId="analysis-max-buy"
        />
        <MaxCorrelation
          title={t('analysis.max_sell')}
          value={result.lag_sell}
          series="sell"
          points={result.lag_price_list}
          formatLag={formatLag}
          testId="analysis-max-sell"
        />
      </dl>
      <ul className="analysis-legend" aria-hidden="true">
        <li className="is-buy">{t('analysis.series_buy')}</li>
        <li className="is-sell">{t('analysis.series_sell')}</li>
      </ul>
      <Suspense fallback={<Loader fill />}>
        <CorrelationChart
          points={result.lag_price_list}
          label={t('analysis.chart_label')}
          buyLabel={t('analysis.series_buy')}
          sellLabel={t('analysis.series_sell')}
          formatLag={formatLag}
        />
      </Suspense>
      <p className="muted analysis-note">{t('analysis.lag_explained')}</p>
      <details className="analysis-values">
        <summary>{t('analysis.values_title')}</summary>
        <table className="analysis-table numeric" data-testid="analysis-values">
          <thead>
            <tr>
              <th scope="col">{t('analysis.column_lag')}</th>
              <th scope="col">{t('analysis.series_buy')}</th>
              <th scope="col">{t('analysis.series_sell')}</th>
            </tr>
          </thead>
          <tbody>
            {result.lag_price_list.map((point) => (
              <tr key={point.lag}>
                <th scope="row">{formatLag(point.lag)}</th>
                <td>{decimals(point.corr_buy)}</td>
                <td>{decimals(point.corr_sell)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

/**
 * /analysis (SPEC.md §2 "Analysis"): start-day and end-day pickers, the correlation of the signals with
 * bitcoin's 5-minute returns by lag, and the greatest correlation of buy and of sell signals with its lag.
 */
export function AnalysisPage() {
  const { t } = useTranslation('insights');
  useAnalysisQuery();
  const { startDate, endDate, result, loading } = useSnapshot(analysisStore);
  const problem = analysisRangeProblem(startDate, endDate);
  let body;
  if (problem) {
    body = (
      <p className="form-error" role="alert" data-testid="analysis-range-problem">
        {t(PROBLEM_KEYS[problem], { days: ANALYSIS_MAX_RANGE_DAYS })}
      </p>
    );
  } else if (result) {
    body = <AnalysisResultView result={result} />;
  } else {
    body = loading ? <Loader fill /> : null;
  }
  return (
    <div className="page" data-testid="analysis-page">
      <h1 className="page-title">{t('analysis.title')}</h1>
      <section className="panel panel-body analysis-range" aria-label={t('analysis.range_label')}>
        <p className="muted analysis-lead">{t('analysis.lead')}</p>
        <div className="analysis-pickers">
          <DayPicker
            label={t('analysis.start_day')}
            value={startDate}
            onPrevious={() => shiftStartDay(-1)}
            onNext={() => shiftStartDay(1)}
            onToday={() => resetStartDayToToday()}
            isNextDisabled={isTodayOrLater(startDate)}
            testId="analysis-start-day"
          />
          <DayPicker
            label={t('analysis.end_day')}
            value={endDate}
            onPrevious={() => shiftEndDay(-1)}
            onNext={() => shiftEndDay(1)}
            onToday={() => resetEndDayToToday()}
            isNextDisabled={isTodayOrLater(endDate)}
            testId="analysis-end-day"
          />
        </div>
      </section>
      <section className="panel" aria-labelledby="analysis-result-title" aria-busy={loading}>
        <div className="panel-header">
          <h2 id="analysis-result-title" className="panel-title">
            {t('analysis.chart_title')}
          </h2>
          {loading && result ? <Loader size={16} /> : null}
        </div>
        <div className="panel-body">{body}</div>
      </section>
    </div>
  );
}
