import { useLayoutEffect, useRef, type ReactNode } from 'react';
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
  return (
    <div ref={stackRef} className="notification-stack" aria-live="polite" aria-relevant="additions">
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
