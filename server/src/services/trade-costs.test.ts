// The cockpit's server math (issue 18) on the real trade-core (pkg/): the taker rate read back from the
// opening commission, the closing commission at a price, PNL and ROE net of both, the isolated liquidation
// price (binance-fapi.md §12), and the columns a new trade is stored with. Expected figures are worked out by
// hand from the formulas, not by the functions under test.
import { beforeAll, describe, expect, it } from 'vitest';
import { initTradeCore } from '../../../shared-core/trade-core-node';
import { bracketOf } from '../../../shared-core/trade-fees';
import { openingCostColumns } from './trade-costs';
import {
  closeCommissionAt,
  liquidationOf,
  netPnlAndRoe,
  takerRateOf,
  tradeFees,
  type TradePosition,
} from './trade-math';

beforeAll(() => initTradeCore());

/** 0.002 BTC long at 97000, 20×: notional 194, margin 9.7; a 0.05 % taker fee is 0.097. */
const long: TradePosition = {
  trade_direction: 'BUY',
  trade_open_price: '97000',
  trade_quantity: '0.002',
  trade_leverage: 20,
};
const short: TradePosition = { ...long, trade_direction: 'SELL' };
const bracket = { rate: '0.004', amount: '0' };

describe('fees', () => {
  it('reads the taker rate back from the commission the exchange charged for the opening fill', () => {
    expect(Number(takerRateOf('0.09700000', long))).toBe(0.0005);
    // 0.003 × 97123.4 = 291.3702; × 0.0005 = 0.14568510 (8 decimals, as charged).
    const odd = { ...long, trade_quantity: '0.003', trade_open_price: '97123.4' };
    expect(Number(takerRateOf('0.14568510', odd))).toBe(0.0005);
  });

  it('estimates the closing commission at a price with that rate, to 8 decimals', () => {
    const fees = tradeFees('0.09700000', long)!;
    // 0.0005 × 0.002 × 98000 = 0.098
    expect(Number(closeCommissionAt(fees, '98000'))).toBe(0.098);
    // 0.0005 × 0.002 × 96999.9 = 0.0969999 (not a float's 0.09699990000000001)
    expect(closeCommissionAt(fees, '96999.9')).toMatch(/^0\.0969999(0)*$/);
    expect(tradeFees(null, long)).toBeUndefined();
  });

  it('takes both commissions off the PNL, and the ROE on the margin, 2 decimals', () => {
    // PNL at 98000: 1000 × 0.002 = 2; net 2 − 0.097 − 0.098 = 1.805; ÷ 9.7 × 100 = 18.6082… %
    const net = netPnlAndRoe('2', '0.097', '0.098', '9.7');
    expect(Number(net.pnlNet)).toBe(1.805);
    expect(net.roeNet).toBe('18.61');
    // A flat trade is a loss of both fees: −0.195, −2.01 %.
    const flat = netPnlAndRoe('0', '0.097', '0.098', '9.7');
    expect(Number(flat.pnlNet)).toBe(-0.195);
    expect(flat.roeNet).toBe('-2.01');
  });
});

describe('liquidation price (isolated, binance-fapi.md §12)', () => {
  it('of a long and of a short at 20×, at the price precision', () => {
    // (9.7 + 0 − 194) ÷ (0.002 × 0.004 − 0.002) = 92520.0803…
    expect(liquidationOf(long, bracket, 1)).toBe('92520.1');
    // (9.7 + 0 + 194) ÷ (0.002 × 0.004 + 0.002) = 101444.2231…
    expect(liquidationOf(short, bracket, 1)).toBe('101444.2');
  });

  it('is 0 for a long at 1× (its wallet covers the whole notional), unknown without a bracket', () => {
    expect(Number(liquidationOf({ ...long, trade_leverage: 1 }, bracket, 1))).toBe(0);
    expect(liquidationOf(long, { rate: null, amount: null }, 1)).toBeUndefined();
  });

  it('uses the bracket whose floor and cap hold the notional, the last one beyond every cap', () => {
    const brackets = [
      { notionalFloor: '0', notionalCap: '50000', maintMarginRatio: '0.004', cum: '0' },
      { notionalFloor: '50000', notionalCap: '250000', maintMarginRatio: '0.005', cum: '50' },
    ];
    expect(bracketOf(brackets, '194')?.maintMarginRatio).toBe('0.004');
    expect(bracketOf(brackets, '50000')?.maintMarginRatio).toBe('0.005');
    expect(bracketOf(brackets, '900000')?.cum).toBe('50');
  });
});

describe('openingCostColumns', () => {
  it('stores what the exchange told and what follows from it, net figures at the entry price', () => {
    const columns = openingCostColumns(
      long,
      { trade_open_commission: '0.09700000', trade_maint_margin_rate: '0.004', trade_maint_amount: '0' },
      1,
    );
    expect(columns.trade_open_commission).toBe('0.09700000');
    expect(columns.trade_liquidation_price).toBe('92520.1');
    expect(Number(columns.trade_close_commission)).toBe(0.097);
    expect(Number(columns.trade_pnl_net)).toBe(-0.194);
    // −0.194 ÷ 9.7 × 100 = −2 %
    expect(Number(columns.trade_roe_net)).toBe(-2);
  });

  it('leaves every figure null when the exchange did not tell', () => {
    const columns = openingCostColumns(long, {}, 1);
    expect(Object.values(columns).every((value) => value === null)).toBe(true);
  });
});
