// Trade history (SPEC.md §2 Trade history, §3 "Trade history state"): the trades of one local day and their
// realized PNL, the exact trade-core sum of trade_pnl_current. Failures are only logged (SPEC.md §8).
import { proxy } from 'valtio';
import type { Trade } from '../../../contracts';
import { DAY_END_MS_OF_SECOND } from '../../config/constants';
import { sumDecimals } from '../../../shared-core/trade-core';
import { getTradesHistory } from './api/get-trades-history';

export interface DateRange {
  /** ISO string of the day's 00:00:00.000 local time. */
  start_date: string;
  /** ISO string of the day's 23:59:59.099 local time (SPEC.md §5, §9). */
  end_date: string;
}

interface HistoryState {
  date_range: DateRange;
  trade_list: Trade[];
  /** Sum of trade_pnl_current over trade_list, USDT, exact. */
  realized_pnl: string;
  /** The same net of the commissions the exchange charged (trade_pnl_net; gross where unknown), exact. */
  realized_pnl_net: string;
  is_loading: boolean;
}

/** The local day that contains `date`, from 00:00:00.000 to 23:59:59.099. */
export function dayRange(date: Date): DateRange {
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate(), 0, 0, 0, 0);
  const end = new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, DAY_END_MS_OF_SECOND);
  return { start_date: start.toISOString(), end_date: end.toISOString() };
}

/** The day `days` calendar days after the range's day (negative: before), whatever the DST changes. */
export function shiftDayRange(range: DateRange, days: number): DateRange {
  const start = new Date(range.start_date);
  return dayRange(new Date(start.getFullYear(), start.getMonth(), start.getDate() + days));
}

function initialState(): HistoryState {
  return {
    date_range: dayRange(new Date()),
    trade_list: [],
    realized_pnl: '0',
    realized_pnl_net: '0',
    is_loading: false,
  };
}

export const historyStore = proxy<HistoryState>(initialState());

// Answers of reads started before the latest one are dropped (the trader clicks through days quickly).
let readGeneration = 0;

/** Reads the trades of the current day range. */
export async function loadTradeHistory(): Promise<void> {
  readGeneration += 1;
  const generation = readGeneration;
  const range = { ...historyStore.date_range };
  historyStore.is_loading = true;
  try {
    const trades = await getTradesHistory(range);
    if (generation !== readGeneration) return;
    historyStore.trade_list = trades;
    historyStore.realized_pnl = sumDecimals(trades.map((trade) => trade.trade_pnl_current));
    historyStore.realized_pnl_net = sumDecimals(
      trades.map((trade) => trade.trade_pnl_net ?? trade.trade_pnl_current),
    );
  } catch (error) {
    console.error(error);
  } finally {
    if (generation === readGeneration) historyStore.is_loading = false;
  }
}

/** Moves the day switcher exactly one day back (-1) or forward (1). */
export function shiftHistoryDay(days: -1 | 1): void {
  historyStore.date_range = shiftDayRange(historyStore.date_range, days);
}

/** The current-date button: back to today. */
export function resetHistoryDayToToday(): void {
  historyStore.date_range = dayRange(new Date());
}

export function resetHistoryStore(): void {
  readGeneration += 1;
  Object.assign(historyStore, initialState());
}
