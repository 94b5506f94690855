// The correlation chart of SPEC.md §2 "Analysis": corr_buy and corr_sell against the lag, y from −1 to 1, at
// most 48 x ticks, values to 3 decimals (§9). It imports @nivo/line, so it is only ever loaded lazily.
import { ResponsiveLine, type LineSvgProps } from '@nivo/line';
import type { LagPricePoint } from '../../../../contracts';
import { useChartTheme } from '../../../components/charts/use-chart-theme';
import { formatFixed } from '../../../lib/format';
import { CORRELATION_DECIMALS, lagTicks, signedLag } from '../analysis-format';
import '../../../components/charts/charts.css';

export interface CorrelationChartProps {
  points: readonly LagPricePoint[];
  /** The chart's accessible name. */
  label: string;
  buyLabel: string;
  sellLabel: string;
  /** A lag as the tooltip shows it ('+3 (15 min)'). */
  formatLag: (lag: number) => string;
  height?: number;
}

type Series = { id: string; data: { x: number; y: number }[] };

export function CorrelationChart({
  points,
  label,
  buyLabel,
  sellLabel,
  formatLag,
  height = 300,
}: CorrelationChartProps) {
  const { theme, colours } = useChartTheme();
  const series: Series[] = [
    { id: buyLabel, data: points.map((point) => ({ x: point.lag, y: point.corr_buy })) },
    { id: sellLabel, data: points.map((point) => ({ x: point.lag, y: point.corr_sell })) },
  ];
  const lags = points.map((point) => point.lag);
  const props: Omit<LineSvgProps<Series>, 'width' | 'height'> = {
    data: series,
    theme,
    margin: { top: 12, right: 16, bottom: 30, left: 52 },
    xScale: { type: 'linear', min: Math.min(...lags), max: Math.max(...lags), nice: false },
    yScale: { type: 'linear', min: -1, max: 1, nice: false },
    // SPEC.md §9 colour pair of buy and sell.
    colors: [colours.green, colours.red],
    curve: 'linear',
    lineWidth: 2,
    enablePoints: true,
    pointSize: 4,
    enableGridX: false,
    gridYValues: [-1, -0.5, 0, 0.5, 1],
    axisBottom: { tickValues: lagTicks(lags), format: (value) => signedLag(Number(value)), tickSize: 4 },
    axisLeft: {
      tickValues: [-1, -0.5, 0, 0.5, 1],
      format: (value) => formatFixed(Number(value), 1),
      tickSize: 4,
    },
    markers: [
      { axis: 'y', value: 0, lineStyle: { stroke: colours.muted, strokeWidth: 1 } },
      { axis: 'x', value: 0, lineStyle: { stroke: colours.muted, strokeWidth: 1, strokeDasharray: '4 4' } },
    ],
    enableSlices: 'x',
    enableCrosshair: true,
    animate: false,
    role: 'img',
    ariaLabel: label,
    sliceTooltip: ({ slice }) => (
      <div className="chart-tooltip">
        <span className="muted">{formatLag(Number(slice.points[0]?.data.x ?? 0))}</span>
        {slice.points.map((point) => (
          <span key={point.id} style={{ color: point.seriesColor }}>
            {point.seriesId}:{' '}
            <strong className="numeric">{formatFixed(Number(point.data.y), CORRELATION_DECIMALS)}</strong>
          </span>
        ))}
      </div>
    ),
  };
  return (
    <div className="price-chart" style={{ height }} data-testid="correlation-chart">
      <ResponsiveLine {...props} />
    </div>
  );
}
