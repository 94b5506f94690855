// A lazy chunk that cannot be loaded would take the whole app to the error page. The usual cause is a new
// deploy: dist/ was rebuilt while this page was open, so the chunk names it knows are gone. Vite reports a
// failed dynamic import as the window event `vite:preloadError`; the page then reloads once, which fetches
// the current index.html and its chunks. A second failure within RELOAD_GUARD_MS is let through to the error
// page (with its own reload button), so a broken deploy or a lost network cannot reload the page in a loop.
// The guard's time stamp lives in sessionStorage (this tab only; nothing secret).

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
