// The trading chart's panel on /trading (issue 18): the heading names the focused symbol (chart-focus.ts),
// the body with lightweight-charts loads lazily, so the page's initial JavaScript does not grow.
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Loader } from '../../components/ui';
import { symbolsStore } from '../../stores/symbols-store';
import { chartFocusStore } from './chart-focus';
import { lazyChunk } from '../../lib/lazy-chunk';

const TradingChartBody = lazyChunk(() =>
  import('./trading-chart-body').then((module) => ({ default: module.TradingChartBody })),
);

const DEFAULT_PAIR = 'BTCUSDT';
const NARROW_QUERY = '(max-width: 600px)';
/**
 * Room kept beside the canvas for the panel's padding and the lines' legend (two rows), so the panel keeps its
 * height while another symbol's candles load or a symbol without an open trade has none: nothing below jumps.
 */
const LEGEND_ROOM_PX = 84;

export function TradingChartPanel() {
  const { t } = useTranslation();
  const focus = useSnapshot(chartFocusStore);
  const { symbol_dict } = useSnapshot(symbolsStore);
  const symbol =
    (focus.symbol_uuid ? symbol_dict[focus.symbol_uuid] : undefined) ??
    Object.values(symbol_dict).find((item) => item.symbol_pair === DEFAULT_PAIR) ??
    Object.values(symbol_dict)[0];
  const height = typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches ? 240 : 260;
  return (
    <section
      className="panel trading-chart-panel"
      aria-labelledby="trading-chart-title"
      data-testid="trading-chart"
      data-symbol-pair={symbol?.symbol_pair}
    >
      <div className="panel-header">
        <h2 id="trading-chart-title" className="panel-title">
          {t('chart.title', { pair: symbol?.symbol_pair ?? '' })}
        </h2>
      </div>
      <div className="panel-body" style={{ minHeight: height + LEGEND_ROOM_PX }}>
        {symbol ? (
          <Suspense fallback={<Loader fill />}>
            <TradingChartBody
              key={symbol.symbol_uuid}
              symbolUuid={symbol.symbol_uuid}
              tradeUuid={focus.trade_uuid}
              height={height}
            />
          </Suspense>
        ) : (
          <Loader fill />
        )}
      </div>
    </section>
  );
}
