// The trade store of SPEC.md §3 with the real trade-core: exact sums, recalculation updates, closing removes,
// the UI-status clock start, and the open-trades read (the API call is mocked).
import { subscribe } from 'valtio';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { BTC_UUID, ETH_UUID } from '../../testing/live-fixtures';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { TRADE_REFETCH_DELAY_MS } from '../../config/constants';
import { compareDecimals, sumDecimals } from '../../../shared-core/trade-core';
import { getOpenTrades } from './api/get-open-trades';
import { makeCalculated, makeTrade } from '../../testing/trade-fixtures';
import {
  applyTradeCalculated,
  clearTradeUiStatus,
  countOpenTrades,
  findOpenTradeUuidsBySymbol,
  loadOpenTrades,
  onSignalTraded,
  removeTrade,
  resetTradesStore,
  scheduleOpenTradesRefetch,
  setOpenTrades,
  setTradeProcessing,
  TradeUpdateResult,
  tradesStore,
} from './trades-store';

vi.mock('./api/get-open-trades', () => ({ getOpenTrades: vi.fn() }));

const ETH_SYMBOL = {
  symbol_uuid: ETH_UUID,
  symbol_name: 'ETH',
  symbol_pair: 'ETHUSDT',
  symbol_price_precision: 2,
  symbol_quantity_precision: 3,
};

/** a equals b as decimals ("0.30" equals "0.3"). */
function expectDecimal(actual: string, expected: string) {
  expect([actual, compareDecimals(actual, expected)]).toEqual([actual, 0]);
}

beforeAll(loadTradeCoreForTests);
beforeEach(() => {
  resetTradesStore();
  vi.mocked(getOpenTrades).mockReset();
});
afterEach(() => vi.useRealTimers());

describe('open trades (SPEC.md §3 Trade store)', () => {
  test('are indexed by uuid and by symbol, counted, and found by symbol', () => {
    const btc = makeTrade();
    const eth = makeTrade({ symbol: ETH_SYMBOL });
    const btc2 = makeTrade();
    setOpenTrades([btc, eth, btc2]);
    expect(tradesStore.trade_uuid_by_symbol_uuid_dict).toEqual({
      [BTC_UUID]: [btc.trade_uuid, btc2.trade_uuid],
      [ETH_UUID]: [eth.trade_uuid],
    });
    expect(findOpenTradeUuidsBySymbol(ETH_UUID)).toEqual([eth.trade_uuid]);
    expect(findOpenTradeUuidsBySymbol('nope')).toEqual([]);
    expect(countOpenTrades(tradesStore)).toBe(3);
    // Removing one of two trades on a symbol keeps the other in the index.
    removeTrade(btc.trade_uuid);
    expect(findOpenTradeUuidsBySymbol(BTC_UUID)).toEqual([btc2.trade_uuid]);
  });

  test('current_pnl and possible_loss are exact decimal sums, never binary floating point', () => {
    setOpenTrades([
      makeTrade({ trade_pnl_current: '0.1', trade_margin: '10', trade_treiling_stop_percent_current: '-10' }),
      makeTrade({
        trade_pnl_current: '0.2',
        trade_margin: '12.5',
        trade_treiling_stop_percent_current: '3.3',
      }),
      makeTrade({
        trade_pnl_current: '-0.05',
        trade_margin: '1.5',
        trade_treiling_stop_percent_current: '0',
      }),
    ]);
    // 0.1 + 0.2 − 0.05 is 0.25000000000000006 in binary floating point.
    expectDecimal(tradesStore.current_pnl, '0.25');
    // 10 × −10 × 0.01 + 12.5 × 3.3 × 0.01 + 0 = −1 + 0.4125
    expectDecimal(tradesStore.possible_loss, '-0.5875');
  });

  test('an empty list sums to 0', () => {
    setOpenTrades([]);
    expectDecimal(tradesStore.current_pnl, '0');
    expectDecimal(tradesStore.possible_loss, '0');
  });

  test('a re-read keeps the objects of known trades, adds new ones and drops the others', () => {
    const kept = makeTrade();
    const gone = makeTrade({ symbol: ETH_SYMBOL });
    setOpenTrades([kept, gone]);
    const keptProxy = tradesStore.trade_by_uuid_dict[kept.trade_uuid];
    const added = makeTrade({ symbol: ETH_SYMBOL, trade_pnl_current: '1.5' });
    setOpenTrades([{ ...kept, trade_pnl_current: '0.7' }, added]);
    expect(tradesStore.trade_by_uuid_dict[kept.trade_uuid]).toBe(keptProxy);
    expect(keptProxy?.trade_pnl_current).toBe('0.7');
    expect(Object.keys(tradesStore.trade_by_uuid_dict).sort()).toEqual(
      [kept.trade_uuid, added.trade_uuid].sort(),
    );
    expect(findOpenTradeUuidsBySymbol(ETH_UUID)).toEqual([added.trade_uuid]);
    expectDecimal(tradesStore.current_pnl, '2.2');
  });
});

describe('trade_updated_response_from_core (SPEC.md §4)', () => {
  test('a recalculation replaces the calculated fields and adjusts both sums exactly', () => {
    const a = makeTrade({ trade_pnl_current: '0.1', trade_treiling_stop_percent_current: '-10' });
    const b = makeTrade({ symbol: ETH_SYMBOL, trade_pnl_current: '0.2' });
    setOpenTrades([a, b]);
    const result = applyTradeCalculated(
      a.trade_uuid,
      makeCalculated(a, {
        trade_current_price: '97250.5',
        trade_last_update_price: -1,
        trade_pnl_current: '0.301',
        trade_roe_current: '3.10',
        trade_treiling_stop_percent_current: '0.1',
      }),
    );
    expect(result).toBe(TradeUpdateResult.APPLIED);
    const trade = tradesStore.trade_by_uuid_dict[a.trade_uuid];
    expect(trade).toMatchObject({
      trade_current_price: '97250.5',
      trade_last_update_price: -1,
      trade_roe_current: '3.10',
    });
    expectDecimal(tradesStore.current_pnl, '0.501');
    // 10 × 0.1 × 0.01 + 10 × −10 × 0.01
    expectDecimal(tradesStore.possible_loss, '-0.99');
    // The adjusted sums equal a fresh sum over the list.
    const trades = Object.values(tradesStore.trade_by_uuid_dict);
    expectDecimal(tradesStore.current_pnl, sumDecimals(trades.map((item) => item.trade_pnl_current)));
  });

  test('a closing status removes the trade from the list, the index and the sums', () => {
    const a = makeTrade({ trade_pnl_current: '0.1' });
    const b = makeTrade({ symbol: ETH_SYMBOL, trade_pnl_current: '0.2' });
    setOpenTrades([a, b]);
    const result = applyTradeCalculated(a.trade_uuid, makeCalculated(a, { trade_status: 'stop_loss' }));
    expect(result).toBe(TradeUpdateResult.REMOVED);
    expect(tradesStore.trade_by_uuid_dict[a.trade_uuid]).toBeUndefined();
    expect(findOpenTradeUuidsBySymbol(BTC_UUID)).toEqual([]);
    expect(countOpenTrades(tradesStore)).toBe(1);
    expectDecimal(tradesStore.current_pnl, '0.2');
    expectDecimal(tradesStore.possible_loss, '-1');
  });

  test('an update of an unknown trade changes nothing and says so', () => {
    const a = makeTrade();
    setOpenTrades([a]);
    const other = makeTrade();
    expect(applyTradeCalculated(other.trade_uuid, makeCalculated(other))).toBe(TradeUpdateResult.UNKNOWN);
    expect(countOpenTrades(tradesStore)).toBe(1);
  });

  test('the clock of a UI status starts when it is first seen and stops when it clears', () => {
    vi.useFakeTimers({ now: 50_000 });
    const a = makeTrade();
    setOpenTrades([a]);
    expect(tradesStore.ui_status_since_by_uuid).toEqual({});
    applyTradeCalculated(a.trade_uuid, makeCalculated(a, { trade_ui_status: 'TAKE_PROFIT' }));
    expect(tradesStore.ui_status_since_by_uuid[a.trade_uuid]).toBe(50_000);
    vi.advanceTimersByTime(3000);
    // The same status again (every price) keeps its start; a new status starts again.
    applyTradeCalculated(a.trade_uuid, makeCalculated(a, { trade_ui_status: 'TAKE_PROFIT' }));
    expect(tradesStore.ui_status_since_by_uuid[a.trade_uuid]).toBe(50_000);
    applyTradeCalculated(a.trade_uuid, makeCalculated(a, { trade_ui_status: 'REVERSE_SIGNAL' }));
    expect(tradesStore.ui_status_since_by_uuid[a.trade_uuid]).toBe(53_000);
    clearTradeUiStatus(a.trade_uuid);
    expect(tradesStore.trade_by_uuid_dict[a.trade_uuid]?.trade_ui_status).toBeNull();
    expect(tradesStore.ui_status_since_by_uuid).toEqual({});
  });

  test('removing a trade forgets its processing flag and its UI-status clock', () => {
    const a = makeTrade({ trade_ui_status: 'STOP_LOSS' });
    setOpenTrades([a]);
    tradesStore.processing_by_uuid[a.trade_uuid] = true;
    removeTrade(a.trade_uuid);
    expect(tradesStore.processing_by_uuid).toEqual({});
    expect(tradesStore.ui_status_since_by_uuid).toEqual({});
    expectDecimal(tradesStore.current_pnl, '0');
  });
});

describe('reading the open trades', () => {
  test('fills the store; a failure is only logged and keeps the list (SPEC.md §8)', async () => {
    const a = makeTrade();
    vi.mocked(getOpenTrades).mockResolvedValueOnce([a]);
    await loadOpenTrades();
    expect(tradesStore.is_loaded).toBe(true);
    expect(countOpenTrades(tradesStore)).toBe(1);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getOpenTrades).mockRejectedValueOnce(new Error('Timeout'));
    await loadOpenTrades();
    expect(logged).toHaveBeenCalled();
    expect(countOpenTrades(tradesStore)).toBe(1);
    logged.mockRestore();
  });

  test('the signal of every trade read is announced as traded (the app removes its card)', async () => {
    const first = makeTrade();
    const second = makeTrade();
    const traded: string[] = [];
    const stop = onSignalTraded((signalUuid) => traded.push(signalUuid));
    vi.mocked(getOpenTrades).mockResolvedValueOnce([first, second]);
    await loadOpenTrades();
    stop();
    expect(traded).toEqual([first.signal_uuid, second.signal_uuid]);
  });

  test('a scheduled re-read runs once, 1000 ms later (SPEC.md §4, §9)', async () => {
    vi.useFakeTimers();
    vi.mocked(getOpenTrades).mockResolvedValue([]);
    scheduleOpenTradesRefetch();
    scheduleOpenTradesRefetch();
    vi.advanceTimersByTime(TRADE_REFETCH_DELAY_MS - 1);
    expect(getOpenTrades).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(getOpenTrades).toHaveBeenCalledTimes(1);
  });

  test('reset empties the store and cancels a scheduled re-read', () => {
    vi.useFakeTimers();
    setOpenTrades([makeTrade()]);
    scheduleOpenTradesRefetch();
    resetTradesStore();
    vi.advanceTimersByTime(TRADE_REFETCH_DELAY_MS * 2);
    expect(getOpenTrades).not.toHaveBeenCalled();
    expect(countOpenTrades(tradesStore)).toBe(0);
    expect(tradesStore.trade_uuid_by_symbol_uuid_dict).toEqual({});
    expect(tradesStore.current_pnl).toBe('0');
  });
});

describe('rows are not woken by deletes of keys that are not there', () => {
  test('clearing a UI status or a processing mark that is not set notifies nobody', async () => {
    const trade = makeTrade({ trade_ui_status: null });
    setOpenTrades([trade]);
    const woken = vi.fn();
    const stopSince = subscribe(tradesStore.ui_status_since_by_uuid, woken);
    const stopProcessing = subscribe(tradesStore.processing_by_uuid, woken);
    clearTradeUiStatus(trade.trade_uuid);
    setTradeProcessing(trade.trade_uuid, false);
    setOpenTrades([trade]);
    await Promise.resolve();
    expect(woken).not.toHaveBeenCalled();
    // A key that is there is deleted and announced.
    setTradeProcessing(trade.trade_uuid, true);
    setTradeProcessing(trade.trade_uuid, false);
    await Promise.resolve();
    expect(woken).toHaveBeenCalled();
    expect(tradesStore.processing_by_uuid[trade.trade_uuid]).toBeUndefined();
    stopSince();
    stopProcessing();
  });
});
