import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_CLOCK_TICK_MS, NOTIFICATION_NOW_THRESHOLD_MS } from '../../../config/constants';
import { minutesAgo, NotificationType } from '../../../stores/notifications-store';
import { Palette } from '../../../components/ui';

export const NOTIFICATION_PALETTE: Readonly<Record<NotificationType, Palette>> = {
  [NotificationType.INFORMATION]: Palette.BLUE,
  [NotificationType.WARNING]: Palette.ORANGE,
  [NotificationType.ERROR]: Palette.RED,
  [NotificationType.SUCCESS]: Palette.GREEN,
};

/** Each description line is a message key (translated) or a plain string (shown as it is). */
export function NotificationDescription({ description }: { description: readonly string[] }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {description.map((line, index) => (
        <div key={index} className="notification-line">
          {i18n.exists(line) ? t(line) : line}
        </div>
      ))}
    </>
  );
}

/** Current time, redrawn every NOTIFICATION_CLOCK_TICK_MS for relative times. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), NOTIFICATION_CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function RelativeTime({ createdAt, now }: { createdAt: number; now: number }) {
  const { t } = useTranslation();
  const text =
    now - createdAt < NOTIFICATION_NOW_THRESHOLD_MS
      ? t('notification.now')
      : t('notification.min_ago', { n: minutesAgo(createdAt, now) });
  return (
    <time className="notification-time" dateTime={new Date(createdAt).toISOString()}>
      {text}
    </time>
  );
}
