// Issue 53: whether the exchange would take a trade's market order, through the real pkg/. Expectations are
// worked by hand from the symbol filters the paper exchange lists as Binance does (BTCUSDT: step 0.001,
// MIN_NOTIONAL 100, market maxQty 120; ETHUSDT: MIN_NOTIONAL 20).
import { beforeAll, describe, expect, it } from 'vitest';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { PlacementProblem, maxNotionalAtLeverage, orderPlacement } from '../../shared-core/order-placement';
import { toLeverageBrackets } from '../../shared-core/exchange-answers';

const BTC = {
  symbol_quantity_precision: 3,
  symbol_min_quantity: '0.001',
  symbol_max_quantity: '120',
  symbol_min_notional: '100',
};
const ETH = { ...BTC, symbol_min_notional: '20', symbol_max_quantity: '2000' };

beforeAll(async () => {
  await initTradeCore();
});

describe('orderPlacement', () => {
  it('the default 10 $ × 10 on BTC at 85 800 is 0.001 BTC, 85.8 $: below MIN_NOTIONAL 100', () => {
    // 100 ÷ 85 800 = 0.0011655… → 0.001 (toward zero); 0.001 × 85 800 = 85.8.
    const placement = orderPlacement({ margin: 10, leverage: 10, price: '85800', filters: BTC });
    expect(placement).toMatchObject({ quantity: '0.001', problem: PlacementProblem.TOO_SMALL });
    expect(placement.notional).toMatch(/^85\.80*$/);
    // 100 $ needs 0.0011655… → 0.002 BTC: 0.002 × 85 800 ÷ 10 = 17.16 $ → 17.25 on the 0.25 step.
    expect(placement.minimum_margin).toBe('17.25');
  });

  it('with the 1 % allowance the smallest margin holds at 86 658 too (17.3316 → 17.50), and it passes', () => {
    const placement = orderPlacement({
      margin: 10,
      leverage: 10,
      price: '85800',
      filters: BTC,
      allowancePercent: 1,
    });
    expect(placement.minimum_margin).toBe('17.50');
    for (const price of ['84942', '85800', '86658']) {
      const at = orderPlacement({ margin: '17.50', leverage: 10, price, filters: BTC });
      expect(at.problem, price).toBeUndefined();
      expect(at.quantity).toBe('0.002');
    }
    // 17.25 does not hold 1 % up: 172.5 ÷ 86 658 = 0.00199… → 0.001.
    expect(
      orderPlacement({ margin: '17.25', leverage: 10, price: '85800', filters: BTC, allowancePercent: 1 })
        .problem,
    ).toBe(PlacementProblem.TOO_SMALL);
  });

  it('the defaults on ETH at 3000 pass (100 $ ≥ 20); 1.5 $ × 10 does not, and needs 2.25 $ with the allowance', () => {
    expect(orderPlacement({ margin: 10, leverage: 10, price: '3000', filters: ETH }).problem).toBeUndefined();
    const small = orderPlacement({
      margin: 1.5,
      leverage: 10,
      price: '3000',
      filters: ETH,
      allowancePercent: 1,
    });
    // 20 ÷ 3030 = 0.0066 → 0.007: 0.007 × 3030 ÷ 10 = 2.121 → 2.25.
    expect(small).toMatchObject({ problem: PlacementProblem.TOO_SMALL, minimum_margin: '2.25' });
  });

  it('above the market order maxQty is too large', () => {
    // 1000 × 125 ÷ 850 = 147.05… → 147.058 BTC > 120.
    expect(orderPlacement({ margin: 1000, leverage: 125, price: '850', filters: BTC }).problem).toBe(
      PlacementProblem.TOO_LARGE,
    );
  });

  it('no smallest margin above the margin preference maximum of 1000', () => {
    // 0.001 × 1 010 000 ÷ 1 = 1010 $ at 1 % up.
    const placement = orderPlacement({
      margin: 1000,
      leverage: 1,
      price: '1000000',
      filters: BTC,
      allowancePercent: 1,
    });
    expect(placement.problem).toBe(PlacementProblem.TOO_SMALL);
    expect(placement.minimum_margin).toBeUndefined();
  });

  it('never below the margin preference minimum of 1.5 $', () => {
    // 20 ÷ 3000 → 0.007 × 3000 ÷ 10 = 2.1 → 2.25 on the step.
    expect(orderPlacement({ margin: 10, leverage: 10, price: '3000', filters: ETH }).minimum_margin).toBe(
      '2.25',
    );
    const cheap = { ...ETH, symbol_min_notional: '5' };
    // 5 ÷ 3000 → 0.002 × 3000 ÷ 10 = 0.6 → 0.75 → the minimum 1.5.
    expect(orderPlacement({ margin: 10, leverage: 10, price: '3000', filters: cheap }).minimum_margin).toBe(
      '1.50',
    );
  });

  // Binance's BTCUSDT brackets as the paper exchange lists them (its first three), as the exchange answers them.
  const BTC_BRACKETS = toLeverageBrackets('test', 'BTCUSDT', {
    symbol: 'BTCUSDT',
    brackets: [
      {
        bracket: 1,
        initialLeverage: 125,
        notionalCap: 50000,
        notionalFloor: 0,
        maintMarginRatio: 0.004,
        cum: 0,
      },
      {
        bracket: 2,
        initialLeverage: 100,
        notionalCap: 600000,
        notionalFloor: 50000,
        maintMarginRatio: 0.005,
        cum: 50,
      },
      {
        bracket: 3,
        initialLeverage: 75,
        notionalCap: 3000000,
        notionalFloor: 600000,
        maintMarginRatio: 0.0065,
        cum: 950,
      },
    ],
  });

  it('the leverage allows the largest cap of the brackets at or above it (-2027)', () => {
    expect(maxNotionalAtLeverage(BTC_BRACKETS, 125)).toBe('50000');
    expect(maxNotionalAtLeverage(BTC_BRACKETS, 101)).toBe('50000');
    expect(maxNotionalAtLeverage(BTC_BRACKETS, 100)).toBe('600000');
    expect(maxNotionalAtLeverage(BTC_BRACKETS, 10)).toBe('3000000');
    expect(maxNotionalAtLeverage(BTC_BRACKETS.slice(0, 1), 126)).toBe('0');
    // An exchange that does not say a bracket's leverage: nothing is known, nothing refused.
    const { initialLeverage: _, ...unsaid } = BTC_BRACKETS[0]!;
    expect(maxNotionalAtLeverage([unsaid], 10)).toBeUndefined();
  });

  it('1000 $ × 125 on BTC is 125 000 $, above the 50 000 $ ×125 allows: at most 396 $ margin with the allowance', () => {
    const placement = orderPlacement({
      margin: 1000,
      leverage: 125,
      price: '85800',
      filters: BTC,
      brackets: BTC_BRACKETS,
      allowancePercent: 1,
    });
    expect(placement.problem).toBe(PlacementProblem.ABOVE_BRACKET);
    expect(placement.maximum_notional).toBe('50000');
    // 50 000 ÷ (125 × 1.01) = 396.04 → 396 $: sized at 85 800 and filled 1 % higher it stays ≤ 50 000.
    expect(placement.maximum_margin).toBe('396.00');
    const at = orderPlacement({
      margin: 396,
      leverage: 125,
      price: '85800',
      filters: BTC,
      brackets: BTC_BRACKETS,
      allowancePercent: 1,
    });
    expect(at.problem).toBeUndefined();
    // With no allowance (the open's own check) 400 $ passes: 400 × 125 ÷ 85 800 → 0.582 BTC = 49 935.6 $.
    expect(
      orderPlacement({ margin: 400, leverage: 125, price: '85800', filters: BTC, brackets: BTC_BRACKETS })
        .problem,
    ).toBeUndefined();
    // 400.25 × 125 = 50 031.25 → 0.583 BTC at 85 800 = 50 021.4: refused.
    expect(
      orderPlacement({
        margin: '400.25',
        leverage: 125,
        price: '85800',
        filters: BTC,
        brackets: BTC_BRACKETS,
      }).problem,
    ).toBe(PlacementProblem.ABOVE_BRACKET);
    // At ×100 the same margin is within the 600 000 $ cap.
    expect(
      orderPlacement({ margin: 1000, leverage: 100, price: '85800', filters: BTC, brackets: BTC_BRACKETS })
        .problem,
    ).toBeUndefined();
  });

  it('a position already held counts with the order; a leverage no bracket allows has no margin that passes', () => {
    // 0.5 BTC held at 85 800 = 42 900 $: 7 100 $ of room ÷ 125 = 56.8 → 56.75 $.
    const held = orderPlacement({
      margin: 100,
      leverage: 125,
      price: '85800',
      filters: BTC,
      brackets: BTC_BRACKETS,
      heldQuantity: '0.5',
    });
    expect(held).toMatchObject({ problem: PlacementProblem.ABOVE_BRACKET, maximum_margin: '56.75' });
    const none = orderPlacement({
      margin: 10,
      leverage: 126,
      price: '85800',
      filters: BTC,
      brackets: BTC_BRACKETS.slice(0, 1),
    });
    expect(none).toMatchObject({ problem: PlacementProblem.ABOVE_BRACKET, maximum_notional: '0' });
    expect(none.maximum_margin).toBeUndefined();
  });
});
