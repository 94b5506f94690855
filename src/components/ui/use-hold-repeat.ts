import { useEffect, useRef } from 'react';

/** Holding a stepper button this long starts the repeat (ms). */
export const HOLD_REPEAT_DELAY_MS = 400;
/** Then one step every this many ms while the button is held. */
export const HOLD_REPEAT_INTERVAL_MS = 60;

/**
 * Press-and-hold for a button: a press longer than HOLD_REPEAT_DELAY_MS runs `repeat` every
 * HOLD_REPEAT_INTERVAL_MS until the pointer is released anywhere (a button disabled at its bound gets no
 * pointerup, so the release is heard on the window) or `repeat` answers false (the bound is reached).
 * `wasHeld()` tells the click that ends a hold not to step once more.
 */
export function useHoldRepeat(repeat: () => boolean) {
  const latest = useRef(repeat);
  const timers = useRef<{ delay?: ReturnType<typeof setTimeout>; every?: ReturnType<typeof setInterval> }>(
    {},
  );
  const held = useRef(false);
  const stopRef = useRef(() => {});

  useEffect(() => {
    latest.current = repeat;
  });

  useEffect(() => {
    const state = timers.current;
    const stop = () => {
      // The click that ends a hold comes in the same task as the release; a hold released off the button
      // gets no click, and must not swallow the next one (a key's).
      if (held.current) setTimeout(() => (held.current = false), 0);
      clearTimeout(state.delay);
      clearInterval(state.every);
      state.delay = undefined;
      state.every = undefined;
      window.removeEventListener('pointerup', stop);
      window.removeEventListener('pointercancel', stop);
    };
    stopRef.current = stop;
    return stop;
  }, []);

  const start = () => {
    stopRef.current();
    held.current = false;
    const state = timers.current;
    window.addEventListener('pointerup', stopRef.current);
    window.addEventListener('pointercancel', stopRef.current);
    state.delay = setTimeout(() => {
      held.current = true;
      if (!latest.current()) return;
      state.every = setInterval(() => {
        if (!latest.current()) stopRef.current();
      }, HOLD_REPEAT_INTERVAL_MS);
    }, HOLD_REPEAT_DELAY_MS);
  };

  const wasHeld = () => {
    const answer = held.current;
    held.current = false;
    return answer;
  };

  return { start, stop: () => stopRef.current(), wasHeld };
}
