// Before initTradeCore() every function fails with one clear error; afterwards they work. This file runs in
// its own module scope, so nothing has loaded pkg/ yet when it starts.
import { describe, expect, it } from 'vitest';
import { initTradeCore, isTradeCoreReady, roundDecimal, sealToken } from '../../shared-core/trade-core-node';

describe('trade-core initialisation', () => {
  it('throws a NotInitialised error before init and works after it', async () => {
    expect(isTradeCoreReady()).toBe(false);
    expect(() => roundDecimal('1.005', 2)).toThrow(
      'trade-core is not initialised: call initTradeCore() first',
    );
    expect(() => sealToken('x', '12345', 'p', 'k')).toThrow(
      expect.objectContaining({ code: 'NotInitialised' }),
    );
    await Promise.all([initTradeCore(), initTradeCore()]);
    expect(isTradeCoreReady()).toBe(true);
    expect(roundDecimal('1.005', 2)).toBe('1.01');
  });
});
