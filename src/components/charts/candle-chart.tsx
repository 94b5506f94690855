// A 1-minute candlestick chart (issue 18, the trader's cockpit) drawn by lightweight-charts (TradingView's,
// Apache-2.0) on a canvas: price lines (entry, stop, take-profit, trailing, liquidation) and markers (trades
// opened and closed). It imports lightweight-charts, so it is only ever loaded lazily (React.lazy or a lazily
// loaded parent), never in the initial bundle. The lines are also listed beside the canvas (their exact
// prices, as text) and the markers in a visually hidden list, from the same props that drive the canvas: what
// a screen reader or a browser test reads is what is drawn.
import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  LineStyle,
  type AutoscaleInfo,
  type CandlestickData,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import type { CandlePoint } from '../../../contracts';
import { formatFixed, formatGrouped } from '../../lib/format';
import { useAfterPaint } from '../../lib/use-after-paint';
import { useChartTheme, type ChartColours } from './use-chart-theme';
import './charts.css';

const MINUTE_MS = 60_000;
/** How often live prices reach the canvas at most. */
const LIVE_DRAW_MS = 500;

export type CandleTone = 'accent' | 'green' | 'red' | 'muted' | 'orange' | 'violet';

/** A horizontal price line; price is the exact decimal string (the canvas places it by its Number()). */
export interface CandleLine {
  id: string;
  price: string;
  label: string;
  tone: CandleTone;
  dashed?: boolean;
  /** False: the price scale does not stretch to it (a liquidation far away would flatten the candles). */
  keepInView?: boolean;
}

/** A marker on the candle of a minute: a trade opened (below the bar) or closed (above it). */
export interface CandleMarker {
  id: string;
  /** Epoch ms; drawn on the candle of its minute. */
  time: number;
  kind: 'open' | 'close';
  label: string;
  tone: CandleTone;
}

export interface CandleChartProps {
  candles: readonly CandlePoint[];
  lines?: readonly CandleLine[];
  markers?: readonly CandleMarker[];
  decimals: number;
  /** The chart's accessible name. */
  label: string;
  /** Time of day of an epoch ms, in the current language (the axis and the crosshair). */
  formatTime: (ms: number) => string;
  height?: number;
  /**
   * Live prices for the forming minute: called once with a listener for each price (and the exchange's time
   * of it, ms); answers the unsubscribe.
   */
  subscribeLive?: (onPrice: (price: number, timeMs: number) => void) => () => void;
}

const toSeconds = (ms: number) => Math.floor(ms / MINUTE_MS) * 60;

function bar(candle: CandlePoint): CandlestickData<Time> {
  return {
    time: toSeconds(candle.time) as UTCTimestamp,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
  };
}

function toneColour(colours: ChartColours, tone: CandleTone): string {
  return colours[tone === 'muted' ? 'muted' : tone];
}

function themeOptions(colours: ChartColours) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: 'transparent' },
      textColor: colours.muted,
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: colours.grid }, horzLines: { color: colours.grid } },
    rightPriceScale: { borderColor: colours.grid },
    timeScale: { borderColor: colours.grid },
  };
}

export function CandleChart({
  candles,
  lines = [],
  markers = [],
  decimals,
  label,
  formatTime,
  height = 300,
  subscribeLive,
}: CandleChartProps) {
  const { colours } = useChartTheme();
  // The chart is made after the first paint of what holds it (lib/use-after-paint.ts): the click that opened a
  // modal is not held up by it.
  const isPainted = useAfterPaint();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const lastBarRef = useRef<CandlestickData<Time> | null>(null);
  const formatTimeRef = useRef(formatTime);
  useEffect(() => {
    formatTimeRef.current = formatTime;
  }, [formatTime]);

  // The chart lives as long as the component; the effects below feed it.
  useEffect(() => {
    const container = containerRef.current;
    if (!container || !isPainted) return;
    const chart = createChart(container, {
      autoSize: true,
      // Off from the start: the logo brings an inline <style> that the CSP refuses (the link is our figcaption).
      layout: { attributionLogo: false },
      handleScale: { mouseWheel: false },
      handleScroll: { mouseWheel: false, pressedMouseMove: true, vertTouchDrag: false },
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        rightOffset: 8,
        tickMarkFormatter: (time: Time) => formatTimeRef.current(Number(time) * 1000),
      },
      localization: {
        timeFormatter: (time: Time) => formatTimeRef.current(Number(time) * 1000),
        priceFormatter: (price: number) => formatGrouped(price, decimals),
      },
    });
    const series = chart.addSeries(CandlestickSeries, {
      priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
    });
    chartRef.current = chart;
    seriesRef.current = series;
    markersRef.current = createSeriesMarkers(series, []);
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      markersRef.current = null;
    };
  }, [decimals, isPainted]);

  useEffect(() => {
    chartRef.current?.applyOptions(themeOptions(colours));
    seriesRef.current?.applyOptions({
      upColor: colours.green,
      downColor: colours.red,
      borderUpColor: colours.green,
      borderDownColor: colours.red,
      wickUpColor: colours.green,
      wickDownColor: colours.red,
    });
  }, [colours, decimals, isPainted]);

  useEffect(() => {
    const data = candles.map(bar);
    seriesRef.current?.setData(data);
    chartRef.current?.timeScale().fitContent();
    lastBarRef.current = data.at(-1) ?? null;
  }, [candles, decimals, isPainted]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    // The scale spans the candles and every line (a take-profit or a liquidation far from the price).
    const prices = lines.filter((line) => line.keepInView !== false).map((line) => Number(line.price));
    series.applyOptions({
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        if (!info?.priceRange || prices.length === 0) return info;
        const { minValue, maxValue } = info.priceRange;
        return {
          ...info,
          priceRange: { minValue: Math.min(minValue, ...prices), maxValue: Math.max(maxValue, ...prices) },
        };
      },
    });
    const drawn: IPriceLine[] = lines.map((line) =>
      series.createPriceLine({
        price: Number(line.price),
        color: toneColour(colours, line.tone),
        lineWidth: 1,
        lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Solid,
        axisLabelVisible: true,
        title: line.label,
      }),
    );
    // Once the chart is removed (it is, first, when the component goes) its lines go with it.
    return () => {
      if (seriesRef.current === series) drawn.forEach((line) => series.removePriceLine(line));
    };
  }, [lines, colours, decimals, isPainted]);

  useEffect(() => {
    const drawn: SeriesMarker<Time>[] = markers
      .map((marker) => ({
        time: toSeconds(marker.time) as UTCTimestamp,
        position: marker.kind === 'open' ? ('belowBar' as const) : ('aboveBar' as const),
        shape: marker.kind === 'open' ? ('arrowUp' as const) : ('arrowDown' as const),
        color: toneColour(colours, marker.tone),
        text: marker.label,
      }))
      .sort((a, b) => Number(a.time) - Number(b.time));
    markersRef.current?.setMarkers(drawn);
  }, [markers, colours, decimals, isPainted]);

  // The forming minute from the live prices: one bar updated in place (a new one when a minute begins), never
  // a re-render of the component.
  useEffect(() => {
    if (!subscribeLive) return;
    // Prices are applied at most every LIVE_DRAW_MS (the last one of each interval, and the bar's high and low
    // from all of them): each update repaints the canvas in the next frame.
    let pending: { high: number; low: number; close: number; timeMs: number } | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      timer = undefined;
      const next = pending;
      pending = undefined;
      if (next) apply(next.close, next.timeMs, next.high, next.low);
    };
    const unsubscribe = subscribeLive((price, timeMs) => {
      const sameMinute = pending && toSeconds(pending.timeMs) === toSeconds(timeMs);
      if (pending && !sameMinute) draw();
      pending =
        pending && sameMinute
          ? { high: Math.max(pending.high, price), low: Math.min(pending.low, price), close: price, timeMs }
          : { high: price, low: price, close: price, timeMs };
      timer ??= setTimeout(draw, LIVE_DRAW_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
    function apply(price: number, timeMs: number, high: number, low: number) {
      const series = seriesRef.current;
      const last = lastBarRef.current;
      if (!series || !last) return;
      const time = toSeconds(timeMs) as UTCTimestamp;
      if (time < Number(last.time)) return;
      const next: CandlestickData<Time> =
        time === Number(last.time)
          ? { ...last, high: Math.max(last.high, high), low: Math.min(last.low, low), close: price }
          : {
              time,
              open: last.close,
              high: Math.max(last.close, high),
              low: Math.min(last.close, low),
              close: price,
            };
      lastBarRef.current = next;
      series.update(next);
    }
  }, [subscribeLive, candles, decimals, isPainted]);

  return (
    <figure className="candle-chart" data-testid="candle-chart" data-candle-count={candles.length}>
      <div
        ref={containerRef}
        className="candle-chart-canvas"
        style={{ height }}
        role="img"
        aria-label={label}
      />
      {lines.length > 0 ? (
        <ul className="candle-chart-legend" aria-label={label}>
          {lines.map((line) => (
            <li
              key={line.id}
              className={`candle-chart-line tone-${line.tone}`}
              data-testid="chart-line"
              data-line={line.id}
              data-price={line.price}
            >
              <span className="candle-chart-swatch" aria-hidden="true" />
              {line.label} <span className="numeric">{formatFixed(line.price, decimals)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="visually-hidden">
        {markers.map((marker) => (
          <li key={marker.id} data-testid="chart-marker" data-marker={marker.kind} data-time={marker.time}>
            {marker.label} {formatTime(marker.time)}
          </li>
        ))}
      </ul>
      {/* lightweight-charts' licence asks for a link to TradingView on the page (its own logo is off: it needs an
          inline <style> that our CSP refuses). */}
      <figcaption className="candle-chart-attribution">
        <a href="https://www.tradingview.com/" target="_blank" rel="noopener noreferrer">
          TradingView Lightweight Charts™
        </a>
      </figcaption>
    </figure>
  );
}
