// Something heavy (a chart) drawn in a task of its own after the browser has painted what came before it.
import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render and until the browser has painted it, then true: the re-render is asked for by a
 * timer set in the frame before the paint, so it starts after that paint, as a transition React renders in
 * slices of a few milliseconds (a chart is tens of milliseconds of work, more on a busy machine: in one task it
 * would hold up the next click). The live updates (app/live-events.ts: a batch at most every LIVE_BATCH_MS)
 * interrupt a transition and make React start it again, so that interval must leave room for a whole chart.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
