// §12 mathematics against Binance's own published figures and hand computations.
import { describe, expect, it } from 'vitest';
import { findSymbol, type SymbolSpec } from './market/symbols.js';
import { D } from './num.js';
import {
  breakEvenPrice,
  initialMargin,
  liquidationPrice,
  maintenance,
  roePercent,
  unrealizedPnl,
} from './positions.js';

const btc = findSymbol('BTCUSDT') as SymbolSpec;

describe('position mathematics (reference §12)', () => {
  it('reproduces the documented liquidation price of the isolated hedge sample (MMR 0.5 %, cum 50)', () => {
    // Q 20, EP 6563.665, WB 13200.70726908 → documented liquidationPrice 5930.78.
    const spec: SymbolSpec = {
      ...btc,
      brackets: [
        {
          bracket: 1,
          initialLeverage: 20,
          notionalCap: 10_000_000,
          notionalFloor: 0,
          maintMarginRatio: 0.005,
          cum: 50,
        },
      ],
    };
    const price = liquidationPrice({
      spec,
      walletBalance: new D('13200.70726908'),
      otherMaintenance: new D(0),
      otherPnl: new D(0),
      legs: [
        { positionSide: 'LONG', amt: new D(20), entry: new D('6563.665'), mark: new D('6679.50671178') },
      ],
    });
    expect(price.toFixed(2)).toBe('5930.78');
  });

  it('computes the isolated one-way long of the reference illustration', () => {
    const amt = new D('0.010');
    const entry = new D(60000);
    const mark = new D(61000);
    expect(unrealizedPnl(amt, entry, mark).toString()).toBe('10');
    expect(initialMargin(amt, mark, 10).toString()).toBe('61');
    expect(roePercent(new D(10), new D(61)).toFixed(4)).toBe('16.3934');
    const lp = liquidationPrice({
      spec: btc,
      walletBalance: new D(60),
      otherMaintenance: new D(0),
      otherPnl: new D(0),
      legs: [{ positionSide: 'BOTH', amt, entry, mark }],
    });
    // long: (Q·EP − WB − cum) / (Q·(1 − MMR)) with MMR 0.4 % and cum 0 in the first bracket.
    expect(lp.toString()).toBe(new D(600 - 60).div(new D('0.01').times('0.996')).toString());
  });

  it('gives a short its liquidation price above the entry and a low-leverage long none', () => {
    const short = liquidationPrice({
      spec: btc,
      walletBalance: new D(60),
      otherMaintenance: new D(0),
      otherPnl: new D(0),
      legs: [{ positionSide: 'BOTH', amt: new D('-0.010'), entry: new D(60000), mark: new D(60000) }],
    });
    expect(short.toString()).toBe(new D(600 + 60).div(new D('0.01').times('1.004')).toString());
    const safe = liquidationPrice({
      spec: btc,
      walletBalance: new D(1000),
      otherMaintenance: new D(0),
      otherPnl: new D(0),
      legs: [{ positionSide: 'BOTH', amt: new D('0.010'), entry: new D(60000), mark: new D(60000) }],
    });
    expect(safe.toString()).toBe('0');
  });

  it('takes maintenance margin and amount from the bracket of the notional', () => {
    expect(maintenance(btc, new D(40_000))).toMatchObject({ margin: new D(160) });
    const second = maintenance(btc, new D(100_000));
    expect(second.amount.toString()).toBe('50');
    expect(second.margin.toString()).toBe('450');
  });

  it('puts the break-even price beyond the entry by the round-trip taker commission', () => {
    expect(breakEvenPrice(new D(1), new D(10000), new D('0.0005')).toFixed(8)).toBe('10010.00500250');
    expect(breakEvenPrice(new D(-1), new D(10000), new D('0.0005')).toFixed(8)).toBe('9990.00499750');
  });
});
