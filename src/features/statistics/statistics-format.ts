// Display rules of the dashboard (SPEC.md §2 "Dashboard", §9), kept apart from the charts so the page and the
// tests use them without loading nivo. Sums of ROE go through trade-core's exact decimals, never through
// binary floating point; see README.md beside this file for the chart decisions.
import type { StatisticTradeItem, StatisticTradePoint } from '../../../contracts';
import { addDecimals, sumDecimals, type DecimalText } from '../../../shared-core/trade-core';

/** One last-day point represents this many minutes (SPEC.md §9). */
const STATISTIC_POINT_MINUTES = 5;
/** The dashboard reads the statistics again this often while it is open: one new point per 5 minutes. */
export const STATISTICS_REFRESH_MS = STATISTIC_POINT_MINUTES * 60_000;
/** At most this many x ticks on the month chart (SPEC.md §9). */
export const MONTH_MAX_TICKS = 10;
/** ROE and percentages are shown with 2 decimals (SPEC.md §9). */
export const ROE_DECIMALS = 2;

const DAY_MS = 86_400_000;

/** n of '{n} Minutes ago': 5 times the distance of the point at `index` from the latest point. */
export function minutesAgo(index: number, length: number): number {
  return STATISTIC_POINT_MINUTES * (length - 1 - index);
}

/** N of 'N Days ago': whole UTC days from `statistic_date` (YYYY-MM-DD) to the UTC day of `now`. */
export function daysAgo(statisticDate: string, now: Date): number {
  const day = Date.parse(`${statisticDate}T00:00:00.000Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Number.isNaN(day) ? 0 : Math.round((today - day) / DAY_MS);
}

/** Tick steps (in points) that read well: 5, 10, 15, 30 minutes, 1, 2, 3, 4, 6, 8, 12 hours. */
export const MINUTE_TICK_STEPS = [1, 2, 3, 6, 12, 24, 36, 48, 72, 96, 144] as const;
/** Tick steps (in days) that read well: 1, 2, 3, 5 days, a week, 10 days, two weeks. */
export const DAY_TICK_STEPS = [1, 2, 3, 5, 7, 10, 14] as const;

/**
 * Indexes of the x ticks of a list of `length` points: at most `maxTicks`, always the latest point, then
 * every `step` points back from it, where `step` is the first of `steps` that keeps within `maxTicks` (or
 * the smallest step that does, when none of them does).
 */
export function tickIndexes(length: number, maxTicks: number, steps: readonly number[] = []): number[] {
  if (length <= 0 || maxTicks < 1) return [];
  const fits = (step: number) => Math.floor((length - 1) / step) + 1 <= maxTicks;
  const minimal = maxTicks === 1 ? length : Math.max(1, Math.ceil((length - 1) / (maxTicks - 1)));
  const step = steps.find(fits) ?? minimal;
  const ticks: number[] = [];
  for (let index = length - 1; index >= 0; index -= step) ticks.unshift(index);
  return ticks;
}

/** The width (px) an axis label of `text` takes at the charts' 11 px font, with a gap to the next one. */
export const axisLabelWidthPx = (text: string): number => Math.ceil(text.length * 6.4) + 16;

/**
 * How many x labels of about `labelWidthPx` fit on a plot `widthPx` wide (labels are centred on their ticks,
 * the first and last at the plot's edges): at least 2, at most `maxTicks`; `maxTicks` before it is measured.
 */
export function ticksForWidth(widthPx: number, labelWidthPx: number, maxTicks: number): number {
  if (widthPx <= 0) return maxTicks;
  return Math.max(2, Math.min(maxTicks, Math.floor(widthPx / labelWidthPx) + 1));
}

/** The four figures of 'Statistic Trade By Now' and 'Statistic Trade By Yesterday'. */
export interface TradeFigures {
  roe_buy: number;
  roe_sell: number;
  count_buy: number;
  count_sell: number;
}

export interface TradeTotals {
  /** roe_buy + roe_sell, exact, percent. */
  total_roe: DecimalText;
  total_count: number;
}

export const pointFigures = (point: StatisticTradePoint): TradeFigures => ({
  roe_buy: point.trade_open_roe_buy,
  roe_sell: point.trade_open_roe_sell,
  count_buy: point.trade_open_count_buy,
  count_sell: point.trade_open_count_sell,
});

export const itemFigures = (item: StatisticTradeItem): TradeFigures => ({
  roe_buy: item.trade_close_roe_buy,
  roe_sell: item.trade_close_roe_sell,
  count_buy: item.trade_close_count_buy,
  count_sell: item.trade_close_count_sell,
});

/** Total ROE = buy + sell with trade-core's exact addition; counts are integers. */
export function tradeTotals(figures: TradeFigures): TradeTotals {
  return {
    total_roe: addDecimals(figures.roe_buy, figures.roe_sell),
    total_count: figures.count_buy + figures.count_sell,
  };
}

/** The combined open ROE of a last-day point (buy plus sell), exact. */
export const combinedOpenRoe = (point: StatisticTradePoint): DecimalText =>
  addDecimals(point.trade_open_roe_buy, point.trade_open_roe_sell);

/**
 * ROE Profit and ROE Loss of a month item (SPEC.md §2 leaves them undefined; our definition): Profit is the
 * sum of the positive ones among trade_close_roe_buy and trade_close_roe_sell, Loss the sum of the negative
 * ones (≤ 0). So Profit + Loss = buy + sell, and a side with ROE 0 counts in neither.
 */
export function roeProfitLoss(item: StatisticTradeItem): { roe_profit: DecimalText; roe_loss: DecimalText } {
  const sides = [item.trade_close_roe_buy, item.trade_close_roe_sell];
  return {
    roe_profit: sumDecimals(sides.filter((roe) => roe > 0)),
    roe_loss: sumDecimals(sides.filter((roe) => roe < 0)),
  };
}

/** Axis ticks on round numbers (1, 2 or 5 × 10^k apart) and the decimals that show them exactly. */
export interface AxisTicks {
  ticks: number[];
  decimals: number;
}

/**
 * About `count` round ticks from at or below `min` to at or above `max`; steps never below `minStep` (1 for
 * counts and prices). A flat range is widened around its value, so a line never sits on the frame.
 */
export function niceTicks(min: number, max: number, count: number, minStep = 0): AxisTicks {
  let low = Math.min(min, max);
  let high = Math.max(min, max);
  if (low === high) {
    const spread = Math.max(Math.abs(low) * 0.01, minStep || 1);
    low -= spread;
    high += spread;
  }
  const rough = (high - low) / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const factor = [1, 2, 5, 10].find((candidate) => candidate * magnitude >= rough) ?? 10;
  const step = Math.max(minStep, factor * magnitude);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const first = Math.floor(low / step + 1e-9);
  const last = Math.ceil(high / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i += 1) ticks.push(Number((i * step).toFixed(decimals)));
  return { ticks, decimals };
}
