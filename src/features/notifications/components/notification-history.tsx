import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import {
  clearNotificationHistory,
  notificationsStore,
  toggleNotificationHistory,
} from '../../../stores/notifications-store';
import { NOTIFICATION_PALETTE, NotificationDescription, RelativeTime, useNow } from './notification-text';
import './notifications.css';

/** Header button labelled 'Notification' that opens or closes the history panel (SPEC.md §2). */
export function NotificationToggle() {
  const { t } = useTranslation();
  const { is_history_open, notification_list } = useSnapshot(notificationsStore);
  const title = is_history_open ? t('notification.close_history') : t('notification.open_history');
  const countId = useId();
  // The count badge sits beside the button, over its corner: the button is named 'Notification' (SPEC.md §2)
  // and visible text inside it would have to be part of that name (WCAG 2.5.3). It describes the button.
  const hasCount = notification_list.length > 0;
  return (
    <span className="notification-toggle-wrap">
      <button
        type="button"
        className={`icon-button notification-toggle${is_history_open ? ' is-active' : ''}`}
        aria-label={t('notification.label')}
        aria-describedby={hasCount ? countId : undefined}
        aria-expanded={is_history_open}
        aria-controls="notification-history"
        title={title}
        onClick={toggleNotificationHistory}
        data-testid="notification-toggle"
      >
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path
            d="M10 2.5a5 5 0 0 0-5 5v3.2L3.5 13.5h13L15 10.7V7.5a5 5 0 0 0-5-5zM8 15.5a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      {hasCount ? (
        <span id={countId} className="notification-count" aria-hidden="true">
          {notification_list.length}
        </span>
      ) : null}
    </span>
  );
}

/** The history panel: every notification, newest first, with its relative time. */
export function NotificationHistory() {
  const { t } = useTranslation();
  const { is_history_open, notification_list } = useSnapshot(notificationsStore);
  const now = useNow();
  if (!is_history_open) return null;
  const items = [...notification_list].reverse();
  return (
    <section
      id="notification-history"
      className="notification-history"
      aria-label={t('notification.history_title')}
      data-testid="notification-history"
    >
      <div className="notification-history-head">
        <h2 className="panel-title">{t('notification.history_title')}</h2>
        <div className="notification-history-actions">
          <button
            type="button"
            className="button is-small is-ghost"
            onClick={clearNotificationHistory}
            disabled={items.length === 0}
          >
            {t('notification.clear')}
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={t('notification.close_history')}
            onClick={toggleNotificationHistory}
          >
            <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      {items.length === 0 ? (
        <p className="muted notification-empty">{t('notification.empty')}</p>
      ) : (
        <ul className="notification-history-list">
          {items.map((item) => (
            <li
              key={item.uuid}
              className={`notification-history-item palette-${NOTIFICATION_PALETTE[item.type]}`}
            >
              <div className="notification-head">
                <span className="notification-type">{t(`notification.type.${item.type}`)}</span>
                <RelativeTime createdAt={item.created_at} now={now} />
              </div>
              <div className="notification-body">
                <NotificationDescription description={item.description} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
