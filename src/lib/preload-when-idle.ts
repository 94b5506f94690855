// Loads a lazy chunk the page will probably want (a detail modal's body with its chart) while the browser is
// idle, so the first click that needs it does not wait for the download and the evaluation (about 50 ms of main
// thread in bench/spa/trading.ts). Without requestIdleCallback (jsdom, older Safari) nothing is preloaded and
// the chunk loads on first use, as before. A failed preload is left to the use that needs it (lib/chunk-reload).
import { useEffect } from 'react';

/** At the latest this long after the page asked, even if the browser never goes idle. */
const PRELOAD_IDLE_TIMEOUT_MS = 5000;

export function usePreloadWhenIdle(load: () => Promise<unknown>): void {
  useEffect(() => {
    if (typeof requestIdleCallback === 'undefined') return;
    const id = requestIdleCallback(() => void load().catch(() => undefined), {
      timeout: PRELOAD_IDLE_TIMEOUT_MS,
    });
    return () => cancelIdleCallback(id);
  }, [load]);
}
