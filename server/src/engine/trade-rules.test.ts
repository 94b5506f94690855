// The per-trade rules (SPEC.md §4 "Trade status and UI status") as pure functions, the ones the trade monitor
// and the house replay share: PNL, ROE and the trailing level per price, edge-triggered UI statuses with the
// protective one first, signal marks and which status may replace which.
// A BUY of 0.002 at 97000 with 10× leverage: ROE = (price / 97000 − 1) × 1000 %.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  initTradeCore,
  takeProfitPrice,
  trailingActivationPrice,
  trailingCallbackRate,
} from '../../../shared-core/trade-core-node';
import {
  applyPrice,
  mayMark,
  reachesMinimalAccuracy,
  signalUiStatus,
  tradeTerms,
  type TradeRuleState,
} from './trade-rules';

beforeAll(() => initTradeCore());

const terms = () =>
  tradeTerms({
    position: {
      trade_direction: 'BUY',
      trade_open_price: '97000',
      trade_quantity: '0.002',
      trade_leverage: 10,
    },
    stopLossPercent: 10,
    takeProfitPercent: 5,
    trailingPercent: 3,
  });
const opened: TradeRuleState = {
  trade_current_price: '97000',
  trade_last_update_price: 0,
  trade_pnl_current: '0',
  trade_roe_current: '0',
  trade_treiling_stop_percent_current: '-10.00',
  trade_best_roe: null,
  monitor_conditions: 0,
};

/** Applies prices in turn; answers the final state and the statuses that rose. */
function walk(prices: string[], from = opened) {
  const fixed = terms();
  let state = from;
  const rises: (string | null)[] = [];
  for (const price of prices) {
    const step = applyPrice(fixed, state, price);
    state = step.state;
    rises.push(step.rises);
  }
  return { state, rises };
}

describe('applyPrice', () => {
  it('computes price direction, PNL, ROE; the level rises only with a gain beyond the trailing percent', () => {
    expect(walk(['97100']).state).toEqual({
      trade_current_price: '97100',
      trade_last_update_price: 1,
      trade_pnl_current: '0.2',
      trade_roe_current: '1.03',
      trade_treiling_stop_percent_current: '-10.00',
      trade_best_roe: '1.03',
      monitor_conditions: 0,
    });
    expect(walk(['97100', '96900']).state).toMatchObject({
      trade_last_update_price: -1,
      trade_pnl_current: '-0.2',
      trade_best_roe: '1.03',
    });
    expect(walk(['97400']).state.trade_treiling_stop_percent_current).toBe('1.12');
  });

  it('fires on the edge only, and again only after the condition was false', () => {
    expect(walk(['97485', '97600', '97620', '97200', '97500']).rises).toEqual([
      'TAKE_PROFIT', // ROE 5.00
      null, // 6.19: still above take profit
      null,
      'TREILING_STOP', // 2.06 ≤ the level 3.39 (best 6.39 − 3); take profit is false now
      'TAKE_PROFIT', // 5.15: true again
    ]);
  });

  it('puts STOP_LOSS first, never TREILING_STOP before the level rose', () => {
    expect(walk(['96100', '96030']).rises).toEqual([null, 'STOP_LOSS']);
    expect(walk(['96030']).state.monitor_conditions).toBe(2);
  });

  it('keeps the level when the best ROE is unchanged, and never lowers it', () => {
    const { state } = walk(['97970', '97800', '96500']);
    expect(state).toMatchObject({ trade_best_roe: '10.00', trade_treiling_stop_percent_current: '7.00' });
  });

  it('computes a SELL the other way round', () => {
    const sell = tradeTerms({
      position: {
        trade_direction: 'SELL',
        trade_open_price: '97000',
        trade_quantity: '0.002',
        trade_leverage: 10,
      },
      stopLossPercent: 10,
      takeProfitPercent: 5,
      trailingPercent: 3,
    });
    expect(applyPrice(sell, opened, '96515')).toMatchObject({
      state: { trade_pnl_current: '0.97', trade_roe_current: '5.00' },
      rises: 'TAKE_PROFIT',
    });
  });
});

describe('signals and marks', () => {
  it('marks DIRECTION_SIGNAL in the trade’s direction, else REVERSE_SIGNAL', () => {
    expect(signalUiStatus('BUY', 'BUY')).toBe('DIRECTION_SIGNAL');
    expect(signalUiStatus('BUY', 'SELL')).toBe('REVERSE_SIGNAL');
  });

  it('compares the accuracy with minimal_accuracy absorbing binary noise only', () => {
    expect(reachesMinimalAccuracy(0.6, 60)).toBe(true);
    expect(reachesMinimalAccuracy(0.603, 60.3)).toBe(true);
    expect(reachesMinimalAccuracy(0.5999, 60)).toBe(false);
    expect(reachesMinimalAccuracy(null, 0)).toBe(false);
  });

  it('lets only STOP_LOSS and TREILING_STOP replace DIRECTION_SIGNAL', () => {
    expect(mayMark(null, 'TAKE_PROFIT')).toBe(true);
    expect(mayMark('DIRECTION_SIGNAL', 'STOP_LOSS')).toBe(true);
    expect(mayMark('DIRECTION_SIGNAL', 'TREILING_STOP')).toBe(true);
    expect(mayMark('DIRECTION_SIGNAL', 'TAKE_PROFIT')).toBe(false);
    expect(mayMark('REVERSE_SIGNAL', 'STOP_LOSS')).toBe(false);
    expect(mayMark('TAKE_PROFIT', 'DIRECTION_SIGNAL')).toBe(false);
  });

  it("the exchange's exits (trade-core) sit where the monitor's own rules fire (issue 35)", () => {
    for (const direction of ['BUY', 'SELL'] as const) {
      const position = {
        trade_direction: direction,
        trade_open_price: '97000',
        trade_quantity: '0.002',
        trade_leverage: 10,
      };
      const rules = tradeTerms({ position, stopLossPercent: 10, takeProfitPercent: 5, trailingPercent: 3 });
      const sign = direction === 'BUY' ? 1 : -1;
      const tick = (price: string, ticks: number) => (Number(price) + sign * ticks * 0.1).toFixed(1);
      // The take profit's trigger: TAKE_PROFIT rises there, not a tick before.
      const trigger = takeProfitPrice({
        direction,
        entryPrice: '97000',
        takeProfitPercent: 5,
        leverage: 10,
        pricePrecision: 1,
      });
      // The monitor compares ROE rounded to 2 decimals: it fires from 4.995 % on, and so does the exchange.
      expect(trigger).toBe(direction === 'BUY' ? '97484.6' : '96515.4');
      expect(applyPrice(rules, { ...opened }, trigger).rises).toBe('TAKE_PROFIT');
      expect(applyPrice(rules, { ...opened }, tick(trigger, -1)).rises).toBeNull();
      // The trailing stop's activation: the monitor's level rises above −SL % there, not a tick before.
      const activation = trailingActivationPrice({
        direction,
        entryPrice: '97000',
        trailingPercent: 3,
        leverage: 10,
        pricePrecision: 1,
      });
      expect(applyPrice(rules, { ...opened }, activation).state.trade_treiling_stop_percent_current).not.toBe(
        '-10.00',
      );
      expect(
        applyPrice(rules, { ...opened }, tick(activation, -1)).state.trade_treiling_stop_percent_current,
      ).toBe('-10.00');
      // The monitor trails by 3 % of ROE = 0.3 % of the entry at 10×; the exchange by 0.3 % of the best price.
      expect(trailingCallbackRate(3, 10)).toBe('0.3');
    }
  });
});
