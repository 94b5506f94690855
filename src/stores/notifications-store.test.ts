import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  NOTIFICATION_AUTO_CLOSE_MS,
  NOTIFICATION_ERROR_AUTO_CLOSE_MS,
  NOTIFICATION_LIST_MAX_COUNT,
} from '../config/constants';
import { StorageKey } from '../config/storage-keys';
import {
  addNotification,
  closeNotification,
  loadNotifications,
  minutesAgo,
  NotificationType,
  notificationsStore,
  resetNotificationsStore,
  toggleNotificationHistory,
} from './notifications-store';

const visible = () => notificationsStore.notification_list.filter((item) => item.isVisible);

beforeEach(() => {
  localStorage.clear();
  resetNotificationsStore();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('auto-close', () => {
  test('Information, Warning and Success close after the standard delay', () => {
    addNotification(NotificationType.INFORMATION, 'a');
    addNotification(NotificationType.WARNING, 'b');
    addNotification(NotificationType.SUCCESS, 'c');
    vi.advanceTimersByTime(NOTIFICATION_AUTO_CLOSE_MS - 1);
    expect(visible()).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(visible()).toHaveLength(0);
  });

  test('Error stays for the longer error delay', () => {
    addNotification(NotificationType.ERROR, 'boom');
    vi.advanceTimersByTime(NOTIFICATION_AUTO_CLOSE_MS);
    expect(visible()).toHaveLength(1);
    vi.advanceTimersByTime(NOTIFICATION_ERROR_AUTO_CLOSE_MS - NOTIFICATION_AUTO_CLOSE_MS);
    expect(visible()).toHaveLength(0);
  });

  test('manual-close-only notifications never close by themselves', () => {
    const uuid = addNotification(NotificationType.WARNING, 'stay', { isOnlyManualClose: true });
    vi.advanceTimersByTime(NOTIFICATION_ERROR_AUTO_CLOSE_MS * 10);
    expect(visible()).toHaveLength(1);
    closeNotification(uuid);
    expect(visible()).toHaveLength(0);
  });

  test('closing hides an item but keeps it in the history', () => {
    const uuid = addNotification(NotificationType.SUCCESS, 'kept');
    closeNotification(uuid);
    expect(notificationsStore.notification_list).toHaveLength(1);
    expect(notificationsStore.notification_list[0]?.isVisible).toBe(false);
  });

  test('the same news again replaces its visible toast, kept in the history; other news stacks (issue 53)', () => {
    addNotification(NotificationType.SUCCESS, 'saved');
    vi.advanceTimersByTime(NOTIFICATION_AUTO_CLOSE_MS - 1000);
    const latest = addNotification(NotificationType.SUCCESS, 'saved');
    addNotification(NotificationType.SUCCESS, ['saved', 'BTCUSDT']);
    addNotification(NotificationType.ERROR, 'saved');
    expect(visible().map((item) => [item.type, item.description])).toEqual([
      [NotificationType.SUCCESS, ['saved']],
      [NotificationType.SUCCESS, ['saved', 'BTCUSDT']],
      [NotificationType.ERROR, ['saved']],
    ]);
    expect(visible()[0]?.uuid).toBe(latest);
    expect(notificationsStore.notification_list).toHaveLength(4);
    // The replacement keeps its own full delay.
    vi.advanceTimersByTime(1000);
    expect(visible().some((item) => item.uuid === latest)).toBe(true);
    // A notice the trader must close is never replaced.
    addNotification(NotificationType.WARNING, 'away', { isOnlyManualClose: true });
    addNotification(NotificationType.WARNING, 'away', { isOnlyManualClose: true });
    expect(visible().filter((item) => item.description[0] === 'away')).toHaveLength(2);
  });
});

describe('history and persistence', () => {
  test('the list is capped, oldest dropped', () => {
    for (let i = 0; i < NOTIFICATION_LIST_MAX_COUNT + 5; i += 1)
      addNotification(NotificationType.INFORMATION, `n${i}`);
    const list = notificationsStore.notification_list;
    expect(list).toHaveLength(NOTIFICATION_LIST_MAX_COUNT);
    expect(list[0]?.description).toEqual(['n5']);
    expect(list.at(-1)?.description).toEqual([`n${NOTIFICATION_LIST_MAX_COUNT + 4}`]);
  });

  test('the list is persisted and reloaded (hidden, since its timers are gone)', () => {
    addNotification(NotificationType.SUCCESS, ['notification.update_trade_preferences_success']);
    const stored = JSON.parse(localStorage.getItem(StorageKey.NOTIFICATION_LIST) ?? '[]') as unknown[];
    expect(stored).toHaveLength(1);
    resetNotificationsStore();
    loadNotifications();
    expect(notificationsStore.notification_list).toHaveLength(1);
    expect(notificationsStore.notification_list[0]).toMatchObject({
      type: 'Success',
      description: ['notification.update_trade_preferences_success'],
      isVisible: false,
    });
  });

  test.each(['{not json', '{"a":1}', '[{"uuid":1}]'])(
    'a corrupt stored list (%s) gives "Notification load error"',
    (raw) => {
      localStorage.setItem(StorageKey.NOTIFICATION_LIST, raw);
      loadNotifications();
      const list = notificationsStore.notification_list;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        type: 'Error',
        description: ['notification.load_error'],
        isVisible: true,
      });
    },
  );

  test('the history panel toggles', () => {
    expect(notificationsStore.is_history_open).toBe(false);
    toggleNotificationHistory();
    expect(notificationsStore.is_history_open).toBe(true);
    toggleNotificationHistory();
    expect(notificationsStore.is_history_open).toBe(false);
  });

  test('minutesAgo counts whole minutes', () => {
    expect(minutesAgo(0, 59_999)).toBe(0);
    expect(minutesAgo(0, 60_000)).toBe(1);
    expect(minutesAgo(0, 5 * 60_000 + 10)).toBe(5);
  });
});
