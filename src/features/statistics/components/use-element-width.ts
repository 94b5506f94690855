import { useEffect, useRef, useState } from 'react';

/**
 * The width (px) of the element behind the returned ref, followed with a ResizeObserver, so a chart can fit
 * its number of x labels to the screen (down to 375 px). 0 until measured or where ResizeObserver is missing.
 */
export function useElementWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width;
      if (measured !== undefined) setWidth(Math.round(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
