// The live signal cards as the screens count them down, read by both places that show a live signal: the
// signals panel (Main, Trading) and the every-page signal toasts (issue 39 item 5). The panel says it is on
// screen, so the toasts stand aside where the cards themselves are shown.
import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { useSecondClock } from '../../lib/use-second-clock';
import { signalSecondsLeft, signalsStore } from './signals-store';

export interface LiveSignal {
  signalUuid: string;
  /** Seconds left on the card's 99 s countdown (SPEC.md §4 "Signal card"), above 0. */
  secondsLeft: number;
  /** Seconds the card has run, for the auto-open countdown. */
  elapsedS: number;
}

/** The live cards, newest first, redrawn once a second while there are any. */
export function useLiveSignals(): LiveSignal[] {
  const { signal_list, countdown_start_by_uuid } = useSnapshot(signalsStore);
  const now = useSecondClock(signal_list.length > 0);
  return signal_list
    .map((signalUuid) => {
      const start = countdown_start_by_uuid[signalUuid] ?? now;
      return {
        signalUuid,
        secondsLeft: signalSecondsLeft(start, now),
        elapsedS: Math.floor(Math.max(0, now - start) / 1000),
      };
    })
    .filter((card) => card.secondsLeft > 0);
}

/**
 * How many signals panels are mounted. Screen state, not session state: no reset at logout (a panel mounted
 * then unmounts and counts itself off).
 */
const panelPresence = proxy({ count: 0 });

/** Called by the signals panel: while it is mounted the cards are on the page. */
export function useSignalsPanelPresence(): void {
  useEffect(() => {
    panelPresence.count += 1;
    return () => {
      panelPresence.count -= 1;
    };
  }, []);
}

/** Whether a signals panel is on the page (Main, Trading). */
export function useIsSignalsPanelShown(): boolean {
  return useSnapshot(panelPresence).count > 0;
}
