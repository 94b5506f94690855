import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, installChunkReload, RELOAD_GUARD_MS } from './chunk-reload';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  sessionStorage.clear();
});

/** What Vite dispatches when a dynamic import fails (a cancelable window event). */
function failChunk(): Event {
  const event = new Event('vite:preloadError', { cancelable: true });
  window.dispatchEvent(event);
  return event;
}

describe('a lazy chunk that fails to load', () => {
  it('reloads the page once, and lets a second failure soon after reach the error page', () => {
    let now = 1_000_000;
    const reload = vi.fn();
    stop = installChunkReload({ target: window, storage: sessionStorage, reload, now: () => now });

    const first = failChunk();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(first.defaultPrevented).toBe(true);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(now));

    // The reloaded page fails again at once: no second reload, the error is thrown.
    now += RELOAD_GUARD_MS - 1;
    const second = failChunk();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(second.defaultPrevented).toBe(false);

    // Much later (another deploy) it reloads again.
    now += 2;
    expect(failChunk().defaultPrevented).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('ignores a guard value that is not a time', () => {
    sessionStorage.setItem(CHUNK_RELOAD_KEY, 'garbage');
    const reload = vi.fn();
    stop = installChunkReload({ target: window, storage: sessionStorage, reload, now: () => 5_000 });
    failChunk();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
