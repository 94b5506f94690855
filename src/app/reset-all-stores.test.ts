// Logout resets every store (SPEC.md §4 "Logout"): here the ones a session leaves behind that were once missed.
import { expect, test } from 'vitest';
import { chartFocusStore } from './trading-chart/chart-focus';
import { resetAllStores } from './reset-all-stores';

test("the last user's focused chart symbol and trade do not survive logout (issue 53)", () => {
  chartFocusStore.symbol_uuid = '44444444-4444-4444-8444-444444444444';
  chartFocusStore.trade_uuid = '55555555-5555-4555-8555-555555555555';
  resetAllStores();
  expect({ ...chartFocusStore }).toEqual({ symbol_uuid: undefined, trade_uuid: undefined });
});
