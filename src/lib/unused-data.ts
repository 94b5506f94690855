// SPEC.md §9 "Cached API data is kept 60 s when unused by default". The SPA keeps its API data in the feature
// stores. Most of it is the session's live state that every screen reads and that each read replaces (open
// trades, signals, balances, preferences, statistics); it does not pile up. What piles up is the data read for
// one detail modal and kept per uuid — a trade's trend data, a signal's trend data and history — and the bitcoin
// trend data of its modal: that is the cached API data here. "Unused" means no mounted component shows the entry
// (its modal's body is not on screen). An entry unused for CACHED_DATA_UNUSED_MS is dropped: a modal opened again
// within that time still shows the previous copy at once while it reads anew, as before, and a long session no
// longer keeps the candles of every trade it ever opened.
import { useEffect } from 'react';
import { CACHED_DATA_UNUSED_MS } from '../config/constants';

export interface UnusedDataCache {
  /** A component shows the entry `key`: it is kept until the returned release, then `keepMs` more. */
  hold(key: string): () => void;
  /** The entry `key` was written (an answer arrived): if nothing shows it, its `keepMs` start now. */
  written(key: string): void;
  /** Forgets every hold and timer (the stores were reset; logout). */
  reset(): void;
}

/** Keeps track of who shows which entry; `drop` removes an entry from its store. */
export function createUnusedDataCache(
  drop: (key: string) => void,
  keepMs: number = CACHED_DATA_UNUSED_MS,
): UnusedDataCache {
  const holders = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const cancel = (key: string) => {
    const timer = timers.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.delete(key);
  };
  const schedule = (key: string) => {
    cancel(key);
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        if ((holders.get(key) ?? 0) === 0) drop(key);
      }, keepMs),
    );
  };
  return {
    hold(key) {
      cancel(key);
      holders.set(key, (holders.get(key) ?? 0) + 1);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        const count = (holders.get(key) ?? 1) - 1;
        if (count > 0) {
          holders.set(key, count);
          return;
        }
        holders.delete(key);
        schedule(key);
      };
    },
    written(key) {
      if ((holders.get(key) ?? 0) === 0) schedule(key);
    },
    reset() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      holders.clear();
    },
  };
}

/** While the calling component is mounted (and `key` is set) it shows the entry `key` of `cache`. */
export function useCachedDataHold(cache: UnusedDataCache, key: string | undefined): void {
  useEffect(() => (key === undefined ? undefined : cache.hold(key)), [cache, key]);
}
