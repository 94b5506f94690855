// The one once-a-second clock of the countdowns on screen (the signal cards and the trade rows' UI-status
// buttons, SPEC.md §4): a single interval however many components count down, started by the first subscriber
// and stopped by the last.
import { useSyncExternalStore } from 'react';
import { SECOND_CLOCK_MS } from '../config/constants';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let nowMs = Date.now();

function tick(): void {
  nowMs = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  nowMs = Date.now();
  timer ??= setInterval(tick, SECOND_CLOCK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const subscribeNever = () => () => undefined;
const getSnapshot = () => nowMs;

/** Epoch ms, redrawn once a second while mounted and `isActive`. */
export function useSecondClock(isActive = true): number {
  // Subscribing reads the time afresh, and React redraws with it before the first tick.
  return useSyncExternalStore(isActive ? subscribe : subscribeNever, getSnapshot, getSnapshot);
}
