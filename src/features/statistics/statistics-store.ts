// Public statistics (SPEC.md §3 "Statistic trade point (last day)", "Statistic item (month)", §7): the
// house's points of the last day (one every 5 minutes) with the latest as last_information, and its items of
// the last month (one per UTC day) with the last as yesterday_information. Failures are only logged and leave
// the state as it was; an answer without a list stores nothing (SPEC.md §8). The 5-minute refresh lives in
// components/use-statistics-refresh.ts (timers are not store state).
import { proxy } from 'valtio';
import type { HouseRecord, StatisticTradeItem, StatisticTradePoint } from '../../../contracts';
import { getHouseRecord } from './api/get-house-record';
import { getStatisticTradeByDay } from './api/get-statistic-trade-by-day';
import { getStatisticTradeByMonth } from './api/get-statistic-trade-by-month';

interface StatisticsState {
  /** The points of the last 24 hours, oldest first. */
  statistic_trade_by_day_list: StatisticTradePoint[];
  /** The last element of statistic_trade_by_day_list; undefined while it is empty. */
  last_information: StatisticTradePoint | undefined;
  /** The items of the last complete UTC days, oldest first. */
  statistic_trade_by_month_list: StatisticTradeItem[];
  /** The last item of statistic_trade_by_month_list (yesterday); undefined while it is empty. */
  yesterday_information: StatisticTradeItem | undefined;
  is_day_loading: boolean;
  is_month_loading: boolean;
  /** True once a read of the day list has finished, well or not: the page then says "no data". */
  is_day_loaded: boolean;
  is_month_loaded: boolean;
  /** On what terms the house trades (issue 42); undefined until read. */
  house_record: HouseRecord | undefined;
}

function initialState(): StatisticsState {
  return {
    statistic_trade_by_day_list: [],
    last_information: undefined,
    statistic_trade_by_month_list: [],
    yesterday_information: undefined,
    is_day_loading: false,
    is_month_loading: false,
    is_day_loaded: false,
    is_month_loaded: false,
    house_record: undefined,
  };
}

export const statisticsStore = proxy<StatisticsState>(initialState());

/** Stores the day list and its last point as last_information. */
function setStatisticTradeByDay(list: readonly StatisticTradePoint[]): void {
  statisticsStore.statistic_trade_by_day_list = [...list];
  statisticsStore.last_information = list.at(-1);
}

/** Stores the month list and its last item as yesterday_information. */
function setStatisticTradeByMonth(list: readonly StatisticTradeItem[]): void {
  statisticsStore.statistic_trade_by_month_list = [...list];
  statisticsStore.yesterday_information = list.at(-1);
}

// Answers of reads started before the latest one (or before a reset) are dropped.
let dayGeneration = 0;
let monthGeneration = 0;

export async function loadStatisticTradeByDay(): Promise<void> {
  const generation = ++dayGeneration;
  statisticsStore.is_day_loading = true;
  try {
    const list = await getStatisticTradeByDay();
    if (generation !== dayGeneration) return;
    // An absent result stores nothing (SPEC.md §8).
    if (list) setStatisticTradeByDay(list);
  } catch (error) {
    console.error(error);
  } finally {
    if (generation === dayGeneration) {
      statisticsStore.is_day_loading = false;
      statisticsStore.is_day_loaded = true;
    }
  }
}

export async function loadStatisticTradeByMonth(): Promise<void> {
  const generation = ++monthGeneration;
  statisticsStore.is_month_loading = true;
  try {
    const list = await getStatisticTradeByMonth();
    if (generation !== monthGeneration) return;
    if (list) setStatisticTradeByMonth(list);
  } catch (error) {
    console.error(error);
  } finally {
    if (generation === monthGeneration) {
      statisticsStore.is_month_loading = false;
      statisticsStore.is_month_loaded = true;
    }
  }
}

let houseGeneration = 0;

/** Reads the house's terms; a failure is only logged and keeps what was shown. */
export async function loadHouseRecord(): Promise<void> {
  const generation = ++houseGeneration;
  try {
    const record = await getHouseRecord();
    if (generation === houseGeneration) statisticsStore.house_record = record;
  } catch (error) {
    console.error(error);
  }
}

/** Reads both lists and the house's terms at once (the dashboard on mount and every 5 minutes). */
export async function loadStatistics(): Promise<void> {
  await Promise.all([loadStatisticTradeByDay(), loadStatisticTradeByMonth(), loadHouseRecord()]);
}

export function resetStatisticsStore(): void {
  dayGeneration += 1;
  monthGeneration += 1;
  houseGeneration += 1;
  Object.assign(statisticsStore, initialState());
}
