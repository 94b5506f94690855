// Order math as shipped in pkg/: the decimal table the Rust tests run (expectations from exact rational
// arithmetic, float traps included) through the raw bindings, and the typed wrappers with JS numbers,
// which must behave as their shortest text (0.1 stays 0.1; SPEC.md §5 order size and stop price).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compareDecimals,
  initialMargin,
  liquidationPrice,
  notional,
  orderQuantity,
  possibleLoss,
  roePercent,
  roundDecimal,
  stopPrice,
  sumDecimals,
  unrealizedPnl,
} from '../../shared-core/trade-core-node';
import { codeOf, loadRaw, vectors } from './helpers';

type Case = { fn: string; args: unknown[]; expect?: string | number; error?: string; note?: string };
const { cases } = vectors<{ cases: Case[] }>('order_math.json');
let raw: Awaited<ReturnType<typeof loadRaw>>;

beforeAll(async () => {
  raw = await loadRaw();
});

describe('decimal table through pkg/', () => {
  it('has the shared cases', () => expect(cases.length).toBeGreaterThan(60));

  it.each(cases.map((c) => [`${c.fn}(${JSON.stringify(c.args).slice(1, -1)})`, c] as const))('%s', (_, c) => {
    const fn = raw[c.fn] as (...args: unknown[]) => unknown;
    if (c.error !== undefined) expect(codeOf(() => fn(...c.args))).toBe(c.error);
    else expect(fn(...c.args)).toBe(c.expect);
  });
});

describe('typed wrappers with JavaScript numbers', () => {
  it('avoid the float traps', () => {
    expect(sumDecimals([0.1, 0.2])).toBe('0.3');
    expect(roundDecimal(1.005, 2)).toBe('1.01');
    expect(roundDecimal(0.125, 2, 'half-even')).toBe('0.12');
    expect(roundDecimal(1e-7, 8)).toBe('0.00000010');
    expect(orderQuantity({ margin: 4.35, leverage: 100, entryPrice: 1, quantityPrecision: 0 })).toBe('435');
    expect(compareDecimals(0.1 + 0.2, 0.3)).toBe(1);
    expect(compareDecimals('0.30', 0.3)).toBe(0);
  });

  it('compute a trade end to end (SPEC.md §5, binance-fapi.md §12)', () => {
    const quantity = orderQuantity({ margin: 10, leverage: 20, entryPrice: 60000, quantityPrecision: 3 });
    expect(quantity).toBe('0.003');
    const stop = { entryPrice: 1.2345, stopLossPercent: 10, leverage: 3, pricePrecision: 4 };
    expect(stopPrice({ direction: 'BUY', ...stop })).toBe('1.1934');
    expect(stopPrice({ direction: 'SELL', ...stop })).toBe('1.2757');
    const pnl = unrealizedPnl({ direction: 'SELL', quantity: 0.01, entryPrice: 60000, currentPrice: 61000 });
    expect(pnl).toBe('-10');
    expect(roundDecimal(roePercent(10, initialMargin(0.01, 60000, 10)), 2)).toBe('16.67');
    expect(notional(0.01, 61000)).toBe('610');
    expect(possibleLoss(0.1, 3)).toBe('0.003');
    const position = { quantity: 20, entryPrice: 6563.665, walletBalance: '13200.70726908' };
    const bracket = { maintMarginRate: 0.005, maintAmount: 50, pricePrecision: 2 };
    expect(liquidationPrice({ direction: 'BUY', ...position, ...bracket })).toBe('5930.78');
  });

  it('reject non-finite numbers as InvalidDecimal', () => {
    expect(codeOf(() => sumDecimals([Number.NaN]))).toBe('InvalidDecimal');
    expect(codeOf(() => roundDecimal(Number.POSITIVE_INFINITY, 2))).toBe('InvalidDecimal');
  });
});
