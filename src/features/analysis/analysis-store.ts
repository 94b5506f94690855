// Analysis (SPEC.md §2 "Analysis", §3 Store: startDate and endDate as ISO strings, §5 Analysis): the chosen
// day range and the correlation answer for it. Days are local: the start day begins at 00:00:00.000 and the
// end day ends at 23:59:59.099 (SPEC.md §5, §9). The 800 ms debounce of changes lives in
// components/use-analysis-query.ts (timers are not store state).
import { proxy } from 'valtio';
import {
  ANALYSIS_RANGE_INVERTED,
  ANALYSIS_RANGE_TOO_LONG,
  analysisRequest,
  type AnalysisResult,
} from '../../../contracts';
import { getAnalysis } from './api/get-analysis';

/** Changes of the range are sent this long after the last one (SPEC.md §5, §9). */
export const ANALYSIS_DEBOUNCE_MS = 800;
/** The range a visit starts with: today and the six days before it. */
const ANALYSIS_DEFAULT_DAYS = 7;

/** The answer shown when a range has no data, or when the request failed (failures are only logged). */
export const EMPTY_ANALYSIS_RESULT: AnalysisResult = {
  lag_price_list: [],
  lag_buy: { max_corr: 0, lag_at_max_corr: 0 },
  lag_sell: { max_corr: 0, lag_at_max_corr: 0 },
};

interface AnalysisState {
  /** ISO string of the start day at 00:00:00.000 local time. */
  startDate: string | undefined;
  /** ISO string of the end day at 23:59:59.099 local time. */
  endDate: string | undefined;
  /** The answer for the current range; undefined before the first answer or while the range is invalid. */
  result: AnalysisResult | undefined;
  loading: boolean;
}

/** 00:00:00.000 local time of the day of `date`. */
function startOfLocalDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** 23:59:59.099 local time of the day of `date` (SPEC.md §9 "Day range end 23:59:59.099"). */
function endOfLocalDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, 99);
}

/** The same time of day `days` calendar days away: a daylight-saving change does not move it off its day. */
function addLocalDays(date: Date, days: number): Date {
  return new Date(
    date.getFullYear(),
    date.getMonth(),
    date.getDate() + days,
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
    date.getMilliseconds(),
  );
}

/** True when `iso` falls on the local day of `now` or later. */
export function isTodayOrLater(iso: string | undefined, now = new Date()): boolean {
  return iso !== undefined && new Date(iso).getTime() >= startOfLocalDay(now).getTime();
}

function initialState(now = new Date()): AnalysisState {
  return {
    startDate: startOfLocalDay(addLocalDays(now, 1 - ANALYSIS_DEFAULT_DAYS)).toISOString(),
    endDate: endOfLocalDay(now).toISOString(),
    result: undefined,
    loading: false,
  };
}

export const analysisStore = proxy<AnalysisState>(initialState());

/** Why a range cannot be asked for: a day missing, end before start, or longer than the server allows. */
export type AnalysisRangeProblem = 'missing' | 'inverted' | 'too_long';

/** The request's own rules (contracts/analysis.ts), so the SPA never sends a range the server refuses. */
export function analysisRangeProblem(
  startDate: string | undefined,
  endDate: string | undefined,
): AnalysisRangeProblem | undefined {
  if (!startDate || !endDate) return 'missing';
  const parsed = analysisRequest.safeParse({ datatime_start: startDate, datatime_end: endDate });
  if (parsed.success) return undefined;
  const messages = parsed.error.issues.map((issue) => issue.message);
  if (messages.includes(ANALYSIS_RANGE_INVERTED)) return 'inverted';
  if (messages.includes(ANALYSIS_RANGE_TOO_LONG)) return 'too_long';
  return 'missing';
}

const dayOf = (iso: string | undefined, now: Date) => (iso ? new Date(iso) : now);

function setStartDay(date: Date): void {
  analysisStore.startDate = startOfLocalDay(date).toISOString();
}

function setEndDay(date: Date): void {
  analysisStore.endDate = endOfLocalDay(date).toISOString();
}

/** Moves the start day by whole days (previous-day: −1, next-day: +1). */
export function shiftStartDay(days: number, now = new Date()): void {
  setStartDay(addLocalDays(dayOf(analysisStore.startDate, now), days));
}

export function shiftEndDay(days: number, now = new Date()): void {
  setEndDay(addLocalDays(dayOf(analysisStore.endDate, now), days));
}

/** A click on the day label goes back to today (SPEC.md §2). */
export function resetStartDayToToday(now = new Date()): void {
  setStartDay(now);
}

export function resetEndDayToToday(now = new Date()): void {
  setEndDay(now);
}

/** Answers that arrive after a newer request (or a reset) are dropped. */
let latestRequest = 0;

/**
 * Reads the analysis of the current range. Skipped without both days or with a range the server would
 * refuse (the page says why). Failures are only logged, like the statistics (SPEC.md §8), and show the
 * empty state.
 */
export async function loadAnalysis(): Promise<void> {
  const request = ++latestRequest;
  const { startDate, endDate } = analysisStore;
  if (!startDate || !endDate || analysisRangeProblem(startDate, endDate)) {
    analysisStore.result = undefined;
    analysisStore.loading = false;
    return;
  }
  analysisStore.loading = true;
  let result: AnalysisResult;
  try {
    result = await getAnalysis({ datatime_start: startDate, datatime_end: endDate });
  } catch (error) {
    console.error(error);
    result = EMPTY_ANALYSIS_RESULT;
  }
  if (request !== latestRequest) return;
  analysisStore.result = result;
  analysisStore.loading = false;
}

export function resetAnalysisStore(now = new Date()): void {
  latestRequest += 1;
  Object.assign(analysisStore, initialState(now));
}
