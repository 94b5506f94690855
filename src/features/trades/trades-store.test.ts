import { beforeEach, describe, expect, test } from 'vitest';
import { BTC_UUID, ETH_UUID, PLATFORM_UUID } from '../../app/testing/live-fixtures';
import {
  countOpenTrades,
  findOpenTradeUuidBySymbol,
  resetTradesStore,
  setOpenTrades,
  tradesStore,
} from './trades-store';

beforeEach(resetTradesStore);

describe('trades store (index only until the trading issue)', () => {
  test('open trades are indexed by uuid and by symbol (SPEC.md §3)', () => {
    setOpenTrades([
      { trade_uuid: 't1', platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } },
      { trade_uuid: 't2', platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: ETH_UUID } },
    ]);
    expect(tradesStore.trade_uuid_by_symbol_uuid_dict).toEqual({ [BTC_UUID]: 't1', [ETH_UUID]: 't2' });
    expect(findOpenTradeUuidBySymbol(ETH_UUID)).toBe('t2');
    expect(findOpenTradeUuidBySymbol('nope')).toBeUndefined();
    expect(countOpenTrades(tradesStore)).toBe(2);
  });

  test('reset empties both dictionaries', () => {
    setOpenTrades([{ trade_uuid: 't1', platform_uuid: PLATFORM_UUID, symbol: { symbol_uuid: BTC_UUID } }]);
    resetTradesStore();
    expect(countOpenTrades(tradesStore)).toBe(0);
    expect(tradesStore.trade_uuid_by_symbol_uuid_dict).toEqual({});
  });
});
