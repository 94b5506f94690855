// 'Statistic Trade By Last Month' (SPEC.md §2): per UTC day, Count Sell, Count Buy, Bitcoin Price (USD), ROE
// Profit (%) and ROE Loss (%), up to 10 x ticks reading 'N Days ago'. Counts, percents and a ~97,000 USD
// price cannot share one value scale legibly, so the chart is three aligned bar panels on one x axis: the
// counts (grouped bars), ROE Profit above and ROE Loss below zero (diverging bars), and the price on its own
// scale around the month's range, drawn as a line over the days because bars of ~97,000 starting from 0
// would all look alike (README.md beside the store). It imports @nivo/bar: only ever loaded lazily.
import { ResponsiveBar, type BarCustomLayerProps, type BarSvgProps } from '@nivo/bar';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatisticTradeItem } from '../../../../contracts';
import { BITCOIN_PRICE_DECIMALS } from '../../../config/constants';
import { formatFixed, formatGrouped } from '../../../lib/format';
import {
  axisLabelWidthPx,
  DAY_TICK_STEPS,
  daysAgo,
  MONTH_MAX_TICKS,
  niceTicks,
  ROE_DECIMALS,
  roeProfitLoss,
  tickIndexes,
  ticksForWidth,
  type AxisTicks,
} from '../statistics-format';
import { useElementWidth } from './use-element-width';
import { useStatisticColours } from './use-statistic-colours';
import '../../../components/charts/charts.css';

/** One bar group: a day of the month list, wire names where the wire has them. */
type DayDatum = {
  statistic_date: string;
  count_sell: number;
  count_buy: number;
  current_price: number;
  roe_profit: number;
  roe_loss: number;
};
type BarProps = Omit<BarSvgProps<DayDatum>, 'width' | 'height'>;

const MARGIN_LEFT_PX = 56;
/** Room for half of the latest x label past the centre of the last day. */
const MARGIN_RIGHT_PX = 28;

export interface LastMonthChartProps {
  items: readonly StatisticTradeItem[];
  /** The moment 'N Days ago' counts from. */
  now: Date;
}

function DayTooltip({ item, now }: { item: StatisticTradeItem | undefined; now: Date }) {
  const { t } = useTranslation('insights');
  const { colours } = useStatisticColours();
  if (!item) return null;
  const { roe_profit, roe_loss } = roeProfitLoss(item);
  return (
    <div className="chart-tooltip" data-testid="last-month-tooltip">
      <span className="muted">
        {t('dashboard.days_ago', { n: daysAgo(item.statistic_date, now) })} · {item.statistic_date}
      </span>
      <span style={{ color: colours.orange }}>
        {t('dashboard.count_sell')}: <strong className="numeric">{item.trade_close_count_sell}</strong>
      </span>
      <span style={{ color: colours.blue }}>
        {t('dashboard.count_buy')}: <strong className="numeric">{item.trade_close_count_buy}</strong>
      </span>
      <span style={{ color: colours.text }}>
        {t('dashboard.bitcoin_price')}:{' '}
        <strong className="numeric">{formatGrouped(item.current_price, BITCOIN_PRICE_DECIMALS)} $</strong>
      </span>
      <span style={{ color: colours.green }}>
        {t('dashboard.roe_profit')}:{' '}
        <strong className="numeric">{formatFixed(roe_profit, ROE_DECIMALS)}</strong>
      </span>
      <span style={{ color: colours.red }}>
        {t('dashboard.roe_loss')}: <strong className="numeric">{formatFixed(roe_loss, ROE_DECIMALS)}</strong>
      </span>
    </div>
  );
}

/** The price as a line with a dot per day, through the tops of the (invisible) price bars. */
function priceLineLayer(colour: string) {
  return function PriceLine({ bars }: BarCustomLayerProps<DayDatum>) {
    const centres = bars.map((bar) => ({ key: bar.key, x: bar.x + bar.width / 2, y: bar.y }));
    const path = centres.map((centre, i) => `${i === 0 ? 'M' : 'L'}${centre.x},${centre.y}`).join(' ');
    return (
      <g pointerEvents="none">
        <path d={path} fill="none" stroke={colour} strokeWidth={2} />
        {centres.map((centre) => (
          <circle key={centre.key} cx={centre.x} cy={centre.y} r={2.5} fill={colour} />
        ))}
      </g>
    );
  };
}

interface PanelProps {
  items: readonly StatisticTradeItem[];
  data: DayDatum[];
  keys: (keyof DayDatum)[];
  colors: string[];
  axis: AxisTicks;
  formatY: (value: number) => string;
  groupMode: 'grouped' | 'stacked';
  xTicks: string[];
  showXAxis: boolean;
  now: Date;
  label: string;
  height: number;
  zeroLine?: boolean;
  /** The price panel: a line on its own scale, the bars only catch the pointer for the tooltip. */
  isPriceLine?: boolean;
  testId: string;
}

function Panel({
  items,
  data,
  keys,
  colors,
  axis,
  formatY,
  groupMode,
  xTicks,
  showXAxis,
  now,
  label,
  height,
  zeroLine = false,
  isPriceLine = false,
  testId,
}: PanelProps) {
  const { t } = useTranslation('insights');
  const { theme, colours } = useStatisticColours();
  const byDate = new Map(items.map((item) => [item.statistic_date, item]));
  const lineColour = colors[0] ?? colours.text;
  const priceLine = useMemo(() => priceLineLayer(lineColour), [lineColour]);
  const props: BarProps = {
    data,
    keys,
    indexBy: 'statistic_date',
    theme,
    margin: { top: 8, right: MARGIN_RIGHT_PX, bottom: showXAxis ? 30 : 8, left: MARGIN_LEFT_PX },
    groupMode,
    padding: 0.25,
    innerPadding: groupMode === 'grouped' ? 1 : 0,
    // The price scale does not start at 0: clamped, so the hit areas stop at the frame.
    valueScale: {
      type: 'linear',
      min: axis.ticks[0] ?? 0,
      max: axis.ticks.at(-1) ?? 1,
      nice: false,
      clamp: isPriceLine,
    },
    indexScale: { type: 'band', round: false },
    colors: isPriceLine ? ['rgba(0, 0, 0, 0)'] : colors,
    borderRadius: 1,
    enableLabel: false,
    enableGridX: false,
    gridYValues: axis.ticks,
    axisBottom: showXAxis
      ? {
          tickValues: xTicks,
          tickSize: 4,
          format: (value) => t('dashboard.days_ago', { n: daysAgo(String(value), now) }),
        }
      : null,
    axisLeft: { tickValues: axis.ticks, tickSize: 4, format: (value) => formatY(Number(value)) },
    markers: zeroLine ? [{ axis: 'y', value: 0, lineStyle: { stroke: colours.muted, strokeWidth: 1 } }] : [],
    layers: isPriceLine ? ['grid', 'axes', 'bars', priceLine] : ['grid', 'axes', 'bars', 'markers'],
    tooltip: ({ indexValue }) => <DayTooltip item={byDate.get(String(indexValue))} now={now} />,
    animate: false,
    role: 'img',
    ariaLabel: label,
  };
  return (
    <div className="price-chart" style={{ height }} data-testid={testId}>
      <ResponsiveBar {...props} />
    </div>
  );
}

export function LastMonthChart({ items, now }: LastMonthChartProps) {
  const { t } = useTranslation('insights');
  const { colours } = useStatisticColours();
  const { ref, width } = useElementWidth<HTMLDivElement>();
  const plotWidth = width - MARGIN_LEFT_PX - MARGIN_RIGHT_PX;
  const oldest = items[0]?.statistic_date ?? '';
  const longestLabel = t('dashboard.days_ago', { n: daysAgo(oldest, now) });
  const maxTicks = ticksForWidth(plotWidth, axisLabelWidthPx(longestLabel), MONTH_MAX_TICKS);
  const xTicks = tickIndexes(items.length, maxTicks, DAY_TICK_STEPS).map(
    (index) => items[index]?.statistic_date ?? '',
  );

  const data: DayDatum[] = items.map((item) => {
    const { roe_profit, roe_loss } = roeProfitLoss(item);
    return {
      statistic_date: item.statistic_date,
      count_sell: item.trade_close_count_sell,
      count_buy: item.trade_close_count_buy,
      current_price: item.current_price,
      roe_profit: Number(roe_profit),
      roe_loss: Number(roe_loss),
    };
  });
  const counts = data.map((day) => Math.max(day.count_sell, day.count_buy));
  const countAxis = niceTicks(0, Math.max(1, ...counts), 4, 1);
  const roeAxis = niceTicks(
    Math.min(0, ...data.map((day) => day.roe_loss)),
    Math.max(0, ...data.map((day) => day.roe_profit)),
    4,
  );
  const prices = data.map((day) => day.current_price);
  const priceAxis = niceTicks(Math.min(...prices), Math.max(...prices), 3, 1);
  const common = { items, xTicks, now };
  return (
    <div className="statistics-panels" ref={ref} data-testid="last-month-chart">
      <ul className="statistics-legend" aria-hidden="true">
        <li className="statistics-swatch is-count-sell">{t('dashboard.count_sell')}</li>
        <li className="statistics-swatch is-count-buy">{t('dashboard.count_buy')}</li>
        <li className="statistics-swatch is-price">{t('dashboard.bitcoin_price')}</li>
        <li className="statistics-swatch is-roe-profit">{t('dashboard.roe_profit')}</li>
        <li className="statistics-swatch is-roe-loss">{t('dashboard.roe_loss')}</li>
      </ul>
      <h3 className="statistics-panel-heading">{t('dashboard.closed_counts_title')}</h3>
      <Panel
        {...common}
        data={data}
        keys={['count_sell', 'count_buy']}
        colors={[colours.orange, colours.blue]}
        axis={countAxis}
        formatY={(value) => formatFixed(value, 0)}
        groupMode="grouped"
        showXAxis={false}
        label={t('dashboard.closed_counts_title')}
        height={160}
        testId="last-month-counts"
      />
      <h3 className="statistics-panel-heading">{t('dashboard.closed_roe_title')}</h3>
      <Panel
        {...common}
        data={data}
        keys={['roe_profit', 'roe_loss']}
        colors={[colours.green, colours.red]}
        axis={roeAxis}
        formatY={(value) => formatFixed(value, roeAxis.decimals)}
        groupMode="stacked"
        showXAxis={false}
        label={t('dashboard.closed_roe_title')}
        height={150}
        zeroLine
        testId="last-month-roe"
      />
      <h3 className="statistics-panel-heading">{t('dashboard.bitcoin_price')}</h3>
      <Panel
        {...common}
        data={data}
        keys={['current_price']}
        colors={[colours.text]}
        axis={priceAxis}
        formatY={(value) => formatGrouped(value, BITCOIN_PRICE_DECIMALS)}
        groupMode="grouped"
        showXAxis
        label={t('dashboard.bitcoin_price')}
        height={150}
        isPriceLine
        testId="last-month-price"
      />
    </div>
  );
}
