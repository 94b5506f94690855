// The regimes of the price model: all three occur, and trends move the price in their direction, so that
// a signal that recognises the regime is right more often than a coin flip.
import { describe, expect, it } from 'vitest';
import { PriceModel, Regime } from './price-model.js';
import { SYMBOLS } from './symbols.js';

describe('price model regimes', () => {
  it('visits ranging, trending-up and trending-down regimes with drifts of the right sign', () => {
    const model = new PriceModel(99, SYMBOLS.slice(0, 1), 1000);
    const sums = new Map<Regime, { total: number; minutes: number }>();
    let previous = model.step()[0]?.close as number;
    for (let i = 0; i < 60 * 24 * 60; i++) {
      const regime = model.regime;
      const close = model.step()[0]?.close as number;
      const entry = sums.get(model.regime) ?? { total: 0, minutes: 0 };
      if (model.regime === regime) {
        entry.total += Math.log(close / previous);
        entry.minutes += 1;
        sums.set(model.regime, entry);
      }
      previous = close;
    }
    expect([...sums.keys()].sort()).toEqual([Regime.RANGING, Regime.TRENDING_UP, Regime.TRENDING_DOWN]);
    const mean = (regime: Regime) => (sums.get(regime)?.total ?? 0) / (sums.get(regime)?.minutes ?? 1);
    expect(mean(Regime.TRENDING_UP)).toBeGreaterThan(0);
    expect(mean(Regime.TRENDING_DOWN)).toBeLessThan(0);
    expect(Math.abs(mean(Regime.RANGING))).toBeLessThan(mean(Regime.TRENDING_UP));
  });
});
