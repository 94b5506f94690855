// The fee rate of the round trip's estimate (issue 36, shared-core/trade-fees.ts): the trader's charged taker
// rate from a trade's opening commission, and what two taker fills take of the margin at a leverage, exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { initTradeCore } from '../../shared-core/trade-core-node';
import { chargedTakerRate, DEFAULT_TAKER_RATE, roundTripFeeRoe } from '../../shared-core/trade-fees';

beforeAll(async () => {
  await initTradeCore();
});

describe('round-trip fees', () => {
  it('reads the charged rate from the opening commission and the notional, 8 decimals', () => {
    // 0.002 × 97000 = 194 USDT; 0.097 USDT charged: 0.05 %.
    expect(
      chargedTakerRate({
        trade_open_commission: '0.097',
        trade_quantity: '0.002',
        trade_open_price: '97000',
      }),
    ).toBe('0.00050000');
    // 0.04 % (a VIP or BNB rate) on 0.036 ETH at 2710.66.
    expect(
      chargedTakerRate({
        trade_open_commission: '0.03903350',
        trade_quantity: '0.036',
        trade_open_price: '2710.66',
      }),
    ).toBe('0.00040000');
    expect(
      chargedTakerRate({ trade_open_commission: null, trade_quantity: '0.002', trade_open_price: '97000' }),
    ).toBe(undefined);
  });

  it('takes 2 × rate × leverage of the margin, as ROE percent', () => {
    expect(roundTripFeeRoe(DEFAULT_TAKER_RATE, 10)).toBe('1.00');
    expect(roundTripFeeRoe(DEFAULT_TAKER_RATE, 125)).toBe('12.50');
    expect(roundTripFeeRoe('0.00040000', 20)).toBe('1.60');
    expect(roundTripFeeRoe('0.00045', 3)).toBe('0.27');
  });
});
