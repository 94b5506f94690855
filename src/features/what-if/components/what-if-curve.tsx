// The what-if replay's equity curve (issue 42): the net realized PNL after each close, a small line beside the
// settings. It imports @nivo/line: only ever loaded lazily (what-if-panel.tsx).
import { ResponsiveLine } from '@nivo/line';
import type { WhatIfResult } from '../../../../contracts/what-if';
import { useChartTheme } from '../../../components/charts/use-chart-theme';

export function WhatIfCurve({ equity, label }: { equity: WhatIfResult['equity']; label: string }) {
  const { theme, colours } = useChartTheme();
  // Drawing positions only: the figures shown as text come exact from the server.
  const data = [{ id: 'pnl', data: equity.map((point) => ({ x: point.time, y: Number(point.pnl_net) })) }];
  const last = equity[equity.length - 1];
  const colour = last && Number(last.pnl_net) < 0 ? colours.red : colours.green;
  return (
    <div className="what-if-curve" data-testid="what-if-curve">
      <ResponsiveLine
        data={data}
        role="img"
        ariaLabel={label}
        theme={theme}
        colors={[colour]}
        margin={{ top: 6, right: 6, bottom: 6, left: 44 }}
        xScale={{ type: 'linear', min: 'auto', max: 'auto' }}
        yScale={{ type: 'linear', min: 'auto', max: 'auto' }}
        axisBottom={null}
        axisLeft={{ tickSize: 0, tickPadding: 4, tickValues: 3 }}
        enableGridX={false}
        gridYValues={3}
        enablePoints={false}
        enableArea
        areaOpacity={0.08}
        isInteractive={false}
        animate={false}
        markers={[{ axis: 'y', value: 0, lineStyle: { stroke: colours.muted, strokeWidth: 1 } }]}
      />
    </div>
  );
}
