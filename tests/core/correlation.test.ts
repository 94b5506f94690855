// Correlation as shipped in pkg/: the table computed independently in Python, and a 30-day, 48-lag scan
// compared at every lag with a plain TypeScript two-pass Pearson (SPEC.md §3 analysis result).
import { beforeAll, describe, expect, it } from 'vitest';
import { initTradeCore, lagScan, pearson, type AnalysisResult } from '../../shared-core/trade-core-node';
import { codeOf, vectors } from './helpers';

type Doc = {
  epsilon: number;
  pearson: { name: string; x: number[]; y: number[]; expect?: number; error?: string }[];
  lag_scan: {
    name: string;
    buy: number[];
    sell: number[];
    price: number[];
    max_lag: number;
    expect?: AnalysisResult;
    error?: string;
  }[];
};
const doc = vectors<Doc>('correlation.json');
const eps = doc.epsilon;

beforeAll(() => initTradeCore());

function naivePearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2) return 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]! / n;
    my += y[i]! / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

function expectScan(got: AnalysisResult, want: AnalysisResult) {
  expect(got.lag_price_list.map((r) => r.lag)).toEqual(want.lag_price_list.map((r) => r.lag));
  got.lag_price_list.forEach((row, i) => {
    expect(row.corr_buy).toBeCloseTo(want.lag_price_list[i]!.corr_buy, 9);
    expect(row.corr_sell).toBeCloseTo(want.lag_price_list[i]!.corr_sell, 9);
  });
  for (const side of ['lag_buy', 'lag_sell'] as const) {
    expect(Math.abs(got[side].max_corr - want[side].max_corr)).toBeLessThanOrEqual(eps);
    expect(got[side].lag_at_max_corr).toBe(want[side].lag_at_max_corr);
  }
}

describe('correlation table through pkg/', () => {
  it.each(doc.pearson)('pearson: $name', (t) => {
    if (t.error !== undefined) expect(codeOf(() => pearson(t.x, t.y))).toBe(t.error);
    else expect(Math.abs(pearson(t.x, t.y) - t.expect!)).toBeLessThanOrEqual(eps);
  });

  it.each(doc.lag_scan)('lagScan: $name', (t) => {
    if (t.error !== undefined) expect(codeOf(() => lagScan(t.buy, t.sell, t.price, t.max_lag))).toBe(t.error);
    else expectScan(lagScan(t.buy, t.sell, t.price, t.max_lag), t.expect!);
  });

  it('never returns NaN: non-finite input is InvalidArgument, overflowing values give 0', () => {
    expect(codeOf(() => pearson([1, Number.NaN], [1, 2]))).toBe('InvalidArgument');
    expect(pearson([1e300, -1e300], [1e300, -1e300])).toBe(0);
  });
});

describe('a month of 5-minute points, 48 lags each way', () => {
  it('matches a plain TypeScript Pearson at every lag', () => {
    const n = 8640;
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const steps = Array.from({ length: n + 7 }, () => rand() - 0.5);
    const price = new Float64Array(n);
    for (let t = 0, p = 60000; t < n; t++) price[t] = p += steps[t]! * 25;
    const buy = Float64Array.from({ length: n }, (_, t) => (t >= 30 && steps[t + 7]! > 0.2 ? 1 : 0));
    const sell = Float64Array.from({ length: n }, (_, t) => (steps[t]! < -0.2 ? 1 : 0) + rand() * 0.1);
    const scan = lagScan(buy, sell, price, 48);
    expect(scan.lag_price_list).toHaveLength(97);
    for (const row of scan.lag_price_list) {
      const s = Math.abs(row.lag);
      const [sig, pr] =
        row.lag >= 0
          ? [
              [0, n - s],
              [s, n],
            ]
          : [
              [s, n],
              [0, n - s],
            ];
      const p = price.subarray(pr[0], pr[1]);
      expect(row.corr_buy).toBeCloseTo(naivePearson(buy.subarray(sig[0], sig[1]), p), 9);
      expect(row.corr_sell).toBeCloseTo(naivePearson(sell.subarray(sig[0], sig[1]), p), 9);
    }
    const best = scan.lag_price_list.reduce((a, b) => (b.corr_buy > a.corr_buy ? b : a));
    expect(scan.lag_buy).toEqual({ max_corr: best.corr_buy, lag_at_max_corr: best.lag });
  });
});
