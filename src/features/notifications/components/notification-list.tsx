import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { closeNotification, notificationsStore } from '../../../stores/notifications-store';
import { NOTIFICATION_PALETTE, NotificationDescription, RelativeTime, useNow } from './notification-text';
import './notifications.css';

/**
 * The floating list of visible notifications, newest first. `children` are other toasts the app places in this
 * area under the notifications (the live signal toasts, issue 39), so every toast goes where this area goes.
 */
export function NotificationList({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { notification_list } = useSnapshot(notificationsStore);
  const now = useNow();
  const visible = notification_list.filter((item) => item.isVisible).reverse();
  const stackRef = useToastRoom();
  const raised = useClearOfFocus(stackRef);
  return (
    <div
      ref={stackRef}
      className={`notification-stack${raised ? ' is-raised' : ''}`}
      aria-live="polite"
      aria-relevant="additions"
    >
      {visible.map((item) => (
        <div
          key={item.uuid}
          className={`notification-toast palette-${NOTIFICATION_PALETTE[item.type]}`}
          role={item.type === 'Error' ? 'alert' : 'status'}
          data-testid="notification"
          data-type={item.type}
        >
          <div className="notification-head">
            <span className="notification-type">{t(`notification.type.${item.type}`)}</span>
            <RelativeTime createdAt={item.created_at} now={now} />
            <button
              type="button"
              className="icon-button notification-close"
              aria-label={t('common.close')}
              onClick={() => closeNotification(item.uuid)}
            >
              <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
                <path
                  d="M3 3l10 10M13 3L3 13"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                />
              </svg>
            </button>
          </div>
          <div className="notification-body">
            <NotificationDescription description={item.description} />
          </div>
        </div>
      ))}
      {children}
    </div>
  );
}

/** Two rectangles share some area. */
export function rectsOverlap(
  a: Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right'>,
  b: Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right'>,
): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The toasts never sit on what the trader is working with (issue 53): each saved edit on Trade Preferences says
 * "saved" in a toast, and at the bottom left those covered the fields and the Notifications switches under them.
 * While the element the trader last focused or pressed would be under the stack at its bottom place, the stack
 * goes to the top of the screen (below the header) — unless the element is up there too. Decided from where the
 * stack would be at the bottom (its bottom edge is remembered while it is there), so it does not flip back and forth.
 */
function useClearOfFocus(ref: RefObject<HTMLDivElement | null>): boolean {
  const [raised, setRaised] = useState(false);
  const raisedRef = useRef(false);
  useEffect(() => {
    let target: Element | null = null;
    let bottomEdge: number | null = null;
    let frame = 0;
    const decide = () => {
      frame = 0;
      const stack = ref.current;
      if (!stack) return;
      const now = stack.getBoundingClientRect();
      if (!raisedRef.current) bottomEdge = now.bottom;
      let next = false;
      if (target && target.isConnected && now.height > 0 && bottomEdge !== null && !stack.contains(target)) {
        const field = target.getBoundingClientRect();
        const atBottom = {
          left: now.left,
          right: now.right,
          bottom: bottomEdge,
          top: bottomEdge - now.height,
        };
        const headerHeight = parseFloat(
          getComputedStyle(document.documentElement).getPropertyValue('--header-height'),
        );
        const top = (Number.isFinite(headerHeight) ? headerHeight : 0) + 12;
        const atTop = { left: now.left, right: now.right, top, bottom: top + now.height };
        next = rectsOverlap(field, atBottom) && !rectsOverlap(field, atTop);
      }
      if (next !== raisedRef.current) {
        raisedRef.current = next;
        setRaised(next);
      }
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(decide);
    };
    const remember = (event: Event) => {
      if (event.target instanceof Element) target = event.target;
      later();
    };
    document.addEventListener('focusin', remember);
    document.addEventListener('pointerdown', remember);
    window.addEventListener('scroll', later, true);
    window.addEventListener('resize', later);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(later);
    if (ref.current) observer?.observe(ref.current);
    return () => {
      document.removeEventListener('focusin', remember);
      document.removeEventListener('pointerdown', remember);
      window.removeEventListener('scroll', later, true);
      window.removeEventListener('resize', later);
      observer?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return raised;
}

/**
 * The room the toasts take at the bottom of the screen, as `--toast-room` on the document (issue 39): the page
 * adds it below its content (layout.css), so whatever a toast covers can be scrolled up above it — a button at
 * the bottom of a phone's page is never out of reach while a signal's toast waits out its 99 s.
 */
function useToastRoom() {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const stack = ref.current;
    if (!stack) return;
    const root = document.documentElement;
    const update = () => {
      const height = stack.getBoundingClientRect().height;
      root.style.setProperty('--toast-room', `${height > 0 ? Math.ceil(height) + 16 : 0}px`);
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(stack);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toast-room');
    };
  }, []);
  return ref;
}
