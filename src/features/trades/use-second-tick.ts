// One shared once-a-second clock for the trade rows' UI-status buttons: a single interval however many rows
// count down, started by the first subscriber and stopped by the last.
import { useSyncExternalStore } from 'react';
import { TRADE_STATUS_TICK_MS } from '../../config/constants';

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
  timer ??= setInterval(tick, TRADE_STATUS_TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const getSnapshot = () => nowMs;

/** Epoch ms, redrawn once a second while mounted. */
export function useSecondTick(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
