import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { AnalysisResult } from '../../../contracts';
import { lagMinutes, lagTicks, signedLag } from './analysis-format';
import {
  analysisRangeProblem,
  analysisStore,
  EMPTY_ANALYSIS_RESULT,
  loadAnalysis,
  resetAnalysisStore,
  resetEndDayToToday,
  resetStartDayToToday,
  shiftEndDay,
  shiftStartDay,
} from './analysis-store';
import { getAnalysis } from './api/get-analysis';

vi.mock('./api/get-analysis', () => ({ getAnalysis: vi.fn() }));

const RESULT: AnalysisResult = {
  lag_price_list: [
    { lag: -1, corr_buy: 0.1, corr_sell: -0.2 },
    { lag: 0, corr_buy: 0.3, corr_sell: 0.05 },
    { lag: 1, corr_buy: 0.4567, corr_sell: -0.1 },
  ],
  lag_buy: { max_corr: 0.4567, lag_at_max_corr: 1 },
  lag_sell: { max_corr: 0.05, lag_at_max_corr: 0 },
};

/** 2026-03-15 14:30 local time, a Sunday. */
const NOW = new Date(2026, 2, 15, 14, 30, 12, 345);
/** ISO string of a local time (month from 0, like Date). */
const local = (year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0, ms = 0) =>
  new Date(year, month, day, hours, minutes, seconds, ms).toISOString();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  resetAnalysisStore();
  vi.mocked(getAnalysis).mockReset();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the range', () => {
  test('starts as the last 7 days: 00:00:00.000 six days ago to 23:59:59.099 today, local', () => {
    expect(analysisStore.startDate).toBe(local(2026, 2, 9, 0, 0, 0, 0));
    expect(analysisStore.endDate).toBe(local(2026, 2, 15, 23, 59, 59, 99));
    expect(analysisStore.result).toBeUndefined();
    expect(analysisStore.loading).toBe(false);
  });

  test('previous-day and next-day move each day by exactly one day and keep its time of day', () => {
    shiftStartDay(-1);
    expect(analysisStore.startDate).toBe(local(2026, 2, 8));
    shiftStartDay(-1);
    shiftStartDay(1);
    expect(analysisStore.startDate).toBe(local(2026, 2, 8));
    shiftEndDay(-1);
    expect(analysisStore.endDate).toBe(local(2026, 2, 14, 23, 59, 59, 99));
    shiftEndDay(1);
    expect(analysisStore.endDate).toBe(local(2026, 2, 15, 23, 59, 59, 99));
  });

  test('crosses month and year ends by the calendar', () => {
    vi.setSystemTime(new Date(2026, 0, 1, 9, 0));
    resetAnalysisStore();
    expect(analysisStore.startDate).toBe(local(2025, 11, 26));
    shiftEndDay(-1);
    expect(analysisStore.endDate).toBe(local(2025, 11, 31, 23, 59, 59, 99));
    vi.setSystemTime(new Date(2028, 1, 28, 9, 0));
    resetAnalysisStore();
    shiftEndDay(1);
    expect(analysisStore.endDate).toBe(local(2028, 1, 29, 23, 59, 59, 99));
  });

  test('a click on the day label resets that day to today', () => {
    shiftStartDay(-5);
    shiftEndDay(-3);
    vi.setSystemTime(new Date(2026, 2, 16, 8, 0));
    resetStartDayToToday();
    resetEndDayToToday();
    expect(analysisStore.startDate).toBe(local(2026, 2, 16));
    expect(analysisStore.endDate).toBe(local(2026, 2, 16, 23, 59, 59, 99));
  });

  test('is checked by the request rules: both days, end not before start, at most 31 days', () => {
    const start = local(2026, 2, 1);
    expect(analysisRangeProblem(start, local(2026, 2, 1, 23, 59, 59, 99))).toBeUndefined();
    expect(analysisRangeProblem(undefined, start)).toBe('missing');
    expect(analysisRangeProblem(start, undefined)).toBe('missing');
    expect(analysisRangeProblem(local(2026, 2, 2), local(2026, 2, 1, 23, 59, 59, 99))).toBe('inverted');
    // 31 days from 00:00 to 23:59:59.099 fit; a 32nd day does not.
    expect(analysisRangeProblem(start, local(2026, 2, 31, 23, 59, 59, 99))).toBeUndefined();
    expect(analysisRangeProblem(start, local(2026, 3, 1, 23, 59, 59, 99))).toBe('too_long');
  });
});

describe('across a daylight-saving change (Europe/Kyiv)', () => {
  const originalZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Kyiv';
  });
  afterAll(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  test('days stay at 00:00:00.000 and 23:59:59.099 local when the clocks go forward', () => {
    vi.setSystemTime(new Date('2026-03-28T10:00:00+02:00'));
    resetAnalysisStore();
    resetStartDayToToday();
    expect(analysisStore.startDate).toBe('2026-03-27T22:00:00.000Z');
    shiftStartDay(1);
    shiftEndDay(1);
    // 29 March has 23 hours in Kyiv: the next day starts 23 hours later, now at UTC+3.
    expect(analysisStore.startDate).toBe('2026-03-28T22:00:00.000Z');
    expect(analysisStore.endDate).toBe('2026-03-29T20:59:59.099Z');
    shiftStartDay(1);
    expect(analysisStore.startDate).toBe('2026-03-29T21:00:00.000Z');
  });
});

describe('loadAnalysis', () => {
  test('sends the range as datatime_start and datatime_end and stores the answer', async () => {
    vi.mocked(getAnalysis).mockResolvedValue(RESULT);
    const loading = loadAnalysis();
    expect(analysisStore.loading).toBe(true);
    await loading;
    expect(getAnalysis).toHaveBeenCalledWith({
      datatime_start: local(2026, 2, 9),
      datatime_end: local(2026, 2, 15, 23, 59, 59, 99),
    });
    expect(analysisStore.result).toEqual(RESULT);
    expect(analysisStore.loading).toBe(false);
  });

  test('is skipped without both days or with a range the server would refuse', async () => {
    analysisStore.startDate = undefined;
    await loadAnalysis();
    resetAnalysisStore();
    shiftEndDay(-7);
    await loadAnalysis();
    resetAnalysisStore();
    shiftStartDay(-40);
    await loadAnalysis();
    expect(getAnalysis).not.toHaveBeenCalled();
    expect(analysisStore.result).toBeUndefined();
  });

  test('a failure is only logged and shows the empty state', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getAnalysis).mockRejectedValue(new Error('Timeout'));
    await loadAnalysis();
    expect(logged).toHaveBeenCalled();
    expect(analysisStore.result).toEqual(EMPTY_ANALYSIS_RESULT);
    expect(analysisStore.loading).toBe(false);
  });

  test('an answer that arrives after a newer request is dropped', async () => {
    let answerFirst: (value: AnalysisResult) => void = () => undefined;
    vi.mocked(getAnalysis)
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(EMPTY_ANALYSIS_RESULT);
    const first = loadAnalysis();
    shiftStartDay(-1);
    await loadAnalysis();
    answerFirst(RESULT);
    await first;
    expect(analysisStore.result).toEqual(EMPTY_ANALYSIS_RESULT);
  });
});

describe('display rules', () => {
  test('at most 48 lag ticks, always with 0', () => {
    const lags = Array.from({ length: 49 }, (_, i) => i - 24);
    const ticks = lagTicks(lags);
    expect(ticks.length).toBeLessThanOrEqual(48);
    expect(ticks).toContain(0);
    expect(ticks).toContain(-24);
    expect(ticks).toContain(24);
    expect(lagTicks(lags.slice(16, 33))).toEqual(lags.slice(16, 33));
  });

  test('lags are signed and spanned in minutes', () => {
    expect(signedLag(3)).toBe('+3');
    expect(signedLag(0)).toBe('0');
    expect(signedLag(-2)).toBe('-2');
    expect(lagMinutes(3)).toBe('+15');
    expect(lagMinutes(-24)).toBe('-120');
  });
});
