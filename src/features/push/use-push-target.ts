// Where a notification's click lands (issue 41): /trading?signal=<uuid> and /trade_history?trade=<uuid>. The
// card or row is scrolled into view and outlined for a few seconds; a signal whose card is no longer on the
// page says so instead (its 99 s passed). The parameter is then removed, so a reload does not do it again.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import './push.css';

export const PUSH_SIGNAL_PARAM = 'signal';
export const PUSH_TRADE_PARAM = 'trade';
/** How long the card or row stays outlined. */
export const PUSH_HIGHLIGHT_MS = 4000;
/**
 * How long a page that just loaded waits for the card or row (the socket's recent signals, the day's history)
 * before it says the signal expired or the trade is not listed.
 */
export const PUSH_TARGET_WAIT_MS = 5000;

const HIGHLIGHT_CLASS = 'is-push-target';

/** Scrolls `element` into view and outlines it for PUSH_HIGHLIGHT_MS. */
export function highlightElement(element: Element): void {
  element.scrollIntoView({ block: 'center', behavior: 'smooth' });
  element.classList.add(HIGHLIGHT_CLASS);
  setTimeout(() => element.classList.remove(HIGHLIGHT_CLASS), PUSH_HIGHLIGHT_MS);
}

/** A page open this long has its cards from the socket: a missing card is gone, no need to wait. */
export function pageIsSettled(): boolean {
  return performance.now() > PUSH_TARGET_WAIT_MS;
}

/**
 * Follows `?<param>=<uuid>`: while the page has it, `find` is asked for the element each time `version`
 * changes (the cards or rows were redrawn); found, it is highlighted; not found within PUSH_TARGET_WAIT_MS
 * (or at once when `settled()` says the list is complete and lacks it), the `missingText` key is told.
 */
export function usePushTarget(
  param: string,
  find: (uuid: string) => Element | null,
  missingText: string,
  version: unknown,
  settled: () => boolean,
): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const uuid = searchParams.get(param);

  useEffect(() => {
    if (!uuid) return;
    const done = (found: Element | null) => {
      if (found) highlightElement(found);
      else addNotification(NotificationType.INFORMATION, missingText);
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.delete(param);
          return next;
        },
        { replace: true },
      );
    };
    // Drawn after this render: look on the next frame.
    const frame = requestAnimationFrame(() => {
      const found = find(uuid);
      if (found || settled()) done(found);
    });
    const timer = setTimeout(() => done(find(uuid)), PUSH_TARGET_WAIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
    // `find` and `missingText` are the caller's; the look repeats when the uuid, the list or its state change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uuid, version]);
}
