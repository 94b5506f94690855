import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CACHED_DATA_UNUSED_MS } from '../config/constants';
import { createUnusedDataCache } from './unused-data';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('cached API data unused for 60 s is dropped (SPEC.md §9)', () => {
  test('the constant is 60 s', () => {
    expect(CACHED_DATA_UNUSED_MS).toBe(60_000);
  });

  test('kept while shown; dropped 60 s after the last component showing it went away', () => {
    const drop = vi.fn();
    const cache = createUnusedDataCache(drop);
    const release = cache.hold('a');
    vi.advanceTimersByTime(10 * 60_000);
    expect(drop).not.toHaveBeenCalled();
    release();
    vi.advanceTimersByTime(59_999);
    expect(drop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(drop).toHaveBeenCalledExactlyOnceWith('a');
  });

  test('shown again within the 60 s: kept, and its 60 s start again when it goes away', () => {
    const drop = vi.fn();
    const cache = createUnusedDataCache(drop);
    cache.hold('a')();
    vi.advanceTimersByTime(50_000);
    const release = cache.hold('a');
    vi.advanceTimersByTime(50_000);
    expect(drop).not.toHaveBeenCalled();
    release();
    vi.advanceTimersByTime(59_000);
    expect(drop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(drop).toHaveBeenCalledOnce();
  });

  test('two components showing one entry: it is unused only when both went away; a second release is a no-op', () => {
    const drop = vi.fn();
    const cache = createUnusedDataCache(drop);
    const first = cache.hold('a');
    const second = cache.hold('a');
    first();
    first();
    vi.advanceTimersByTime(120_000);
    expect(drop).not.toHaveBeenCalled();
    second();
    vi.advanceTimersByTime(60_000);
    expect(drop).toHaveBeenCalledExactlyOnceWith('a');
  });

  test('an answer written after its modal closed is dropped 60 s after it arrived; one still shown is kept', () => {
    const drop = vi.fn();
    const cache = createUnusedDataCache(drop);
    cache.written('late');
    const release = cache.hold('shown');
    cache.written('shown');
    vi.advanceTimersByTime(60_000);
    expect(drop).toHaveBeenCalledExactlyOnceWith('late');
    release();
    vi.advanceTimersByTime(60_000);
    expect(drop).toHaveBeenLastCalledWith('shown');
  });

  test('keys are independent; reset forgets every timer', () => {
    const drop = vi.fn();
    const cache = createUnusedDataCache(drop, 1000);
    cache.hold('a')();
    vi.advanceTimersByTime(500);
    cache.hold('b')();
    vi.advanceTimersByTime(500);
    expect(drop.mock.calls).toEqual([['a']]);
    cache.reset();
    vi.advanceTimersByTime(5000);
    expect(drop.mock.calls).toEqual([['a']]);
  });
});
