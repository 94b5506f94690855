// 'Statistic Trade By Last Day' (SPEC.md §2): the house's open buy and sell counts, their combined open ROE
// and the bitcoin price, one point per 5 minutes, x labels '{n} Minutes ago'. Counts, a percent and a
// ~97,000 USD price cannot share one y scale legibly, so the chart is three aligned panels on one x axis,
// each with its own scale and unit (README.md beside the store). It imports @nivo/line: only ever loaded
// lazily.
import { ResponsiveLine, type LineSvgProps } from '@nivo/line';
import { useTranslation } from 'react-i18next';
import type { StatisticTradePoint } from '../../../../contracts';
import { BITCOIN_PRICE_DECIMALS } from '../../../config/constants';
import { formatFixed, formatGrouped } from '../../../lib/format';
import { formatTimeOfDay } from '../../../lib/i18n';
import {
  axisLabelWidthPx,
  combinedOpenRoe,
  MINUTE_TICK_STEPS,
  minutesAgo,
  niceTicks,
  ROE_DECIMALS,
  tickIndexes,
  ticksForWidth,
  type AxisTicks,
} from '../statistics-format';
import { useElementWidth } from './use-element-width';
import { useStatisticColours } from './use-statistic-colours';
import '../../../components/charts/charts.css';

type Series = { id: string; data: { x: number; y: number }[] };
type LineProps = Omit<LineSvgProps<Series>, 'width' | 'height'>;

/** Room for the y labels ('97 000', '-12.50'), the same in every panel so the panels line up. */
const MARGIN_LEFT_PX = 56;
/** Room for half of the latest x label, which sits on the right edge. */
const MARGIN_RIGHT_PX = 44;
const MAX_MINUTE_TICKS = 8;

export interface LastDayChartProps {
  points: readonly StatisticTradePoint[];
}

function PointTooltip({ points, index }: { points: readonly StatisticTradePoint[]; index: number }) {
  const { t } = useTranslation('insights');
  const { colours } = useStatisticColours();
  const point = points[index];
  if (!point) return null;
  const roe = combinedOpenRoe(point);
  return (
    <div className="chart-tooltip" data-testid="last-day-tooltip">
      <span className="muted">
        {t('dashboard.minutes_ago', { n: minutesAgo(index, points.length) })} ·{' '}
        {formatTimeOfDay(Date.parse(point.statistic_time))}
      </span>
      <span style={{ color: colours.blue }}>
        {t('dashboard.open_count_buy')}: <strong className="numeric">{point.trade_open_count_buy}</strong>
      </span>
      <span style={{ color: colours.orange }}>
        {t('dashboard.open_count_sell')}: <strong className="numeric">{point.trade_open_count_sell}</strong>
      </span>
      <span style={{ color: colours.violet }}>
        {t('dashboard.open_roe')}: <strong className="numeric">{formatFixed(roe, ROE_DECIMALS)} %</strong>
      </span>
      <span style={{ color: colours.text }}>
        {t('dashboard.bitcoin_price')}:{' '}
        <strong className="numeric">{formatGrouped(point.current_price, BITCOIN_PRICE_DECIMALS)} $</strong>
      </span>
    </div>
  );
}

interface PanelProps {
  points: readonly StatisticTradePoint[];
  series: Series[];
  colors: string[];
  axis: AxisTicks;
  formatY: (value: number) => string;
  xTicks: number[];
  showXAxis: boolean;
  curve: LineProps['curve'];
  label: string;
  height: number;
  zeroLine?: boolean;
  testId: string;
}

function Panel({
  points,
  series,
  colors,
  axis,
  formatY,
  xTicks,
  showXAxis,
  curve,
  label,
  height,
  zeroLine = false,
  testId,
}: PanelProps) {
  const { t } = useTranslation('insights');
  const { theme, colours } = useStatisticColours();
  const last = Math.max(1, points.length - 1);
  const props: LineProps = {
    data: series,
    theme,
    margin: { top: 8, right: MARGIN_RIGHT_PX, bottom: showXAxis ? 30 : 8, left: MARGIN_LEFT_PX },
    xScale: { type: 'linear', min: 0, max: last, nice: false },
    yScale: { type: 'linear', min: axis.ticks[0] ?? 0, max: axis.ticks.at(-1) ?? 1, nice: false },
    colors,
    curve,
    lineWidth: 2,
    enablePoints: points.length < 3,
    pointSize: 5,
    gridXValues: xTicks,
    gridYValues: axis.ticks,
    axisBottom: showXAxis
      ? {
          tickValues: xTicks,
          tickSize: 4,
          format: (value) => t('dashboard.minutes_ago', { n: minutesAgo(Number(value), points.length) }),
        }
      : null,
    axisLeft: { tickValues: axis.ticks, tickSize: 4, format: (value) => formatY(Number(value)) },
    markers: zeroLine ? [{ axis: 'y', value: 0, lineStyle: { stroke: colours.muted, strokeWidth: 1 } }] : [],
    enableSlices: 'x',
    enableCrosshair: true,
    animate: false,
    role: 'img',
    ariaLabel: label,
    sliceTooltip: ({ slice }) => <PointTooltip points={points} index={Number(slice.points[0]?.data.x)} />,
  };
  return (
    <div className="price-chart" style={{ height }} data-testid={testId}>
      <ResponsiveLine {...props} />
    </div>
  );
}

export function LastDayChart({ points }: LastDayChartProps) {
  const { t } = useTranslation('insights');
  const { colours } = useStatisticColours();
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const plotWidth = width - MARGIN_LEFT_PX - MARGIN_RIGHT_PX;
  // As many labels as fit at this width in this language: the oldest label is the longest.
  const longestLabel = t('dashboard.minutes_ago', { n: minutesAgo(0, points.length) });
  const maxTicks = ticksForWidth(plotWidth, axisLabelWidthPx(longestLabel), MAX_MINUTE_TICKS);
  const xTicks = tickIndexes(points.length, maxTicks, MINUTE_TICK_STEPS);

  const counts = points.map((point) => Math.max(point.trade_open_count_buy, point.trade_open_count_sell));
  const countAxis = niceTicks(0, Math.max(1, ...counts), 4, 1);
  const roes = points.map((point) => Number(combinedOpenRoe(point)));
  const roeAxis = niceTicks(Math.min(0, ...roes), Math.max(0, ...roes), 4);
  const prices = points.map((point) => point.current_price);
  const priceAxis = niceTicks(Math.min(...prices), Math.max(...prices), 3, 1);

  const line = (id: string, y: (point: StatisticTradePoint, index: number) => number): Series => ({
    id,
    data: points.map((point, index) => ({ x: index, y: y(point, index) })),
  });
  const countsLabel = t('dashboard.open_counts_title');
  const roeLabel = t('dashboard.open_roe_title');
  const priceLabel = t('dashboard.bitcoin_price');
  return (
    <div className="statistics-panels" ref={ref} data-testid="last-day-chart">
      <h3 className="statistics-panel-heading">
        {countsLabel}
        <span className="statistics-swatch is-count-buy">{t('dashboard.open_count_buy')}</span>
        <span className="statistics-swatch is-count-sell">{t('dashboard.open_count_sell')}</span>
      </h3>
      <Panel
        points={points}
        series={[
          line(t('dashboard.open_count_buy'), (point) => point.trade_open_count_buy),
          line(t('dashboard.open_count_sell'), (point) => point.trade_open_count_sell),
        ]}
        colors={[colours.blue, colours.orange]}
        axis={countAxis}
        formatY={(value) => formatFixed(value, 0)}
        xTicks={xTicks}
        showXAxis={false}
        curve="stepAfter"
        label={countsLabel}
        height={170}
        testId="last-day-counts"
      />
      <h3 className="statistics-panel-heading">
        <span className="statistics-swatch is-roe">{roeLabel}</span>
      </h3>
      <Panel
        points={points}
        series={[line(roeLabel, (_, index) => roes[index] ?? 0)]}
        colors={[colours.violet]}
        axis={roeAxis}
        formatY={(value) => formatFixed(value, roeAxis.decimals)}
        xTicks={xTicks}
        showXAxis={false}
        curve="linear"
        label={roeLabel}
        height={130}
        zeroLine
        testId="last-day-roe"
      />
      <h3 className="statistics-panel-heading">
        <span className="statistics-swatch is-price">{priceLabel}</span>
      </h3>
      <Panel
        points={points}
        series={[line(priceLabel, (point) => point.current_price)]}
        colors={[colours.text]}
        axis={priceAxis}
        formatY={(value) => formatGrouped(value, BITCOIN_PRICE_DECIMALS)}
        xTicks={xTicks}
        showXAxis
        curve="monotoneX"
        label={priceLabel}
        height={150}
        testId="last-day-price"
      />
    </div>
  );
}
