// Whether an element is on screen (or within ON_SCREEN_MARGIN of it), from one IntersectionObserver shared
// by every caller. The open-trades table uses it so that a price of a trade scrolled out of view redraws
// nothing: its row shows the numbers again, current, when it comes back (bench/spa/trading.ts). Without
// IntersectionObserver (jsdom) everything counts as on screen.
import { useEffect, useState, type RefObject } from 'react';

const ON_SCREEN_MARGIN = '200px 0px';

const listeners = new WeakMap<Element, (onScreen: boolean) => void>();
let observer: IntersectionObserver | undefined;

function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: ON_SCREEN_MARGIN },
  );
  return observer;
}

export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    listeners.set(element, setOnScreen);
    sharedObserver().observe(element);
    return () => {
      sharedObserver().unobserve(element);
      listeners.delete(element);
    };
  }, [ref]);
  return onScreen;
}
