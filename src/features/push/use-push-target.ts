// Where a notification's click lands (issue 41): /trading?signal=<uuid> and /trade_history?trade=<uuid>. The
// card or row is scrolled into view and outlined for a few seconds; a signal whose card is no longer on the
// page says so instead (its 99 s passed). The parameter is then removed, so a reload does not do it again.
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { addNotification, NotificationType } from '../../stores/notifications-store';
import './push.css';

export const PUSH_SIGNAL_PARAM = 'signal';
/** Set by the service worker for a signal whose expires_at had passed when its notification was clicked. */
export const PUSH_SIGNAL_EXPIRED_PARAM = 'signal_expired';
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

/** A page open this long has its cards from the socket: a card not in the store is gone, no need to wait. */
export function pageIsSettled(): boolean {
  return performance.now() > PUSH_TARGET_WAIT_MS;
}

/** How often the page looks for the card or row while it waits for it to be drawn. */
const LOOK_EVERY_MS = 100;

/**
 * Follows `?<param>=<uuid>`: the page looks for the element (`find`) until it is drawn, then highlights it. It
 * says the `missingText` key instead when the list does not have the item (`known`) and is complete
 * (`settled`), or when PUSH_TARGET_WAIT_MS passed without the element.
 */
export function usePushTarget(
  param: string,
  {
    find,
    known,
    settled,
  }: {
    find: (uuid: string) => Element | null;
    known: (uuid: string) => boolean;
    settled: () => boolean;
  },
  missingText: string,
): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const uuid = searchParams.get(param);
  // The caller's functions of this render, read by the timer.
  const latest = useRef({ find, known, settled, missingText });
  useEffect(() => {
    latest.current = { find, known, settled, missingText };
  });

  useEffect(() => {
    if (!uuid) return;
    const startedAt = Date.now();
    const timer = setInterval(() => {
      const current = latest.current;
      const found = current.find(uuid);
      const waited = Date.now() - startedAt >= PUSH_TARGET_WAIT_MS;
      if (!found && !waited && (current.known(uuid) || !current.settled())) return;
      clearInterval(timer);
      if (found) highlightElement(found);
      else addNotification(NotificationType.INFORMATION, current.missingText);
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.delete(param);
          return next;
        },
        { replace: true },
      );
    }, LOOK_EVERY_MS);
    return () => clearInterval(timer);
  }, [uuid, param, setSearchParams]);
}

/** ?signal_expired=<uuid>: the worker knew the card was gone; said at once, and the parameter removed. */
export function useExpiredSignalNotice(): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const expired = searchParams.get(PUSH_SIGNAL_EXPIRED_PARAM);
  useEffect(() => {
    if (!expired) return;
    addNotification(NotificationType.INFORMATION, 'push.signal_expired');
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete(PUSH_SIGNAL_EXPIRED_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [expired, setSearchParams]);
}
