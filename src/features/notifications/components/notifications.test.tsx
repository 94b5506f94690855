import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { initTestI18n } from '../../../testing/i18n-test';
import { NOTIFICATION_CLOCK_TICK_MS } from '../../../config/constants';
import {
  addNotification,
  NotificationType,
  resetNotificationsStore,
} from '../../../stores/notifications-store';
import { NotificationHistory, NotificationToggle } from './notification-history';
import { NotificationList } from './notification-list';

beforeAll(async () => {
  await initTestI18n();
});
beforeEach(() => {
  localStorage.clear();
  resetNotificationsStore();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('notification components', () => {
  test('a toast shows the translated message and closes on its button', async () => {
    render(<NotificationList />);
    await act(async () => {
      addNotification(NotificationType.SUCCESS, 'notification.update_platform_preferences_success');
    });
    expect(screen.getByText('Update Platform Preferences Success')).toBeInTheDocument();
    expect(screen.getByText('Now')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    });
    expect(screen.queryByText('Update Platform Preferences Success')).toBeNull();
  });

  test('plain strings are shown as they are', async () => {
    render(<NotificationList />);
    await act(async () => {
      addNotification(NotificationType.ERROR, [
        'notification.update_trade_preferences_error',
        'Must be at least 60',
      ]);
    });
    expect(screen.getByText('Update Trade Preferences Error')).toBeInTheDocument();
    expect(screen.getByText('Must be at least 60')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });

  test('the toggle is labelled Notification and opens and closes the history', async () => {
    render(
      <>
        <NotificationToggle />
        <NotificationHistory />
      </>,
    );
    const toggle = screen.getByRole('button', { name: 'Notification' });
    expect(toggle).toHaveAttribute('title', 'Open Notification history');
    await act(async () => {
      fireEvent.click(toggle);
    });
    expect(toggle).toHaveAttribute('title', 'Close Notification history');
    expect(screen.getByTestId('notification-history')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(toggle);
    });
    expect(screen.queryByTestId('notification-history')).toBeNull();
  });

  test('relative time reads Now, then {n} min ago', async () => {
    vi.useFakeTimers();
    render(
      <>
        <NotificationToggle />
        <NotificationHistory />
      </>,
    );
    await act(async () => {
      addNotification(NotificationType.INFORMATION, 'hello', { isOnlyManualClose: true });
      fireEvent.click(screen.getByRole('button', { name: 'Notification' }));
    });
    expect(screen.getByText('Now')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2 * 60_000 + NOTIFICATION_CLOCK_TICK_MS);
    });
    expect(screen.getByText('2 min ago')).toBeInTheDocument();
  });
});
