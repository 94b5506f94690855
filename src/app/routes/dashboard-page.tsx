import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Loader } from '../../components/ui';
import { formatTimeOfDay } from '../../lib/i18n';
import { itemFigures, pointFigures } from '../../features/statistics/statistics-format';
import { statisticsStore } from '../../features/statistics/statistics-store';
import { HouseTerms } from '../../features/statistics/components/house-terms';
import { TradeSummary } from '../../features/statistics/components/trade-summary';
import { useStatisticsRefresh } from '../../features/statistics/components/use-statistics-refresh';
import '../../features/statistics/components/statistics.css';
import { lazyChunk } from '../../lib/lazy-chunk';

// The charts draw with nivo (@nivo/line, @nivo/pie, @nivo/bar): each is loaded when there is something to
// draw, never in the initial bundle.
const LastDayChart = lazyChunk(() =>
  import('../../features/statistics/components/last-day-chart').then((module) => ({
    default: module.LastDayChart,
  })),
);
const LastMonthChart = lazyChunk(() =>
  import('../../features/statistics/components/last-month-chart').then((module) => ({
    default: module.LastMonthChart,
  })),
);
const TradeDoughnuts = lazyChunk(() =>
  import('../../features/statistics/components/trade-doughnuts').then((module) => ({
    default: module.TradeDoughnuts,
  })),
);

function StatisticPanel({
  id,
  title,
  note,
  isBusy,
  className,
  children,
}: {
  id: string;
  title: string;
  note?: string;
  isBusy: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={`panel statistics-section ${className ?? ''}`.trim()}
      aria-labelledby={`${id}-title`}
      aria-busy={isBusy}
      data-testid={id}
    >
      <div className="panel-header">
        <h2 id={`${id}-title`} className="panel-title">
          {title}
        </h2>
        {note ? <span className="muted statistics-note">{note}</span> : null}
        {isBusy ? <Loader size={16} /> : null}
      </div>
      <div className="panel-body">{children}</div>
    </section>
  );
}

/** A loader until the first read has finished, then the empty-state text. */
function NoData({ isLoading, testId }: { isLoading: boolean; testId: string }) {
  const { t } = useTranslation('insights');
  if (isLoading) return <Loader fill />;
  return (
    <p className="muted statistics-empty" data-testid={testId}>
      {t('dashboard.no_data')}
    </p>
  );
}

function LastDaySection() {
  const { t } = useTranslation('insights');
  const { statistic_trade_by_day_list, is_day_loading, is_day_loaded } = useSnapshot(statisticsStore);
  const isEmpty = statistic_trade_by_day_list.length === 0;
  return (
    <StatisticPanel
      id="statistics-last-day"
      title={t('dashboard.last_day_title')}
      isBusy={is_day_loading && !isEmpty}
    >
      {isEmpty ? (
        <NoData isLoading={is_day_loading || !is_day_loaded} testId="statistics-last-day-empty" />
      ) : (
        <Suspense fallback={<Loader fill />}>
          <LastDayChart points={statistic_trade_by_day_list} />
        </Suspense>
      )}
    </StatisticPanel>
  );
}

/** 'Statistic Trade By Now': the latest last-day point; nothing at all without one (SPEC.md §2). */
export function NowSection() {
  const { t } = useTranslation('insights');
  const { last_information } = useSnapshot(statisticsStore);
  if (!last_information) return null;
  const figures = pointFigures(last_information);
  return (
    <StatisticPanel
      id="statistics-now"
      title={t('dashboard.now_title')}
      note={t('dashboard.as_of', { time: formatTimeOfDay(Date.parse(last_information.statistic_time)) })}
      isBusy={false}
      className="statistics-figures"
    >
      <TradeSummary figures={figures} testId="statistics-now-summary" />
      <Suspense fallback={<Loader fill />}>
        <TradeDoughnuts figures={figures} testId="statistics-now-doughnuts" />
      </Suspense>
    </StatisticPanel>
  );
}

/** 'Statistic Trade By Yesterday': the last item of the month list. */
function YesterdaySection() {
  const { t } = useTranslation('insights');
  const { yesterday_information, is_month_loading, is_month_loaded } = useSnapshot(statisticsStore);
  const figures = yesterday_information ? itemFigures(yesterday_information) : undefined;
  return (
    <StatisticPanel
      id="statistics-yesterday"
      title={t('dashboard.yesterday_title')}
      note={
        yesterday_information ? t('dashboard.utc_day', { day: yesterday_information.statistic_date }) : ''
      }
      isBusy={false}
      className="statistics-figures"
    >
      {figures ? (
        <>
          <TradeSummary figures={figures} testId="statistics-yesterday-summary" />
          <Suspense fallback={<Loader fill />}>
            <TradeDoughnuts figures={figures} testId="statistics-yesterday-doughnuts" />
          </Suspense>
        </>
      ) : (
        <NoData isLoading={is_month_loading || !is_month_loaded} testId="statistics-yesterday-empty" />
      )}
    </StatisticPanel>
  );
}

function LastMonthSection() {
  const { t } = useTranslation('insights');
  const { statistic_trade_by_month_list, is_month_loading, is_month_loaded } = useSnapshot(statisticsStore);
  const isEmpty = statistic_trade_by_month_list.length === 0;
  return (
    <StatisticPanel
      id="statistics-last-month"
      title={t('dashboard.last_month_title')}
      isBusy={is_month_loading && !isEmpty}
    >
      {isEmpty ? (
        <NoData isLoading={is_month_loading || !is_month_loaded} testId="statistics-last-month-empty" />
      ) : (
        <>
          <Suspense fallback={<Loader fill />}>
            <LastMonthChart items={statistic_trade_by_month_list} now={new Date()} />
          </Suspense>
          <p className="muted statistics-note">{t('dashboard.roe_profit_loss_explained')}</p>
        </>
      )}
    </StatisticPanel>
  );
}

/**
 * /dashboard (SPEC.md §2 "Dashboard"): the public statistics, the track record of the house paper account
 * that follows every signal. Read on mount and every 5 minutes while open.
 */
export function DashboardPage() {
  const { t } = useTranslation('insights');
  useStatisticsRefresh();
  return (
    <div className="page statistics-page" data-testid="dashboard-page">
      <h1 className="page-title">{t('dashboard.title')}</h1>
      <p className="muted statistics-lead">{t('dashboard.lead')}</p>
      <LastDaySection />
      <div className="statistics-figures-row">
        <NowSection />
        <YesterdaySection />
      </div>
      <LastMonthSection />
      <HouseTerms />
    </div>
  );
}
