import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { byUuid, makeSignal } from '../../testing/live-fixtures';
import { getRecentSignalList } from './api/get-recent-signal-list';
import { loadTradeCoreForTests } from '../../testing/load-trade-core';
import { SIGNAL_COUNTDOWN_S } from '../../config/constants';
import { TradeTokenLevel } from '../../stores/token-level';
import {
  expireSignals,
  loadRecentSignals,
  pushSignals,
  removeSignal,
  resetSignalsStore,
  SIGNAL_LIST_MAX_COUNT,
  signalAgeMs,
  signalSecondsLeft,
  signalsStore,
} from './signals-store';
import { isAutoOpenDue } from './trade-from-signal';

vi.mock('./api/get-recent-signal-list', () => ({ getRecentSignalList: vi.fn() }));

beforeAll(loadTradeCoreForTests);
beforeEach(resetSignalsStore);
afterEach(() => vi.useRealTimers());

describe('signals store', () => {
  test('new signals become cards, newest first, counting down from their arrival by default', () => {
    const first = makeSignal();
    const second = makeSignal();
    pushSignals(byUuid(first), 1000);
    pushSignals(byUuid(second), 2000);
    expect(signalsStore.signal_list).toEqual([second.signal_uuid, first.signal_uuid]);
    expect(signalsStore.signal_by_uuid[first.signal_uuid]).toEqual(first);
    expect(signalsStore.countdown_start_by_uuid[first.signal_uuid]).toBe(1000);
  });

  test('a signal that arrives again keeps its card and its countdown', () => {
    const signal = makeSignal();
    pushSignals(byUuid(signal), 1000);
    pushSignals(byUuid(signal), 50_000);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
    expect(signalsStore.countdown_start_by_uuid[signal.signal_uuid]).toBe(1000);
  });

  test('one event with several signals adds them all, the newest made first', () => {
    const older = makeSignal();
    const newer = makeSignal();
    pushSignals(byUuid(newer, older), 0);
    expect(signalsStore.signal_list).toEqual([newer.signal_uuid, older.signal_uuid]);
  });

  test('the list is capped, the oldest cards dropped', () => {
    for (let i = 0; i < SIGNAL_LIST_MAX_COUNT + 2; i += 1) pushSignals(byUuid(makeSignal()), i);
    expect(signalsStore.signal_list).toHaveLength(SIGNAL_LIST_MAX_COUNT);
    expect(Object.keys(signalsStore.signal_by_uuid)).toHaveLength(SIGNAL_LIST_MAX_COUNT);
  });

  test('the countdown reads 99 on arrival, drops once a second and is 0 after 99 s', () => {
    expect(signalSecondsLeft(0, 0)).toBe(SIGNAL_COUNTDOWN_S);
    expect(signalSecondsLeft(0, 999)).toBe(99);
    expect(signalSecondsLeft(0, 1000)).toBe(98);
    expect(signalSecondsLeft(0, 98_999)).toBe(1);
    expect(signalSecondsLeft(0, 99_000)).toBe(0);
    expect(signalSecondsLeft(0, 500_000)).toBe(0);
  });

  test('expiry removes exactly the cards whose countdown reached 0 (fake clock)', () => {
    vi.useFakeTimers({ now: 10_000 });
    const old = makeSignal();
    pushSignals(byUuid(old));
    vi.advanceTimersByTime(50_000);
    const young = makeSignal();
    pushSignals(byUuid(young));
    vi.advanceTimersByTime(48_999);
    expireSignals();
    expect(signalsStore.signal_list).toEqual([young.signal_uuid, old.signal_uuid]);
    vi.advanceTimersByTime(1);
    expireSignals();
    expect(signalsStore.signal_list).toEqual([young.signal_uuid]);
    vi.advanceTimersByTime(50_000);
    expireSignals();
    expect(signalsStore.signal_list).toEqual([]);
  });

  test('removing a card forgets everything about it', () => {
    const signal = makeSignal();
    pushSignals(byUuid(signal), 0);
    signalsStore.processing_by_uuid[signal.signal_uuid] = true;
    removeSignal(signal.signal_uuid);
    expect(signalsStore.signal_list).toEqual([]);
    expect(signalsStore.signal_by_uuid).toEqual({});
    expect(signalsStore.countdown_start_by_uuid).toEqual({});
    expect(signalsStore.processing_by_uuid).toEqual({});
  });
});

describe('countdown from the signal’s age', () => {
  const madeAt = Date.UTC(2026, 10, 22, 9, 0, 0);
  const made = (offsetS = 0) =>
    makeSignal({ signal_created_at: new Date(madeAt + offsetS * 1000).toISOString() });

  test('the age is measured on the server’s clock only', () => {
    expect(signalAgeMs(made(), madeAt + 30_500)).toBe(30_500);
    expect(signalAgeMs(made(), undefined)).toBe(0);
    // A signal 'from the future' (the server's clocks disagree a little) is just made.
    expect(signalAgeMs(made(5), madeAt)).toBe(0);
    expect(signalAgeMs(makeSignal({ signal_created_at: 'not a date' }), madeAt)).toBe(0);
  });

  test('a card’s countdown is 99 s minus the signal’s age, whatever this browser’s clock says', () => {
    // This browser's clock is 10 minutes ahead of the server's.
    const browserNow = madeAt + 600_000 + 30_000;
    const signal = made();
    pushSignals(byUuid(signal), browserNow, madeAt + 30_000);
    const start = signalsStore.countdown_start_by_uuid[signal.signal_uuid]!;
    expect(start).toBe(browserNow - 30_000);
    expect(signalSecondsLeft(start, browserNow)).toBe(69);
    expect(signalSecondsLeft(start, browserNow + 68_999)).toBe(1);
    expireSignals(browserNow + 68_999);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
    expireSignals(browserNow + 69_000);
    expect(signalsStore.signal_list).toEqual([]);
  });

  test('a signal whose countdown has run out gets no card', () => {
    const old = made();
    const young = made(1);
    pushSignals(byUuid(old, young), 5_000_000, madeAt + 99_000);
    expect(signalsStore.signal_list).toEqual([young.signal_uuid]);
    expect(signalsStore.signal_by_uuid[old.signal_uuid]).toBeUndefined();
    expect(signalSecondsLeft(signalsStore.countdown_start_by_uuid[young.signal_uuid]!, 5_000_000)).toBe(1);
  });

  test('cards stay newest first by countdown when older signals arrive later', () => {
    const shown = made(50);
    pushSignals(byUuid(shown), 1_000_000, madeAt + 55_000);
    // After a reconnect the recent list brings a signal made before the card already shown.
    const missed = made(20);
    pushSignals(byUuid(missed, shown), 1_002_000, madeAt + 57_000);
    expect(signalsStore.signal_list).toEqual([shown.signal_uuid, missed.signal_uuid]);
    expect(signalsStore.countdown_start_by_uuid[shown.signal_uuid]).toBe(1_000_000 - 5000);
    expect(signalsStore.countdown_start_by_uuid[missed.signal_uuid]).toBe(1_002_000 - 37_000);
  });

  test('loadRecentSignals adds the recent signals still counting down, aged on the server’s clock', async () => {
    vi.useFakeTimers({ now: madeAt + 3_600_000 });
    const fresh = made(40);
    const stale = made(-200);
    vi.mocked(getRecentSignalList).mockResolvedValueOnce({
      signal_list: [fresh, stale],
      server_time: new Date(madeAt + 50_000).toISOString(),
    });
    await loadRecentSignals();
    expect(signalsStore.signal_list).toEqual([fresh.signal_uuid]);
    expect(signalSecondsLeft(signalsStore.countdown_start_by_uuid[fresh.signal_uuid]!, Date.now())).toBe(89);
  });

  test('a failed read of the recent signals changes nothing', async () => {
    const shown = makeSignal();
    pushSignals(byUuid(shown), 0);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.mocked(getRecentSignalList).mockRejectedValueOnce(new Error('offline'));
    await loadRecentSignals();
    expect(signalsStore.signal_list).toEqual([shown.signal_uuid]);
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });
});

describe('auto-open rule', () => {
  const context = {
    autoOpenDelayS: 5,
    minimalAccuracyPercent: 60,
    tokenLevel: TradeTokenLevel.TRADE_AVAILABLE,
  };
  const signal = { signal_accuracy: 0.67 };

  test('due once the countdown has run the delay', () => {
    expect(isAutoOpenDue(signal, 4999, context)).toBe(false);
    expect(isAutoOpenDue(signal, 5000, context)).toBe(true);
  });

  test('a delay of 0 is OFF', () => {
    expect(isAutoOpenDue(signal, 60_000, { ...context, autoOpenDelayS: 0 })).toBe(false);
  });

  test('never without TRADE_AVAILABLE, nor below minimal_accuracy', () => {
    expect(isAutoOpenDue(signal, 9000, { ...context, tokenLevel: TradeTokenLevel.NO_PIN_CODE })).toBe(false);
    expect(isAutoOpenDue(signal, 9000, { ...context, tokenLevel: undefined })).toBe(false);
    expect(isAutoOpenDue(signal, 9000, { ...context, minimalAccuracyPercent: 67.5 })).toBe(false);
    expect(isAutoOpenDue(signal, 9000, { ...context, minimalAccuracyPercent: 67 })).toBe(true);
    expect(isAutoOpenDue({ signal_accuracy: 0.57 }, 9000, { ...context, minimalAccuracyPercent: 57 })).toBe(
      true,
    );
  });
});
