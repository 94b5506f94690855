import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../config/constants';
import {
  CHUNK_RELOAD_KEY,
  ChunkLoadTimeoutError,
  installChunkReload,
  RELOAD_GUARD_MS,
  withChunkTimeout,
} from './chunk-reload';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  sessionStorage.clear();
  vi.useRealTimers();
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

describe('a lazy chunk that takes longer than 120 s (SPEC.md §9 "Chunk load time-out 120 s")', () => {
  /** A chunk whose download never ends (a stalled connection). */
  const stalled = () => new Promise<never>(() => undefined);
  /** Lets the promise callbacks run. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('the constant is 120 s', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('fails at 120 s as a failed chunk: the page reloads once, the import stays pending', async () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    stop = installChunkReload({ target: window, storage: sessionStorage, reload, now: () => 1_000_000 });
    const outcome = vi.fn();
    withChunkTimeout(stalled)().then(outcome, outcome);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledOnce();
    await settle();
    expect(outcome).not.toHaveBeenCalled();
  });

  it('with the reload used up (or no handler), it rejects with the time-out: the error page follows', async () => {
    vi.useFakeTimers();
    const events: Event[] = [];
    const onError = (event: Event) => events.push(event);
    window.addEventListener('vite:preloadError', onError);
    try {
      const load = withChunkTimeout(stalled, 1000);
      const result = load();
      const failed = expect(result).rejects.toBeInstanceOf(ChunkLoadTimeoutError);
      await vi.advanceTimersByTimeAsync(1000);
      await failed;
      expect(events).toHaveLength(1);
      expect((events[0] as Event & { payload?: unknown }).payload).toBeInstanceOf(ChunkLoadTimeoutError);
    } finally {
      window.removeEventListener('vite:preloadError', onError);
    }
  });

  it('a chunk loaded in time resolves and fires nothing later; a chunk that fails rejects with its error', async () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    stop = installChunkReload({ target: window, storage: sessionStorage, reload, now: () => 1_000_000 });
    await expect(withChunkTimeout(() => Promise.resolve('module'))()).resolves.toBe('module');
    const broken = new Error('Failed to fetch dynamically imported module');
    await expect(withChunkTimeout(() => Promise.reject(broken))()).rejects.toBe(broken);
    await vi.advanceTimersByTimeAsync(2 * CHUNK_LOAD_TIMEOUT_MS);
    expect(reload).not.toHaveBeenCalled();
  });
});
