// React's lazy() for the app's lazy chunks, with SPEC.md §9's chunk-load time-out (chunk-reload.ts
// withChunkTimeout): every lazy chunk of the SPA is declared with lazyChunk, never with lazy() alone.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withChunkTimeout } from './chunk-reload';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's own lazy() bound
export function lazyChunk<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(withChunkTimeout(load));
}
