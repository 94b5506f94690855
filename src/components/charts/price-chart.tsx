// A line chart of prices over time (epoch ms on x), for the bitcoin and the signal modals. It imports
// @nivo/line, so it is only ever loaded lazily (React.lazy), never in the initial bundle.
import { ResponsiveLine, type LineSvgProps } from '@nivo/line';
import { formatGrouped } from '../../lib/format';
import { useAfterPaint } from '../../lib/use-after-paint';
import { Loader } from '../ui';
import { useChartTheme } from './use-chart-theme';
import './charts.css';

export interface PricePoint {
  /** Epoch ms. */
  x: number;
  y: number;
}

export interface PriceMarker {
  /** A price (horizontal line), or with axis 'x' a time in epoch ms (vertical line). */
  value: number;
  label: string;
  tone: 'accent' | 'green' | 'red' | 'muted';
  axis?: 'x' | 'y';
  /** Where the label sits, so labels of close lines do not overlap. */
  labelPosition?: 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
}

export interface PriceChartProps {
  points: readonly PricePoint[];
  /** Decimals of the prices on the axis and in the tooltip. */
  decimals: number;
  /** Horizontal lines (entry, target, stop). */
  markers?: readonly PriceMarker[];
  /** The chart's accessible name. */
  label: string;
  seriesLabel: string;
  /** Time of day of an epoch ms, in the current language. */
  formatTime: (ms: number) => string;
  tone?: 'accent' | 'green' | 'red';
  height?: number;
}

type Series = { id: string; data: PricePoint[] };

/** About six time ticks across the range, on whole minutes. */
function timeTicks(points: readonly PricePoint[]): number[] {
  const first = points[0]?.x;
  const last = points.at(-1)?.x;
  if (first === undefined || last === undefined || last <= first) return first === undefined ? [] : [first];
  const minuteMs = 60_000;
  const stepMs = Math.max(minuteMs, Math.ceil((last - first) / 6 / minuteMs) * minuteMs);
  const ticks: number[] = [];
  for (let tick = Math.ceil(first / stepMs) * stepMs; tick <= last; tick += stepMs) ticks.push(tick);
  return ticks;
}

export function PriceChart({
  points,
  decimals,
  markers = [],
  label,
  seriesLabel,
  formatTime,
  tone = 'accent',
  height = 280,
}: PriceChartProps) {
  const { theme, colours } = useChartTheme();
  // A loader in the chart's place until the modal around it has been painted; the chart is drawn after that
  // paint, in slices (lib/use-after-paint.ts), so the click that opened the modal is not held up by it.
  const isPainted = useAfterPaint();
  if (!isPainted) {
    return (
      <div className="price-chart" style={{ height }} data-testid="price-chart-pending">
        <Loader fill />
      </div>
    );
  }
  const series: Series[] = [{ id: seriesLabel, data: [...points] }];
  const priceMarkers = markers.filter((marker) => (marker.axis ?? 'y') === 'y');
  const values = [...points.map((point) => point.y), ...priceMarkers.map((marker) => marker.value)];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const pad = (max - min) * 0.08 || max * 0.001 || 1;
  const toneColour = { accent: colours.accent, green: colours.green, red: colours.red, muted: colours.muted };
  const props: Omit<LineSvgProps<Series>, 'width' | 'height'> = {
    data: series,
    theme,
    margin: { top: 12, right: 16, bottom: 28, left: 76 },
    xScale: { type: 'linear', min: points[0]?.x ?? 'auto', max: points.at(-1)?.x ?? 'auto', nice: false },
    yScale: { type: 'linear', min: min - pad, max: max + pad, nice: false },
    colors: [toneColour[tone]],
    curve: 'monotoneX',
    lineWidth: 2,
    enablePoints: false,
    enableArea: true,
    areaOpacity: 0.08,
    areaBaselineValue: min - pad,
    enableGridX: false,
    gridYValues: 5,
    axisBottom: { tickValues: timeTicks(points), format: (value) => formatTime(Number(value)), tickSize: 4 },
    axisLeft: { tickValues: 5, format: (value) => formatGrouped(Number(value), decimals), tickSize: 4 },
    useMesh: true,
    enableCrosshair: true,
    animate: false,
    role: 'img',
    ariaLabel: label,
    markers: markers.map((marker) => ({
      axis: marker.axis ?? 'y',
      value: marker.value,
      legend: marker.label,
      legendPosition: marker.labelPosition ?? 'top-left',
      lineStyle: { stroke: toneColour[marker.tone], strokeWidth: 1, strokeDasharray: '4 4' },
      textStyle: { fill: toneColour[marker.tone], fontSize: 11 },
    })),
    tooltip: ({ point }) => (
      <div className="chart-tooltip">
        <span className="muted">{formatTime(Number(point.data.x))}</span>
        <strong className="numeric">{formatGrouped(Number(point.data.y), decimals)}</strong>
      </div>
    ),
  };
  return (
    <div className="price-chart" style={{ height }} data-testid="price-chart">
      <ResponsiveLine {...props} />
    </div>
  );
}
