// The two doughnuts of 'Statistic Trade By Now' and 'Statistic Trade By Yesterday' (SPEC.md §2): ROE (buy
// green, sell red) and Count (buy blue, sell orange). ROE may be negative: a slice's size is the absolute
// value, its legend and tooltip show the signed value. It imports @nivo/pie: only ever loaded lazily.
import { ResponsivePie, type PieCustomLayerProps, type PieSvgProps } from '@nivo/pie';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../../../lib/format';
import { ROE_DECIMALS, type TradeFigures } from '../statistics-format';
import { useStatisticColours } from './use-statistic-colours';
import '../../../components/charts/charts.css';

interface Slice {
  id: string;
  label: string;
  /** The slice size: the absolute value. */
  value: number;
  /** The value shown: signed, formatted. */
  shown: string;
  color: string;
}

type PieProps = Omit<PieSvgProps<Slice>, 'width' | 'height'>;

function centreTitle(title: string) {
  return function CentreTitle({ centerX, centerY }: PieCustomLayerProps<Slice>) {
    return (
      <text
        x={centerX}
        y={centerY}
        textAnchor="middle"
        dominantBaseline="central"
        className="statistics-doughnut-title"
      >
        {title}
      </text>
    );
  };
}

function Doughnut({ title, slices, testId }: { title: string; slices: Slice[]; testId: string }) {
  const { theme, colours } = useStatisticColours();
  const { t } = useTranslation('insights');
  const centre = useMemo(() => centreTitle(title), [title]);
  // Both values 0: a muted ring, so the doughnut keeps its place and says there is nothing to split.
  const isEmpty = slices.every((slice) => slice.value === 0);
  const data: Slice[] = isEmpty
    ? [{ id: 'none', label: t('dashboard.no_value'), value: 1, shown: '0', color: colours.grid }]
    : slices;
  const props: PieProps = {
    data,
    theme,
    margin: { top: 6, right: 6, bottom: 6, left: 6 },
    innerRadius: 0.62,
    padAngle: isEmpty ? 0 : 1.5,
    cornerRadius: 2,
    sortByValue: false,
    colors: (datum) => datum.data.color,
    borderWidth: 0,
    // Signed values do not fit inside a ring under 180 px: they are in the legend below and the tooltip.
    enableArcLinkLabels: false,
    enableArcLabels: false,
    activeOuterRadiusOffset: isEmpty ? 0 : 4,
    isInteractive: !isEmpty,
    animate: false,
    // The figure around names the doughnut with its values.
    role: 'presentation',
    layers: ['arcs', centre],
    tooltip: ({ datum }) => (
      <div className="chart-tooltip">
        <span style={{ color: datum.data.color }}>
          {datum.data.label}: <strong className="numeric">{datum.data.shown}</strong>
        </span>
      </div>
    ),
  };
  const description = slices.map((slice) => `${slice.label}: ${slice.shown}`).join(', ');
  return (
    <figure className="statistics-doughnut" data-testid={testId}>
      <div className="statistics-doughnut-chart" role="img" aria-label={`${title}: ${description}`}>
        <ResponsivePie {...props} />
      </div>
      <figcaption className="statistics-doughnut-legend">
        {slices.map((slice) => (
          <span key={slice.id} className="statistics-legend-item">
            <span className="statistics-legend-dot" style={{ background: slice.color }} aria-hidden="true" />
            {slice.label} <strong className="numeric">{slice.shown}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export interface TradeDoughnutsProps {
  figures: TradeFigures;
  testId: string;
}

export function TradeDoughnuts({ figures, testId }: TradeDoughnutsProps) {
  const { t } = useTranslation('insights');
  const { colours } = useStatisticColours();
  const percent = (value: number) => `${formatFixed(value, ROE_DECIMALS)} %`;
  return (
    <div className="statistics-doughnuts" data-testid={testId}>
      <Doughnut
        title={t('dashboard.roe')}
        testId={`${testId}-roe`}
        slices={[
          {
            id: 'buy',
            label: t('dashboard.buy'),
            value: Math.abs(figures.roe_buy),
            shown: percent(figures.roe_buy),
            color: colours.green,
          },
          {
            id: 'sell',
            label: t('dashboard.sell'),
            value: Math.abs(figures.roe_sell),
            shown: percent(figures.roe_sell),
            color: colours.red,
          },
        ]}
      />
      <Doughnut
        title={t('dashboard.count')}
        testId={`${testId}-count`}
        slices={[
          {
            id: 'buy',
            label: t('dashboard.buy'),
            value: figures.count_buy,
            shown: String(figures.count_buy),
            color: colours.blue,
          },
          {
            id: 'sell',
            label: t('dashboard.sell'),
            value: figures.count_sell,
            shown: String(figures.count_sell),
            color: colours.orange,
          },
        ]}
      />
    </div>
  );
}
