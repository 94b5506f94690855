import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { byUuid, makeSignal } from '../../app/testing/live-fixtures';
import { loadTradeCoreForTests } from '../../app/testing/load-trade-core';
import { SIGNAL_COUNTDOWN_S } from '../../config/constants';
import { TradeTokenLevel } from '../trade-tokens/token-level';
import {
  expireSignals,
  pushSignals,
  removeSignal,
  resetSignalsStore,
  SIGNAL_LIST_MAX_COUNT,
  signalSecondsLeft,
  signalsStore,
} from './signals-store';
import { isAutoOpenDue } from './trade-from-signal';

beforeAll(loadTradeCoreForTests);
beforeEach(resetSignalsStore);
afterEach(() => vi.useRealTimers());

describe('signals store', () => {
  test('new signals become cards, newest first, each with its arrival time', () => {
    const first = makeSignal();
    const second = makeSignal();
    pushSignals(byUuid(first), 1000);
    pushSignals(byUuid(second), 2000);
    expect(signalsStore.signal_list).toEqual([second.signal_uuid, first.signal_uuid]);
    expect(signalsStore.signal_by_uuid[first.signal_uuid]).toEqual(first);
    expect(signalsStore.received_at_by_uuid[first.signal_uuid]).toBe(1000);
  });

  test('a signal that arrives again keeps its card and its countdown', () => {
    const signal = makeSignal();
    pushSignals(byUuid(signal), 1000);
    pushSignals(byUuid(signal), 50_000);
    expect(signalsStore.signal_list).toEqual([signal.signal_uuid]);
    expect(signalsStore.received_at_by_uuid[signal.signal_uuid]).toBe(1000);
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
    expect(signalsStore.received_at_by_uuid).toEqual({});
    expect(signalsStore.processing_by_uuid).toEqual({});
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
