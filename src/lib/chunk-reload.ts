// A lazy chunk that cannot be loaded would take the whole app to the error page. The usual cause is a new
// deploy: dist/ was rebuilt while this page was open, so the chunk names it knows are gone. Vite reports a
// failed dynamic import as the window event `vite:preloadError`; the page then reloads once, which fetches
// the current index.html and its chunks. A second failure within RELOAD_GUARD_MS is let through to the error
// page (with its own reload button), so a broken deploy or a lost network cannot reload the page in a loop.
// The guard's time stamp lives in sessionStorage (this tab only; nothing secret).
// A chunk that takes longer than CHUNK_LOAD_TIMEOUT_MS (SPEC.md §9 "Chunk load time-out 120 s") fails the same
// way: withChunkTimeout dispatches the same event, so the same reload (or error page) follows.
import { CHUNK_LOAD_TIMEOUT_MS } from '../config/constants';

export const RELOAD_GUARD_MS = 30_000;
export const CHUNK_RELOAD_KEY = 'signaldesk.chunk_reload_at';

export interface ChunkReloadDeps {
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now: () => number;
}

/** Listens for failed chunk loads; answers the function that stops listening. */
export function installChunkReload(deps: ChunkReloadDeps): () => void {
  const onPreloadError = (event: Event) => {
    const last = Number(deps.storage.getItem(CHUNK_RELOAD_KEY));
    if (Number.isFinite(last) && last > 0 && deps.now() - last < RELOAD_GUARD_MS) return;
    deps.storage.setItem(CHUNK_RELOAD_KEY, String(deps.now()));
    // The import's promise stays pending instead of rejecting: the page is going away.
    event.preventDefault();
    deps.reload();
  };
  deps.target.addEventListener('vite:preloadError', onPreloadError);
  return () => deps.target.removeEventListener('vite:preloadError', onPreloadError);
}

/** A lazy chunk that did not load within its time-out. */
export class ChunkLoadTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`A part of the page did not load within ${timeoutMs / 1000} s`);
    this.name = 'ChunkLoadTimeoutError';
  }
}

/**
 * Wraps a lazy chunk's loader (`() => import('./x')`) so that a load still pending after `timeoutMs` fails
 * (SPEC.md §9): a cancelable `vite:preloadError` event carrying the error is dispatched on `target`, as Vite does
 * for a chunk it could not load. When the page's handler takes it (installChunkReload: the page reloads) the
 * promise stays pending; otherwise it rejects, and React's error boundary shows the error page. A load that
 * ends after its time-out is ignored.
 */
export function withChunkTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
  target: Pick<EventTarget, 'dispatchEvent'> = window,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      let isSettled = false;
      const timer = setTimeout(() => {
        if (isSettled) return;
        isSettled = true;
        const error = new ChunkLoadTimeoutError(timeoutMs);
        const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
        target.dispatchEvent(event);
        if (!event.defaultPrevented) reject(error);
      }, timeoutMs);
      load().then(
        (value) => {
          if (isSettled) return;
          isSettled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (isSettled) return;
          isSettled = true;
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}
